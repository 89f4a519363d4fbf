import type { Kysely, Selectable } from 'kysely';
import type {
  AuditEntry,
  DashboardStore,
  DashboardUser,
  EmailTokenPurpose,
  EmailTokenRecord,
  Member,
  Membership,
  RefreshTokenRecord,
  RoleChangeOutcome,
  UserMembership,
} from '../../core/dashboard/dashboard-user.js';
import type { Role } from '../../core/dashboard/permissions.js';
import type { DatabaseCapabilities } from '../database.js';
import type { AuditLogTable, Database, EmailTokenTable, RefreshTokenTable, UserTable } from '../schema.js';
import { isUniqueViolation } from '../unique-violation.js';

const userFromRow = (row: Selectable<UserTable>): DashboardUser => ({
  id: row.id,
  email: row.email,
  name: row.name,
  passwordHash: row.password_hash,
  totpSecretSealed: row.totp_secret,
  totpEnabledAt: row.totp_enabled_at,
  emailVerifiedAt: row.email_verified_at,
  sessionsRevokedAt: row.sessions_revoked_at,
  language: row.language === 'fr' || row.language === 'en' ? row.language : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const refreshFromRow = (row: Selectable<RefreshTokenTable>): RefreshTokenRecord => ({
  id: row.id,
  userId: row.user_id,
  familyId: row.family_id,
  tokenHash: row.token_hash,
  expiresAt: row.expires_at,
  revokedAt: row.revoked_at,
  replacedBy: row.replaced_by,
  userAgent: row.user_agent,
  ip: row.ip,
  createdAt: row.created_at,
});

const refreshToRow = (token: RefreshTokenRecord): RefreshTokenTable => ({
  id: token.id,
  user_id: token.userId,
  family_id: token.familyId,
  token_hash: token.tokenHash,
  expires_at: token.expiresAt,
  revoked_at: token.revokedAt,
  replaced_by: token.replacedBy,
  user_agent: token.userAgent,
  ip: token.ip,
  created_at: token.createdAt,
});

const emailTokenFromRow = (row: Selectable<EmailTokenTable>): EmailTokenRecord => ({
  id: row.id,
  purpose: row.purpose as EmailTokenPurpose,
  tokenHash: row.token_hash,
  email: row.email,
  userId: row.user_id,
  merchantId: row.merchant_id,
  role: row.role as Role | null,
  invitedBy: row.invited_by,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  revokedBy: row.revoked_by,
});

const auditFromRow = (row: Selectable<AuditLogTable>): AuditEntry => ({
  id: row.id,
  merchantId: row.merchant_id,
  userId: row.user_id,
  action: row.action as AuditEntry['action'],
  target: row.target,
  ip: row.ip,
  userAgent: row.user_agent,
  createdAt: row.created_at,
});

const userToRow = (user: DashboardUser): UserTable => ({
  id: user.id,
  email: user.email,
  name: user.name,
  password_hash: user.passwordHash,
  totp_secret: user.totpSecretSealed,
  totp_enabled_at: user.totpEnabledAt,
  email_verified_at: user.emailVerifiedAt,
  sessions_revoked_at: user.sessionsRevokedAt,
  totp_last_step: null,
  totp_used_at: null,
  language: user.language,
  created_at: user.createdAt,
  updated_at: user.updatedAt,
});

export class DashboardRepository implements DashboardStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: Pick<DatabaseCapabilities, 'rowLocks'>,
  ) {}

  async insertUser(user: DashboardUser): Promise<boolean> {
    try {
      await this.db.insertInto('users').values(userToRow(user)).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async findUserByEmail(email: string): Promise<DashboardUser | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    return row && userFromRow(row);
  }

  async findUserById(id: string): Promise<DashboardUser | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row && userFromRow(row);
  }

  async findUserOfLiveSession(userId: string, sessionId: string, now: string): Promise<DashboardUser | undefined> {
    // One read per authenticated request: the user, only while the session (its refresh-token family)
    // still has a token that is neither revoked nor expired.
    const row = await this.db
      .selectFrom('users')
      .selectAll('users')
      .where('users.id', '=', userId)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('refresh_tokens')
            .select('refresh_tokens.id')
            .where('refresh_tokens.family_id', '=', sessionId)
            .whereRef('refresh_tokens.user_id', '=', 'users.id')
            .where('refresh_tokens.revoked_at', 'is', null)
            .where('refresh_tokens.expires_at', '>', now),
        ),
      )
      .executeTakeFirst();
    return row && userFromRow(row);
  }

  async claimTotpStep(userId: string, step: number, now: string, challengeIssuedAt?: string): Promise<boolean> {
    let update = this.db
      .updateTable('users')
      .set({ totp_last_step: step, totp_used_at: now })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]));
    if (challengeIssuedAt !== undefined) update = update.where((eb) => eb.or([eb('totp_used_at', 'is', null), eb('totp_used_at', '<', challengeIssuedAt)]));
    const result = await update.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async updateUser(id: string, changes: Parameters<DashboardStore['updateUser']>[1]): Promise<void> {
    const set: Partial<UserTable> = {};
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.passwordHash !== undefined) set.password_hash = changes.passwordHash;
    if (changes.totpSecretSealed !== undefined) set.totp_secret = changes.totpSecretSealed;
    if (changes.totpEnabledAt !== undefined) set.totp_enabled_at = changes.totpEnabledAt;
    if (changes.emailVerifiedAt !== undefined) set.email_verified_at = changes.emailVerifiedAt;
    if (changes.language !== undefined) set.language = changes.language;
    if (changes.updatedAt !== undefined) set.updated_at = changes.updatedAt;
    if (Object.keys(set).length === 0) return;
    await this.db.updateTable('users').set(set).where('id', '=', id).execute();
  }

  async insertMembership(membership: Membership): Promise<boolean> {
    try {
      await this.db
        .insertInto('memberships')
        .values({ user_id: membership.userId, merchant_id: membership.merchantId, role: membership.role, created_at: membership.createdAt })
        .execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async findMembership(userId: string, merchantId: string): Promise<Membership | undefined> {
    const row = await this.db.selectFrom('memberships').selectAll().where('user_id', '=', userId).where('merchant_id', '=', merchantId).executeTakeFirst();
    return row && { userId: row.user_id, merchantId: row.merchant_id, role: row.role as Role, createdAt: row.created_at };
  }

  async listMembershipsOfUser(userId: string): Promise<UserMembership[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('merchants', 'merchants.id', 'memberships.merchant_id')
      .select(['memberships.user_id', 'memberships.merchant_id', 'memberships.role', 'memberships.created_at', 'merchants.name'])
      .where('memberships.user_id', '=', userId)
      .orderBy('memberships.created_at')
      .orderBy('memberships.merchant_id')
      .execute();
    return rows.map((row) => ({ userId: row.user_id, merchantId: row.merchant_id, role: row.role as Role, createdAt: row.created_at, merchantName: row.name }));
  }

  async listMembers(merchantId: string): Promise<Member[]> {
    const rows = await this.db
      .selectFrom('memberships')
      .innerJoin('users', 'users.id', 'memberships.user_id')
      .select(['memberships.user_id', 'memberships.merchant_id', 'memberships.role', 'memberships.created_at', 'users.email', 'users.name'])
      .where('memberships.merchant_id', '=', merchantId)
      .orderBy('memberships.created_at')
      .orderBy('memberships.user_id')
      .execute();
    return rows.map((row) => ({ userId: row.user_id, merchantId: row.merchant_id, role: row.role as Role, createdAt: row.created_at, email: row.email, name: row.name }));
  }

  async changeMembership(merchantId: string, userId: string, role: Role | null): Promise<RoleChangeOutcome> {
    return this.db.transaction().execute(async (trx) => {
      // PostgreSQL: the merchant's owner rows are locked, so two owners demoting each other at once
      // cannot both succeed; SQLite runs one write transaction at a time.
      let owners = trx.selectFrom('memberships').select(['user_id']).where('merchant_id', '=', merchantId).where('role', '=', 'owner');
      if (this.capabilities.rowLocks) owners = owners.forUpdate();
      const ownerIds = (await owners.execute()).map((row) => row.user_id);
      const current = await trx.selectFrom('memberships').select(['role']).where('merchant_id', '=', merchantId).where('user_id', '=', userId).executeTakeFirst();
      if (!current) return 'not_found';
      if (current.role === 'owner' && role !== 'owner' && ownerIds.length <= 1) return 'last_owner';
      if (role === null) await trx.deleteFrom('memberships').where('merchant_id', '=', merchantId).where('user_id', '=', userId).execute();
      else await trx.updateTable('memberships').set({ role }).where('merchant_id', '=', merchantId).where('user_id', '=', userId).execute();
      return 'changed';
    });
  }

  async insertRefreshToken(token: RefreshTokenRecord): Promise<void> {
    await this.db.insertInto('refresh_tokens').values(refreshToRow(token)).execute();
  }

  async findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined> {
    const row = await this.db.selectFrom('refresh_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    return row && refreshFromRow(row);
  }

  async rotateRefreshToken(oldId: string, successor: RefreshTokenRecord, now: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('refresh_tokens')
        .set({ revoked_at: now, replaced_by: successor.id })
        .where('id', '=', oldId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await trx.insertInto('refresh_tokens').values(refreshToRow(successor)).execute();
      return true;
    });
  }

  async revokeRefreshFamily(familyId: string, now: string): Promise<void> {
    await this.db.updateTable('refresh_tokens').set({ revoked_at: now }).where('family_id', '=', familyId).where('revoked_at', 'is', null).execute();
  }

  async revokeAllSessions(userId: string, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
      await trx.updateTable('users').set({ sessions_revoked_at: now, updated_at: now }).where('id', '=', userId).execute();
    });
  }

  async resetPassword(userId: string, passwordHash: string, now: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('refresh_tokens').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
      await trx.updateTable('users').set({ password_hash: passwordHash, sessions_revoked_at: now, updated_at: now }).where('id', '=', userId).execute();
      // A new password voids every reset link still out (the one just used is used already).
      await trx.updateTable('email_tokens').set({ used_at: now }).where('user_id', '=', userId).where('purpose', '=', 'reset').where('used_at', 'is', null).execute();
    });
  }

  async insertEmailToken(token: EmailTokenRecord): Promise<void> {
    await this.db
      .insertInto('email_tokens')
      .values({
        id: token.id,
        purpose: token.purpose,
        token_hash: token.tokenHash,
        email: token.email,
        user_id: token.userId,
        merchant_id: token.merchantId,
        role: token.role,
        invited_by: token.invitedBy,
        expires_at: token.expiresAt,
        used_at: token.usedAt,
        created_at: token.createdAt,
        revoked_at: token.revokedAt,
        revoked_by: token.revokedBy,
      })
      .execute();
  }

  async findEmailToken(tokenHash: string, purpose: EmailTokenPurpose): Promise<EmailTokenRecord | undefined> {
    const row = await this.db.selectFrom('email_tokens').selectAll().where('token_hash', '=', tokenHash).where('purpose', '=', purpose).executeTakeFirst();
    return row && emailTokenFromRow(row);
  }

  async useEmailToken(tokenHash: string, purpose: EmailTokenPurpose, now: string): Promise<EmailTokenRecord | undefined> {
    return this.db.transaction().execute((trx) => useToken(trx, tokenHash, purpose, now));
  }

  async acceptInvitation(
    tokenHash: string,
    now: string,
    newUser: DashboardUser | undefined,
    check: (token: EmailTokenRecord, inviterRole: Role | undefined) => void,
  ): Promise<{ token: EmailTokenRecord; userId: string } | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const token = await useToken(trx, tokenHash, 'invite', now);
      if (!token || !token.merchantId || !token.role) return undefined;
      // The inviter's membership as it is now; locked on PostgreSQL, so a removal or a demotion
      // waits for this acceptance or is seen by it (SQLite runs one write transaction at a time).
      let inviter = trx
        .selectFrom('memberships')
        .select(['role'])
        .where('merchant_id', '=', token.merchantId)
        .where('user_id', '=', token.invitedBy ?? '');
      if (this.capabilities.rowLocks) inviter = inviter.forUpdate();
      // A refusal throws, and the transaction (the token's use included) is rolled back.
      check(token, (await inviter.executeTakeFirst())?.role as Role | undefined);
      const existing = await trx.selectFrom('users').select(['id']).where('email', '=', token.email).executeTakeFirst();
      let userId = existing?.id;
      if (!userId) {
        if (!newUser) return undefined;
        await trx.insertInto('users').values(userToRow(newUser)).execute();
        userId = newUser.id;
      }
      // Already a member (invited twice, both accepted): the first role stays.
      const member = await trx.selectFrom('memberships').select(['role']).where('user_id', '=', userId).where('merchant_id', '=', token.merchantId).executeTakeFirst();
      if (!member) await trx.insertInto('memberships').values({ user_id: userId, merchant_id: token.merchantId, role: token.role, created_at: now }).execute();
      return { token, userId };
    });
  }

  async listInvitations(merchantId: string, limit: number): Promise<EmailTokenRecord[]> {
    // Ids are time-ordered (UUIDv7): newest first is id descending, on the email_tokens_invitations index.
    const rows = await this.db
      .selectFrom('email_tokens')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('purpose', '=', 'invite')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map(emailTokenFromRow);
  }

  async findInvitation(merchantId: string, id: string): Promise<EmailTokenRecord | undefined> {
    const row = await this.db.selectFrom('email_tokens').selectAll().where('merchant_id', '=', merchantId).where('purpose', '=', 'invite').where('id', '=', id).executeTakeFirst();
    return row && emailTokenFromRow(row);
  }

  async revokeInvitation(merchantId: string, id: string, by: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('email_tokens')
      .set({ revoked_at: now, revoked_by: by })
      .where('merchant_id', '=', merchantId)
      .where('purpose', '=', 'invite')
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async insertAudit(entry: AuditEntry): Promise<void> {
    await this.db
      .insertInto('audit_log')
      .values({
        id: entry.id,
        merchant_id: entry.merchantId,
        user_id: entry.userId,
        action: entry.action,
        target: entry.target,
        ip: entry.ip,
        user_agent: entry.userAgent,
        created_at: entry.createdAt,
      })
      .execute();
  }

  async listAudit(filter: { merchantId?: string; userId?: string }): Promise<AuditEntry[]> {
    let query = this.db.selectFrom('audit_log').selectAll();
    if (filter.merchantId !== undefined) query = query.where('merchant_id', '=', filter.merchantId);
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    const rows = await query.orderBy('id').execute();
    return rows.map(auditFromRow);
  }

  async pageAudit(merchantId: string, page: { limit: number; startingAfter?: string }): Promise<{ data: AuditEntry[]; hasMore: boolean } | undefined> {
    if (page.startingAfter !== undefined) {
      const position = await this.db.selectFrom('audit_log').select('id').where('merchant_id', '=', merchantId).where('id', '=', page.startingAfter).executeTakeFirst();
      if (!position) return undefined;
    }
    // Ids are time-ordered (UUIDv7): newest first is id descending, on the (merchant_id, id) index.
    let query = this.db.selectFrom('audit_log').selectAll().where('merchant_id', '=', merchantId);
    if (page.startingAfter !== undefined) query = query.where('id', '<', page.startingAfter);
    const rows = await query
      .orderBy('id', 'desc')
      .limit(page.limit + 1)
      .execute();
    return { data: rows.slice(0, page.limit).map(auditFromRow), hasMore: rows.length > page.limit };
  }
}

/** Marks an unused, unrevoked, unexpired token used; the update's condition makes a second use (or a revocation meanwhile) find nothing. */
async function useToken(trx: Kysely<Database>, tokenHash: string, purpose: EmailTokenPurpose, now: string): Promise<EmailTokenRecord | undefined> {
  const row = await trx.selectFrom('email_tokens').selectAll().where('token_hash', '=', tokenHash).where('purpose', '=', purpose).executeTakeFirst();
  if (!row || row.used_at !== null || row.revoked_at !== null || row.expires_at <= now) return undefined;
  const result = await trx
    .updateTable('email_tokens')
    .set({ used_at: now })
    .where('id', '=', row.id)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return emailTokenFromRow({ ...row, used_at: now });
}
