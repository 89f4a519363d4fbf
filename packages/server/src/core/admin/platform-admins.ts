import { AkweError } from '../errors/index.js';
import type { DashboardStore } from '../dashboard/dashboard-user.js';
import { isoNow, type Clock } from '../shared/clock.js';
import type { IdSource } from '../shared/ids.js';

/** A dashboard user who may use the back office (/api/v1/admin): the platform's operators, never a merchant's role. */
export interface PlatformAdmin {
  userId: string;
  email: string;
  name: string;
  grantedAt: string;
  grantedBy: string;
}

export interface PlatformAdminStore {
  isAdmin(userId: string): Promise<boolean>;
  /** False when the user is one already. */
  grant(userId: string, grantedAt: string, grantedBy: string): Promise<boolean>;
  /** False when the user was not one. */
  revoke(userId: string): Promise<boolean>;
  list(): Promise<PlatformAdmin[]>;
}

/**
 * Who the platform's administrators are. Granted and revoked only from the server's command line
 * (`akwe admins grant|revoke <email>`): no route makes an administrator, so no stolen session or
 * merchant role can become one. Each change is in the audit log.
 */
export class PlatformAdmins {
  constructor(private readonly deps: { store: PlatformAdminStore; users: DashboardStore; clock: Clock; newId: IdSource }) {}

  isAdmin(userId: string): Promise<boolean> {
    return this.deps.store.isAdmin(userId);
  }

  list(): Promise<PlatformAdmin[]> {
    return this.deps.store.list();
  }

  /** `actor` says who did it in the audit log (`cli`). Answers whether anything changed. */
  async grant(email: string, actor: string): Promise<boolean> {
    const user = await this.userOf(email);
    const changed = await this.deps.store.grant(user.id, isoNow(this.deps.clock), actor);
    if (changed) await this.audit('admin.granted', user.id, actor);
    return changed;
  }

  async revoke(email: string, actor: string): Promise<boolean> {
    const user = await this.userOf(email);
    const changed = await this.deps.store.revoke(user.id);
    if (changed) await this.audit('admin.revoked', user.id, actor);
    return changed;
  }

  private async userOf(email: string) {
    const user = await this.deps.users.findUserByEmail(email.trim().toLowerCase());
    if (!user) throw new AkweError('not_found', `no dashboard user with the address ${email}`);
    return user;
  }

  private async audit(action: 'admin.granted' | 'admin.revoked', userId: string, actor: string): Promise<void> {
    await this.deps.users.insertAudit({
      id: this.deps.newId(),
      merchantId: null,
      userId: null,
      action,
      target: `${userId} by ${actor}`,
      ip: null,
      userAgent: null,
      createdAt: isoNow(this.deps.clock),
    });
  }
}
