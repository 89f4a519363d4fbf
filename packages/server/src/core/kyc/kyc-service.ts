import { auditEntry } from '../dashboard/dashboard-user.js';
import { dashboardMails, mailLanguageOf } from '../dashboard/dashboard-mails.js';
import { AkweError } from '../errors/index.js';
import type { MemberCaller } from '../dashboard/dashboard-service.js';
import type { AuditAction, DashboardStore, DashboardUser, RequestOrigin } from '../dashboard/dashboard-user.js';
import type { Mailer } from '../dashboard/mailer.js';
import type { EventFactory } from '../events/event-factory.js';
import type { MerchantService } from '../merchants/merchant-service.js';
import { isoNow, type Clock } from '../shared/clock.js';
import type { IdSource } from '../shared/ids.js';
import type { DocumentType } from './document-type.js';
import {
  checkCompanyDetails,
  MAX_DOCUMENTS,
  requiredDocumentKinds,
  type DocumentKind,
  type KycDocument,
  type KycDocumentFiles,
  type KycStore,
  type KycSubmission,
  type SubmissionStatus,
} from './kyc-submission.js';

/** A file the upload has sealed already (storage/kyc-document-vault.ts), waiting for its submission. */
export interface UploadedDocument {
  id: string;
  kind: DocumentKind;
  contentType: DocumentType;
  sizeBytes: number;
  sha256: string;
  originalName: string | null;
}

export interface KycServiceDeps {
  store: KycStore;
  files: KycDocumentFiles;
  merchants: MerchantService;
  /** Owners to email, and the audit log. */
  users: DashboardStore;
  mailer: Mailer;
  /** The decision's events (merchant.kyc.validated / .rejected). */
  events: EventFactory;
  clock: Clock;
  newId: IdSource;
  publicUrl: string;
}

/**
 * KYC (docs/dashboard.md "KYC"): a merchant's owners and admins submit the company's details and
 * documents, which moves the merchant's KYC status to `submitted`; a platform administrator
 * validates or rejects the submission (with a reason), which sets the merchant's KYC status, writes
 * it in the merchant's audit log, emits merchant.kyc.validated / .rejected (in both environments)
 * and emails the merchant's owners. A validated merchant may create
 * live keys. Every change of KYC status goes through MerchantService.updateMerchant, which records
 * it in the merchant's status history.
 */
export class KycService {
  constructor(private readonly deps: KycServiceDeps) {}

  /** Refuses before any file is read when the merchant cannot submit now (under review, or validated). */
  async checkOpen(merchantId: string): Promise<void> {
    const merchant = await this.deps.merchants.getMerchant(merchantId);
    if (merchant.kycStatus === 'submitted') throw new AkweError('kyc_under_review');
    if (merchant.kycStatus === 'validated') throw new AkweError('kyc_already_validated');
  }

  /**
   * Records the submission of files the upload sealed already. Whatever refuses it (a field, a
   * missing document, a submission under review meanwhile) removes those files: nothing stays.
   */
  async submit(caller: MemberCaller, rawDetails: Record<string, string>, documents: UploadedDocument[], origin: RequestOrigin): Promise<KycSubmission> {
    let recorded = false;
    try {
      const details = checkCompanyDetails(rawDetails);
      if (documents.length > MAX_DOCUMENTS) throw new AkweError('too_many_documents', `At most ${MAX_DOCUMENTS} documents per submission.`);
      const missing = requiredDocumentKinds.filter((kind) => !documents.some((d) => d.kind === kind));
      if (missing.length > 0) {
        throw new AkweError('validation_error', `Missing documents: ${missing.join(', ')}.`, {
          field: missing[0],
          details: missing.map((kind) => ({ field: kind, message: `${kind} is required (a PDF, PNG or JPEG file)` })),
        });
      }
      await this.checkOpen(caller.merchantId);
      const now = this.now();
      const submissionId = this.deps.newId();
      const submission: KycSubmission = {
        id: submissionId,
        merchantId: caller.merchantId,
        status: 'submitted',
        details,
        submittedBy: caller.user.id,
        submittedAt: now,
        reviewedBy: null,
        reviewedAt: null,
        rejectionReason: null,
        documents: documents.map((d): KycDocument => ({ ...d, submissionId, merchantId: caller.merchantId, createdAt: now })),
      };
      if (!(await this.deps.store.insertSubmission(submission))) throw new AkweError('kyc_under_review');
      recorded = true;
      await this.deps.merchants.updateMerchant(caller.merchantId, { kycStatus: 'submitted' }, { actor: `user:${caller.user.id}` });
      await this.audit('kyc.submitted', caller.user.id, caller.merchantId, `${submissionId} (${documents.length} documents)`, origin);
      return submission;
    } finally {
      if (!recorded) {
        await this.deps.files.remove(
          caller.merchantId,
          documents.map((d) => d.id),
        );
      }
    }
  }

  /** The merchant's last submission (its status and rejection reason), or undefined when it never submitted. */
  latest(merchantId: string): Promise<KycSubmission | undefined> {
    return this.deps.store.latestOfMerchant(merchantId);
  }

  list(filter: { status?: SubmissionStatus; limit: number; startingAfter?: string }): Promise<{ data: KycSubmission[]; hasMore: boolean }> {
    return this.deps.store.page(filter).then((page) => {
      if (!page) throw AkweError.ofField('invalid_cursor', 'starting_after', 'starting_after must be the next_cursor of a previous page of this list.');
      return page;
    });
  }

  async get(id: string): Promise<KycSubmission> {
    const submission = await this.deps.store.findById(id.toLowerCase());
    if (!submission) throw new AkweError('not_found', `no KYC submission with id ${id}`);
    return submission;
  }

  /** A document's plaintext, for a reviewer; the download is in the audit log. */
  async document(admin: DashboardUser, submissionId: string, documentId: string, origin: RequestOrigin): Promise<{ document: KycDocument; content: Buffer }> {
    const submission = await this.get(submissionId);
    const document = submission.documents.find((d) => d.id === documentId.toLowerCase());
    if (!document) throw new AkweError('not_found', `no document with id ${documentId} in this submission`);
    const content = await this.deps.files.read(submission.merchantId, document.id);
    await this.audit('admin.kyc_document_downloaded', admin.id, submission.merchantId, `${submission.id}/${document.id} (${document.kind})`, origin);
    return { document, content };
  }

  approve(admin: DashboardUser, id: string, origin: RequestOrigin): Promise<KycSubmission> {
    return this.decide(admin, id, null, origin);
  }

  reject(admin: DashboardUser, id: string, reason: string, origin: RequestOrigin): Promise<KycSubmission> {
    const trimmed = reason.trim();
    if (trimmed.length === 0 || trimmed.length > 1000) throw AkweError.ofField('validation_error', 'reason', 'reason must be 1 to 1000 characters');
    return this.decide(admin, id, trimmed, origin);
  }

  private async decide(admin: DashboardUser, id: string, rejectionReason: string | null, origin: RequestOrigin): Promise<KycSubmission> {
    const current = await this.get(id);
    const status = rejectionReason === null ? 'validated' : 'rejected';
    const decided = await this.deps.store.decide(current.id, { status, reviewedBy: admin.id, reviewedAt: this.now(), rejectionReason });
    if (!decided) throw new AkweError('kyc_not_under_review', `This submission is ${current.status} already.`);
    // The decision's events commit with the status change (one per environment: test endpoints hear it too).
    await this.deps.merchants.updateMerchant(decided.merchantId, { kycStatus: status }, { actor: `admin:${admin.id}` }, (merchant) =>
      (['test', 'live'] as const).map((environment) => this.deps.events.merchantKyc(status, merchant, rejectionReason, environment)),
    );
    await this.audit(status === 'validated' ? 'kyc.validated' : 'kyc.rejected', admin.id, decided.merchantId, rejectionReason ?? decided.id, origin);
    await this.tellOwners(decided);
    return decided;
  }

  /** The decision by email to the merchant's owners; a failed email does not undo it (the dashboard shows it). */
  private async tellOwners(submission: KycSubmission): Promise<void> {
    const merchant = await this.deps.merchants.getMerchant(submission.merchantId);
    const owners = (await this.deps.users.listMembers(submission.merchantId)).filter((m) => m.role === 'owner');
    const link = new URL('/dashboard/kyc', this.deps.publicUrl).toString();
    for (const owner of owners) {
      // Each owner in the language they chose in the dashboard.
      const language = mailLanguageOf(await this.deps.users.findUserById(owner.userId).catch(() => undefined));
      const mail =
        submission.status === 'validated'
          ? dashboardMails.kycValidated(language, merchant.name, link)
          : dashboardMails.kycRejected(language, merchant.name, submission.rejectionReason ?? '', link);
      await this.deps.mailer.send({ to: owner.email, ...mail }).catch(() => {});
    }
  }

  private async audit(action: AuditAction, userId: string, merchantId: string, target: string, origin: RequestOrigin): Promise<void> {
    await this.deps.users.insertAudit(auditEntry(this.deps, { action, userId, merchantId, target }, origin));
  }

  private now(): string {
    return isoNow(this.deps.clock);
  }
}
