import { dashboardMails, mailLanguageOf } from '../dashboard/dashboard-mails.js';
import type { DashboardStore, DashboardUser } from '../dashboard/dashboard-user.js';
import type { Mailer } from '../dashboard/mailer.js';
import { may } from '../dashboard/permissions.js';
import type { Merchant } from '../merchants/merchant.js';
import type { ApprovalRequest } from './approval.js';

export interface ApprovalNoticeDeps {
  members: Pick<DashboardStore, 'listMembers' | 'findUserById'>;
  merchants: { getMerchant(id: string): Promise<Merchant> };
  mailer: Mailer;
  /** The dashboard's origin, for the link to its Approvals page. */
  publicUrl: string;
  /** A mail that could not be sent: reported, never the submission's failure. */
  onMailError?: (error: unknown) => void;
}

/**
 * Tells the members who may decide (`approvals.decide`), except its maker, that a live money-out
 * waits for them (docs/dashboard.md "Approvals"), each in their own language. Sent after the
 * submission is answered: a slow or failing mail server never delays or fails it.
 */
export class ApprovalNotices {
  constructor(private readonly deps: ApprovalNoticeDeps) {}

  waiting(request: ApprovalRequest, maker: DashboardUser): void {
    void this.send(request, maker).catch((error: unknown) => this.deps.onMailError?.(error));
  }

  private async send(request: ApprovalRequest, maker: DashboardUser): Promise<void> {
    const [members, merchant] = await Promise.all([this.deps.members.listMembers(request.merchantId), this.deps.merchants.getMerchant(request.merchantId)]);
    const link = new URL('/dashboard/approvals', this.deps.publicUrl).toString();
    for (const member of members) {
      if (member.userId === maker.id || !may(member.role, 'approvals.decide')) continue;
      const user = await this.deps.members.findUserById(member.userId);
      const words = dashboardMails.approvalWaiting(mailLanguageOf(user), {
        maker: maker.name,
        merchant: merchant.name,
        kind: request.kind,
        amountMinor: request.amountMinor,
        currency: request.currency,
        expiresAt: request.expiresAt,
        link,
      });
      await this.deps.mailer.send({ to: member.email, ...words });
    }
  }
}
