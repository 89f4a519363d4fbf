import type { MailLanguage } from './dashboard-mails.js';
import type { Role } from './permissions.js';

export interface DashboardUser {
  id: string;
  /** Lower-cased. */
  email: string;
  name: string;
  passwordHash: string;
  /** Sealed (SecretBox); present from enrolment, in force once totpEnabledAt is set. */
  totpSecretSealed: string | null;
  totpEnabledAt: string | null;
  emailVerifiedAt: string | null;
  /** Access tokens issued before this instant are refused. */
  sessionsRevokedAt: string | null;
  /** The language of the emails sent to this user; null: never chosen (English). */
  language: MailLanguage | null;
  createdAt: string;
  updatedAt: string;
}

export interface Membership {
  userId: string;
  merchantId: string;
  role: Role;
  createdAt: string;
}

/** A membership seen from the user: with the merchant's name. */
export interface UserMembership extends Membership {
  merchantName: string;
}

/** A membership seen from the merchant: with the member's address and name. */
export interface Member extends Membership {
  email: string;
  name: string;
}

export interface RefreshTokenRecord {
  id: string;
  userId: string;
  familyId: string;
  tokenHash: string;
  expiresAt: string;
  revokedAt: string | null;
  replacedBy: string | null;
  userAgent: string | null;
  ip: string | null;
  createdAt: string;
}

export type EmailTokenPurpose = 'verify' | 'invite' | 'reset';

export interface EmailTokenRecord {
  id: string;
  purpose: EmailTokenPurpose;
  tokenHash: string;
  email: string;
  userId: string | null;
  merchantId: string | null;
  role: Role | null;
  invitedBy: string | null;
  expiresAt: string;
  usedAt: string | null;
  createdAt: string;
  /** An invitation revoked, and by whom (null otherwise). */
  revokedAt: string | null;
  revokedBy: string | null;
}

export interface AuditEntry {
  id: string;
  merchantId: string | null;
  userId: string | null;
  action: AuditAction;
  target: string | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
}

/** An audit row: who (`userId`) did what in which merchant, from where, now. */
export function auditEntry(
  make: { newId: () => string; clock: { now(): Date } },
  fields: { action: AuditAction; userId: string | null; merchantId: string | null; target: string | null },
  origin: RequestOrigin,
): AuditEntry {
  return {
    id: make.newId(),
    merchantId: fields.merchantId,
    userId: fields.userId,
    action: fields.action,
    target: fields.target === null ? null : fields.target.slice(0, 500),
    ip: origin.ip,
    userAgent: origin.userAgent?.slice(0, 500) ?? null,
    createdAt: make.clock.now().toISOString(),
  };
}

export type AuditAction =
  | 'user.signed_up'
  | 'user.email_verified'
  | 'sign_in.succeeded'
  | 'sign_in.failed'
  | 'sessions.revoked'
  | 'invitation.created'
  | 'invitation.accepted'
  | 'invitation.revoked'
  | 'member.role_changed'
  | 'member.removed'
  | 'password_reset.requested'
  | 'password_reset.completed'
  | 'totp.enabled'
  | 'totp.disabled'
  | 'api_key.created'
  | 'api_key.revoked'
  | 'webhook_endpoint.created'
  | 'webhook_endpoint.updated'
  | 'webhook_endpoint.secret_rotated'
  | 'event.resent'
  | 'kyc.submitted'
  | 'kyc.validated'
  | 'kyc.rejected'
  | 'admin.granted'
  | 'admin.revoked'
  | 'admin.kyc_document_downloaded'
  | 'admin.revenue_exported'
  | 'admin.merchant_suspended'
  | 'admin.merchant_reactivated'
  | 'webhook_endpoint.test_event_sent'
  | 'approval_policy.changed'
  | 'approval.submitted'
  | 'approval.approved'
  | 'approval.rejected'
  | 'approval.executed'
  | 'approval.failed'
  /** A dashboard session's call on the merchant API (http/plugins/session-audit.ts): `api.` and the operation's id in snake_case. */
  | `api.${string}`;

/** Where a request came from, for the audit log and the refresh token's record. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

export type RoleChangeOutcome = 'changed' | 'not_found' | 'last_owner';

/** The dashboard's storage (storage/repositories/dashboard-repository.ts). */
export interface DashboardStore {
  /** False when the address is taken. */
  insertUser(user: DashboardUser): Promise<boolean>;
  findUserByEmail(email: string): Promise<DashboardUser | undefined>;
  findUserById(id: string): Promise<DashboardUser | undefined>;
  /** The user, if the session (refresh-token family) `sessionId` of theirs still has a live token at `now`; one read. */
  findUserOfLiveSession(userId: string, sessionId: string, now: string): Promise<DashboardUser | undefined>;
  /**
   * Records that the user's TOTP code of `step` was accepted, atomically, only if no code of this
   * step or a later one was accepted before, and (with `challengeIssuedAt`) none since the sign-in
   * challenge was issued. False: the code or the challenge is spent.
   */
  claimTotpStep(userId: string, step: number, now: string, challengeIssuedAt?: string): Promise<boolean>;
  updateUser(
    id: string,
    changes: Partial<Pick<DashboardUser, 'name' | 'passwordHash' | 'totpSecretSealed' | 'totpEnabledAt' | 'emailVerifiedAt' | 'language' | 'updatedAt'>>,
  ): Promise<void>;

  insertMembership(membership: Membership): Promise<boolean>;
  findMembership(userId: string, merchantId: string): Promise<Membership | undefined>;
  listMembershipsOfUser(userId: string): Promise<UserMembership[]>;
  listMembers(merchantId: string): Promise<Member[]>;
  /** Sets a member's role, or removes them (role null), refusing to leave the merchant without an owner. */
  changeMembership(merchantId: string, userId: string, role: Role | null): Promise<RoleChangeOutcome>;

  insertRefreshToken(token: RefreshTokenRecord): Promise<void>;
  findRefreshToken(tokenHash: string): Promise<RefreshTokenRecord | undefined>;
  /** Revokes `oldId` (only if it is not revoked yet) and stores its successor; false if it was revoked meanwhile. */
  rotateRefreshToken(oldId: string, successor: RefreshTokenRecord, now: string): Promise<boolean>;
  revokeRefreshFamily(familyId: string, now: string): Promise<void>;
  /** Revokes every refresh token of the user and refuses their access tokens issued until now. */
  revokeAllSessions(userId: string, now: string): Promise<void>;
  /** Sets the password and, in the same transaction, revokes every session and voids every reset link still out. */
  resetPassword(userId: string, passwordHash: string, now: string): Promise<void>;

  insertEmailToken(token: EmailTokenRecord): Promise<void>;
  findEmailToken(tokenHash: string, purpose: EmailTokenPurpose): Promise<EmailTokenRecord | undefined>;
  /** Marks the token used if it is unused, unrevoked and unexpired; undefined otherwise (used, revoked, expired, unknown). */
  useEmailToken(tokenHash: string, purpose: EmailTokenPurpose, now: string): Promise<EmailTokenRecord | undefined>;
  /**
   * An invitation accepted, in one transaction: the token used, the user created when `newUser` is
   * given (the invited address had no account), the membership added. `check` is given the token
   * and the inviter's role in the merchant now (undefined: no longer a member), read inside the
   * transaction (the inviter's membership row locked where rows lock), and throws to refuse it.
   */
  acceptInvitation(
    tokenHash: string,
    now: string,
    newUser: DashboardUser | undefined,
    check: (token: EmailTokenRecord, inviterRole: Role | undefined) => void,
  ): Promise<{ token: EmailTokenRecord; userId: string } | undefined>;
  /** The merchant's invitations, newest first, at most `limit`. */
  listInvitations(merchantId: string, limit: number): Promise<EmailTokenRecord[]>;
  findInvitation(merchantId: string, id: string): Promise<EmailTokenRecord | undefined>;
  /** Revokes the invitation if it is still unused, unrevoked and unexpired at `now`; false otherwise. */
  revokeInvitation(merchantId: string, id: string, by: string, now: string): Promise<boolean>;

  insertAudit(entry: AuditEntry): Promise<void>;
  listAudit(filter: { merchantId?: string; userId?: string }): Promise<AuditEntry[]>;
  /** The merchant's audit rows, newest first, older than `startingAfter` when given; undefined when that is no row of the merchant's log. */
  pageAudit(merchantId: string, page: { limit: number; startingAfter?: string }): Promise<{ data: AuditEntry[]; hasMore: boolean } | undefined>;
}
