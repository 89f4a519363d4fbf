import { auditEntry } from './dashboard-user.js';
import { AkweError } from '../errors/index.js';
import type { MerchantService } from '../merchants/merchant-service.js';
import type { Clock } from '../shared/clock.js';
import { isoNow } from '../shared/clock.js';
import type { IdSource } from '../shared/ids.js';
import type { AuditAction, DashboardStore, DashboardUser, EmailTokenPurpose, Member, Membership, RequestOrigin, UserMembership } from './dashboard-user.js';
import { dashboardMails, mailLanguageOf, type MailLanguage } from './dashboard-mails.js';
import type { Mail, Mailer } from './mailer.js';
import { hashOpaqueToken, looksLikeOpaqueToken, newOpaqueToken } from './opaque-tokens.js';
import { checkPasswordRules, decoyPasswordHash, hashPassword, passwordMatches } from './passwords.js';
import { may, mayAssign, scopesOf, type Action, type Role } from './permissions.js';
import type { Principal } from '../merchants/principal.js';
import type { Environment } from '../shared/environment.js';
import type { SessionTokens } from './session-tokens.js';
import type { SignInAttempt, SignInThrottle, ThrottleKeys } from './sign-in-throttle.js';
import { newTotpSecret, totpStepOf, totpUrl } from './totp.js';
import { checkAcceptable, INVITATION_TTL_MS, invitationOf, inviterMayInvite, type Invitation, type InvitationStatus } from './invitation.js';

export const REFRESH_TOKEN_DAYS = 14;
const HOUR_MS = 3_600_000;
/** How long each email link works. */
const EMAIL_TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = { verify: 48 * HOUR_MS, invite: INVITATION_TTL_MS, reset: HOUR_MS };

export interface SecretSealer {
  seal(plaintext: string): string;
  open(sealed: string): string;
}

export interface DashboardServiceDeps {
  store: DashboardStore;
  merchants: MerchantService;
  mailer: Mailer;
  tokens: SessionTokens;
  throttle: SignInThrottle;
  /** Seals TOTP secrets (the server's SecretBox). */
  sealer: SecretSealer;
  clock: Clock;
  newId: IdSource;
  /** PUBLIC_URL: the links in emails point there. */
  publicUrl: string;
  /** An email sent after the answer (a password reset's) could not be sent. */
  onMailError?: (error: unknown) => void;
}

/** A signed-in session: the short access token and the rotating refresh token (a cookie at the edge). */
export interface Session {
  user: DashboardUser;
  accessToken: string;
  expiresInSeconds: number;
  refreshToken: string;
  refreshExpiresAt: string;
}

export type SignInResult = { kind: 'session'; session: Session } | { kind: 'totp_required'; challengeToken: string; expiresInSeconds: number };

/** The signed-in user as every dashboard request sees them, memberships read fresh. */
export interface DashboardCaller {
  user: DashboardUser;
  memberships: UserMembership[];
}

/** A caller acting in one merchant, with their role there. */
export interface MemberCaller {
  user: DashboardUser;
  merchantId: string;
  role: Role;
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();

function checkEmail(email: string): string {
  const normalised = normaliseEmail(email);
  if (normalised.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(normalised)) {
    throw AkweError.ofField('validation_error', 'email', 'email must be an email address');
  }
  return normalised;
}

function checkName(name: string, field: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 200) throw AkweError.ofField('validation_error', field, `${field} must be 1 to 200 characters`);
  return trimmed;
}

/**
 * Dashboard users (docs/dashboard.md): sign-up with a merchant, email verification, password
 * sign-in with an optional TOTP step, rotating refresh tokens, password reset, invitations and
 * roles. Every answer that could tell whether an address has an account is the same either way.
 */
export class DashboardService {
  /** Emails sent after their answer and not yet handed to the mailer. */
  private readonly pendingMails = new Set<Promise<void>>();

  constructor(private readonly deps: DashboardServiceDeps) {}

  /**
   * Creates the user, their merchant (owner) and sends the verification link. An address that has
   * an account already gets an email saying so instead, and the caller the same answer.
   */
  async signUp(input: { email: string; name: string; password: string; merchantName: string; language?: MailLanguage }, origin: RequestOrigin): Promise<void> {
    const email = checkEmail(input.email);
    const name = checkName(input.name, 'name');
    const merchantName = checkName(input.merchantName, 'merchant_name');
    checkPasswordRules(input.password);
    const now = this.now();
    const user: DashboardUser = {
      id: this.deps.newId(),
      email,
      name,
      passwordHash: await hashPassword(input.password),
      totpSecretSealed: null,
      totpEnabledAt: null,
      emailVerifiedAt: null,
      sessionsRevokedAt: null,
      language: input.language ?? null,
      createdAt: now,
      updatedAt: now,
    };
    if (!(await this.deps.store.insertUser(user))) {
      // In the account's language (not the one of this form, which anyone may fill in).
      const existing = await this.deps.store.findUserByEmail(email);
      const words = dashboardMails.accountExists(mailLanguageOf(existing), { signIn: this.link('sign-in'), passwordReset: this.link('password-reset') });
      await this.deps.mailer.send({ to: email, ...words });
      return;
    }
    // The merchant is created without API keys: its people create them from the dashboard.
    const { merchant } = await this.deps.merchants.createMerchant({ name: merchantName, keyEnvironments: [], actor: `user:${user.id}` });
    await this.deps.store.insertMembership({ userId: user.id, merchantId: merchant.id, role: 'owner', createdAt: now });
    await this.audit('user.signed_up', { userId: user.id, merchantId: merchant.id, target: user.id }, origin);
    const token = await this.newEmailToken('verify', { email, userId: user.id });
    await this.deps.mailer.send({ to: email, ...dashboardMails.verifyEmail(mailLanguageOf(user), name, this.link('verify-email', token)) });
  }

  async verifyEmail(token: string, origin: RequestOrigin): Promise<void> {
    const used = await this.useEmailToken(token, 'verify');
    if (!used.userId) throw new AkweError('invalid_email_token');
    const now = this.now();
    await this.deps.store.updateUser(used.userId, { emailVerifiedAt: now, updatedAt: now });
    await this.audit('user.email_verified', { userId: used.userId, target: used.userId }, origin);
  }

  async signIn(input: { email: string; password: string }, origin: RequestOrigin): Promise<SignInResult> {
    const email = normaliseEmail(input.email);
    // Counted before the slow check, so parallel guesses get no more checks than sequential ones.
    const attempt = this.admit({ email, ip: origin.ip });
    try {
      const user = await this.deps.store.findUserByEmail(email);
      // An unknown address costs one argon2 verification too, and gets the same answer.
      const matches = await passwordMatches(user?.passwordHash ?? (await decoyPasswordHash()), input.password);
      if (!user || !matches) {
        attempt.settle('failed');
        await this.audit('sign_in.failed', { userId: user?.id ?? null, target: email }, origin);
        throw new AkweError('invalid_credentials');
      }
      if (user.emailVerifiedAt === null) throw new AkweError('email_not_verified');
      if (user.totpEnabledAt !== null) {
        const challenge = await this.deps.tokens.issue(user.id, 'totp');
        return { kind: 'totp_required', challengeToken: challenge.token, expiresInSeconds: challenge.expiresInSeconds };
      }
      attempt.settle('succeeded');
      await this.audit('sign_in.succeeded', { userId: user.id, target: email }, origin);
      return { kind: 'session', session: await this.startSession(user, origin) };
    } finally {
      attempt.settle('neither');
    }
  }

  /**
   * The second step: the challenge from signIn and the authenticator's code. Wrong codes count as
   * failures. A code works once (its 30-second step is recorded) and so does a challenge (one issued
   * before the last accepted code is spent): both are claimed by one conditional update, so two
   * requests with the same challenge and code cannot both get a session.
   */
  async signInWithTotp(input: { challengeToken: string; code: string }, origin: RequestOrigin): Promise<Session> {
    const verified = await this.deps.tokens.verify(input.challengeToken, 'totp');
    const user = verified && (await this.deps.store.findUserById(verified.userId));
    if (!verified || !user || user.totpEnabledAt === null || user.totpSecretSealed === null) throw new AkweError('invalid_credentials');
    const attempt = this.admit({ email: user.email, ip: origin.ip });
    try {
      const now = this.deps.clock.now();
      const step = totpStepOf(this.deps.sealer.open(user.totpSecretSealed), input.code, now);
      const claimed = step !== undefined && (await this.deps.store.claimTotpStep(user.id, step, now.toISOString(), new Date(verified.issuedAtMs).toISOString()));
      if (!claimed) {
        attempt.settle('failed');
        await this.audit('sign_in.failed', { userId: user.id, target: user.email }, origin);
        throw new AkweError('invalid_credentials');
      }
      attempt.settle('succeeded');
      await this.audit('sign_in.succeeded', { userId: user.id, target: user.email }, origin);
      return await this.startSession(user, origin);
    } finally {
      attempt.settle('neither');
    }
  }

  /**
   * Rotates the refresh token: the presented one is revoked and a new one of the same family
   * returned. A token presented again after its rotation means it was copied: the whole family is
   * revoked, and whoever holds it (the thief or the user) must sign in again.
   */
  async refresh(refreshToken: string | undefined, origin: RequestOrigin): Promise<Session> {
    if (!looksLikeOpaqueToken(refreshToken)) throw new AkweError('invalid_session');
    const now = this.now();
    const record = await this.deps.store.findRefreshToken(hashOpaqueToken(refreshToken));
    if (!record) throw new AkweError('invalid_session');
    if (record.revokedAt !== null) {
      if (record.replacedBy !== null) await this.deps.store.revokeRefreshFamily(record.familyId, now);
      throw new AkweError('invalid_session');
    }
    if (record.expiresAt <= now) throw new AkweError('invalid_session');
    const user = await this.deps.store.findUserById(record.userId);
    if (!user) throw new AkweError('invalid_session');
    const next = this.newRefreshToken(user.id, record.familyId, origin);
    if (!(await this.deps.store.rotateRefreshToken(record.id, next.record, now))) {
      // Rotated by a concurrent request with the same token: that is reuse too.
      await this.deps.store.revokeRefreshFamily(record.familyId, now);
      throw new AkweError('invalid_session');
    }
    const access = await this.deps.tokens.issue(user.id, 'access', record.familyId);
    return { user, accessToken: access.token, expiresInSeconds: access.expiresInSeconds, refreshToken: next.token, refreshExpiresAt: next.record.expiresAt };
  }

  /** Ends the session the refresh token belongs to (its family), its access tokens included; an unknown token is not an error. */
  async signOut(refreshToken: string | undefined): Promise<void> {
    if (!looksLikeOpaqueToken(refreshToken)) return;
    const record = await this.deps.store.findRefreshToken(hashOpaqueToken(refreshToken));
    if (record) await this.deps.store.revokeRefreshFamily(record.familyId, this.now());
  }

  /** Every refresh token of the user revoked, and every access token issued so far refused. */
  async signOutEverywhere(user: DashboardUser, origin: RequestOrigin): Promise<void> {
    await this.deps.store.revokeAllSessions(user.id, this.now());
    await this.audit('sessions.revoked', { userId: user.id, target: user.id }, origin);
  }

  /**
   * Always accepted (the caller learns nothing), and the same work whether or not the address has an
   * account, so the time taken tells nothing either: a link token is made and stored (without an
   * account it has no user and can never be used), the request is audited, and the email, sent only
   * to an account, leaves after the answer.
   */
  async requestPasswordReset(rawEmail: string, origin: RequestOrigin): Promise<void> {
    const email = normaliseEmail(rawEmail);
    const user = await this.deps.store.findUserByEmail(email);
    const token = await this.newEmailToken('reset', { email, userId: user?.id ?? null });
    await this.audit('password_reset.requested', { userId: user?.id ?? null, target: email }, origin);
    if (!user) return;
    this.sendAfterAnswer({ to: email, ...dashboardMails.passwordReset(mailLanguageOf(user), this.link('password-reset', token)) });
  }

  /** Resolves once every email sent after its answer has been handed to the mailer (tests, shutdown). */
  async mailsSent(): Promise<void> {
    while (this.pendingMails.size > 0) await Promise.all(this.pendingMails);
  }

  /** Sets the new password, signs the user out everywhere and voids their other reset links. Opening the link also proves the address. */
  async completePasswordReset(input: { token: string; password: string }, origin: RequestOrigin): Promise<void> {
    checkPasswordRules(input.password);
    const passwordHash = await hashPassword(input.password);
    const used = await this.useEmailToken(input.token, 'reset');
    if (!used.userId) throw new AkweError('invalid_email_token');
    const now = this.now();
    await this.deps.store.resetPassword(used.userId, passwordHash, now);
    const user = await this.deps.store.findUserById(used.userId);
    if (user && user.emailVerifiedAt === null) await this.deps.store.updateUser(user.id, { emailVerifiedAt: now, updatedAt: now });
    this.deps.throttle.forgive(used.email);
    await this.audit('password_reset.completed', { userId: used.userId, target: used.email }, origin);
  }

  /**
   * The caller of a dashboard request, from its access token; undefined for anything not a live
   * session. The token names its session (refresh-token family), read with the user in one query:
   * once that session is signed out (or its tokens revoked), its access tokens stop at once. Tokens
   * naming no session (issued before sessions were named, 10 minutes at most) are refused.
   */
  async authenticate(accessToken: string): Promise<DashboardCaller | undefined> {
    const verified = await this.deps.tokens.verify(accessToken, 'access');
    if (!verified?.sessionId) return undefined;
    const user = await this.deps.store.findUserOfLiveSession(verified.userId, verified.sessionId, this.now());
    if (!user) return undefined;
    if (user.sessionsRevokedAt !== null && verified.issuedAtMs < Date.parse(user.sessionsRevokedAt)) return undefined;
    return { user, memberships: await this.deps.store.listMembershipsOfUser(user.id) };
  }

  /**
   * A signed-in user acting on the merchant API (not the dashboard's own routes): the principal an
   * API key would give, with the scopes of their role there and the environment they chose.
   * Undefined when the token is not a live session or the user is not a member of that merchant.
   */
  async sessionPrincipal(accessToken: string, merchantId: string, environment: Environment): Promise<Principal | undefined> {
    const caller = await this.authenticate(accessToken);
    const membership = caller?.memberships.find((m) => m.merchantId === merchantId.toLowerCase());
    if (!caller || !membership) return undefined;
    const merchant = await this.deps.merchants.getMerchant(membership.merchantId).catch(() => undefined);
    if (!merchant) return undefined;
    return {
      merchant,
      merchantId: merchant.id,
      environment,
      scopes: scopesOf(membership.role),
      keyId: `session:${caller.user.id}`,
      actor: { userId: caller.user.id, role: membership.role },
    };
  }

  /**
   * The caller's role in the merchant, checked against the action. Not a member: 404, as for any
   * object of another merchant; a member whose role lacks the action: 403.
   */
  async actingIn(user: DashboardUser, merchantId: string, action: Action): Promise<MemberCaller> {
    const membership = await this.deps.store.findMembership(user.id, merchantId);
    if (!membership) throw new AkweError('not_found', `no merchant with id ${merchantId}`);
    if (!may(membership.role, action)) throw new AkweError('insufficient_role', `Your role (${membership.role}) does not allow ${action}.`);
    return { user, merchantId, role: membership.role };
  }

  async invite(caller: MemberCaller, input: { email: string; role: Role }, origin: RequestOrigin): Promise<void> {
    const email = checkEmail(input.email);
    if (!mayAssign(caller.role, undefined, input.role)) throw new AkweError('insufficient_role', 'Only an owner may invite an owner.');
    const existing = await this.deps.store.findUserByEmail(email);
    if (existing && (await this.deps.store.findMembership(existing.id, caller.merchantId))) throw new AkweError('already_member');
    const merchant = await this.deps.merchants.getMerchant(caller.merchantId);
    const token = await this.newEmailToken('invite', { email, userId: existing?.id ?? null, merchantId: caller.merchantId, role: input.role, invitedBy: caller.user.id });
    await this.audit('invitation.created', { userId: caller.user.id, merchantId: caller.merchantId, target: `${email} as ${input.role}` }, origin);
    // An account's own language; a new address gets its inviter's.
    const language = mailLanguageOf(existing, mailLanguageOf(caller.user));
    const words = dashboardMails.invitation(language, { inviter: caller.user.name, merchant: merchant.name, role: input.role, link: this.link('accept-invitation', token) });
    await this.deps.mailer.send({ to: email, ...words });
  }

  /**
   * Accepts an invitation. An address without an account gets one (name and password required
   * then; the link proves the address); an existing account just gains the membership. Refused
   * unless it is pending: not used, revoked or expired, and its inviter still a member allowed to
   * invite to its role, checked again inside the acceptance's transaction.
   */
  async acceptInvitation(input: { token: string; name?: string; password?: string; language?: MailLanguage }, origin: RequestOrigin): Promise<Membership> {
    if (!looksLikeOpaqueToken(input.token)) throw new AkweError('invalid_email_token');
    const tokenHash = hashOpaqueToken(input.token);
    const now = this.now();
    const pending = await this.deps.store.findEmailToken(tokenHash, 'invite');
    if (!pending || !pending.merchantId) throw new AkweError('invalid_email_token');
    checkAcceptable(pending, await this.inviterRole(pending), now);
    let newUser: DashboardUser | undefined;
    if (!(await this.deps.store.findUserByEmail(pending.email))) {
      if (input.name === undefined) throw AkweError.ofField('validation_error', 'name', 'name is required to create your account');
      if (input.password === undefined) throw AkweError.ofField('validation_error', 'password', 'password is required to create your account');
      checkPasswordRules(input.password);
      newUser = {
        id: this.deps.newId(),
        email: pending.email,
        name: checkName(input.name, 'name'),
        passwordHash: await hashPassword(input.password),
        totpSecretSealed: null,
        totpEnabledAt: null,
        emailVerifiedAt: now,
        sessionsRevokedAt: null,
        language: input.language ?? null,
        createdAt: now,
        updatedAt: now,
      };
    }
    // Used, revoked and expired are the token's use's own conditions; the inviter is checked again here.
    const accepted = await this.deps.store.acceptInvitation(tokenHash, now, newUser, (token, inviterRole) => {
      if (!token.role || !inviterMayInvite(inviterRole, token.role)) throw new AkweError('invitation_inviter_not_allowed');
    });
    if (!accepted || !accepted.token.merchantId || !accepted.token.role) throw new AkweError('invalid_email_token');
    await this.audit(
      'invitation.accepted',
      { userId: accepted.userId, merchantId: accepted.token.merchantId, target: `${accepted.token.email} as ${accepted.token.role}` },
      origin,
    );
    return { userId: accepted.userId, merchantId: accepted.token.merchantId, role: accepted.token.role, createdAt: now };
  }

  /** The merchant's invitations, newest first (the last 200), each with its status now; one status only when given. */
  async listInvitations(caller: MemberCaller, status?: InvitationStatus): Promise<Invitation[]> {
    const now = this.now();
    const invitations: Invitation[] = [];
    for (const token of await this.deps.store.listInvitations(caller.merchantId, 200)) invitations.push(invitationOf(token, await this.inviterRole(token), now));
    return status === undefined ? invitations : invitations.filter((invitation) => invitation.status === status);
  }

  /** Revokes a pending invitation (an invitation as owner: owners only); its link then answers 410 invitation_revoked. */
  async revokeInvitation(caller: MemberCaller, id: string, origin: RequestOrigin): Promise<Invitation> {
    const token = await this.deps.store.findInvitation(caller.merchantId, id.toLowerCase());
    if (!token || !token.role) throw new AkweError('not_found', `no invitation with id ${id}`);
    if (!mayAssign(caller.role, undefined, token.role)) throw new AkweError('insufficient_role', 'Only an owner may revoke an invitation as owner.');
    const now = this.now();
    if (!(await this.deps.store.revokeInvitation(caller.merchantId, token.id, caller.user.id, now))) {
      throw new AkweError('invitation_not_pending', `This invitation is ${invitationOf(token, await this.inviterRole(token), now).status}.`);
    }
    await this.audit('invitation.revoked', { userId: caller.user.id, merchantId: caller.merchantId, target: `${token.email} as ${token.role}` }, origin);
    const revoked = { ...token, revokedAt: now, revokedBy: caller.user.id };
    return invitationOf(revoked, await this.inviterRole(revoked), now);
  }

  /** The inviter's role in the invitation's merchant now; undefined when they are no longer a member. */
  private async inviterRole(token: { merchantId: string | null; invitedBy: string | null }): Promise<Role | undefined> {
    if (!token.merchantId || !token.invitedBy) return undefined;
    return (await this.deps.store.findMembership(token.invitedBy, token.merchantId))?.role;
  }

  listMembers(caller: MemberCaller): Promise<Member[]> {
    return this.deps.store.listMembers(caller.merchantId);
  }

  async changeRole(caller: MemberCaller, userId: string, role: Role, origin: RequestOrigin): Promise<Member> {
    const current = await this.deps.store.findMembership(userId, caller.merchantId);
    if (!current) throw new AkweError('not_found', `no member with id ${userId}`);
    if (!mayAssign(caller.role, current.role, role)) throw new AkweError('insufficient_role', 'Only an owner may make or unmake an owner.');
    const outcome = await this.deps.store.changeMembership(caller.merchantId, userId, role);
    if (outcome === 'not_found') throw new AkweError('not_found', `no member with id ${userId}`);
    if (outcome === 'last_owner') throw new AkweError('last_owner');
    await this.audit('member.role_changed', { userId: caller.user.id, merchantId: caller.merchantId, target: `${userId}: ${current.role} -> ${role}` }, origin);
    const member = (await this.deps.store.listMembers(caller.merchantId)).find((m) => m.userId === userId);
    if (!member) throw new AkweError('not_found', `no member with id ${userId}`);
    return member;
  }

  async removeMember(caller: MemberCaller, userId: string, origin: RequestOrigin): Promise<void> {
    const current = await this.deps.store.findMembership(userId, caller.merchantId);
    if (!current) throw new AkweError('not_found', `no member with id ${userId}`);
    if (!mayAssign(caller.role, current.role, undefined)) throw new AkweError('insufficient_role', 'Only an owner may remove an owner.');
    const outcome = await this.deps.store.changeMembership(caller.merchantId, userId, null);
    if (outcome === 'not_found') throw new AkweError('not_found', `no member with id ${userId}`);
    if (outcome === 'last_owner') throw new AkweError('last_owner');
    await this.audit('member.removed', { userId: caller.user.id, merchantId: caller.merchantId, target: `${userId} (${current.role})` }, origin);
  }

  /** Starts (or restarts) enrolment: a new secret, in force only once confirmed with a code. */
  async enrollTotp(user: DashboardUser): Promise<{ otpauthUrl: string; secret: string }> {
    if (user.totpEnabledAt !== null) throw new AkweError('totp_already_enabled');
    const secret = newTotpSecret();
    await this.deps.store.updateUser(user.id, { totpSecretSealed: this.deps.sealer.seal(secret), updatedAt: this.now() });
    return { otpauthUrl: totpUrl(secret, user.email), secret };
  }

  /** The language of the emails sent to the user (the one they chose in the dashboard). */
  async setLanguage(user: DashboardUser, language: MailLanguage): Promise<void> {
    if (user.language === language) return;
    await this.deps.store.updateUser(user.id, { language, updatedAt: this.now() });
  }

  async confirmTotp(user: DashboardUser, code: string, origin: RequestOrigin): Promise<void> {
    if (user.totpEnabledAt !== null) throw new AkweError('totp_already_enabled');
    if (user.totpSecretSealed === null) throw new AkweError('totp_not_enabled');
    await this.useTotpCode(user, user.totpSecretSealed, code);
    const now = this.now();
    await this.deps.store.updateUser(user.id, { totpEnabledAt: now, updatedAt: now });
    await this.audit('totp.enabled', { userId: user.id, target: user.id }, origin);
  }

  async disableTotp(user: DashboardUser, code: string, origin: RequestOrigin): Promise<void> {
    if (user.totpEnabledAt === null || user.totpSecretSealed === null) throw new AkweError('totp_not_enabled');
    await this.useTotpCode(user, user.totpSecretSealed, code);
    await this.deps.store.updateUser(user.id, { totpEnabledAt: null, totpSecretSealed: null, updatedAt: this.now() });
    await this.audit('totp.disabled', { userId: user.id, target: user.id }, origin);
  }

  /** A code of the user's authenticator, accepted once: a wrong code or one already used is refused. */
  private async useTotpCode(user: DashboardUser, sealedSecret: string, code: string): Promise<void> {
    const now = this.deps.clock.now();
    const step = totpStepOf(this.deps.sealer.open(sealedSecret), code, now);
    if (step === undefined || !(await this.deps.store.claimTotpStep(user.id, step, now.toISOString()))) {
      throw AkweError.ofField('invalid_totp_code', 'code', 'The authenticator code is not right (or was used already).');
    }
  }

  /** One sign-in attempt admitted by the throttle, or 429 while the address or client is locked or at its allowance. */
  private admit(keys: ThrottleKeys): SignInAttempt {
    const admitted = this.deps.throttle.admit(keys);
    if ('retryAfterSeconds' in admitted) {
      const { retryAfterSeconds } = admitted;
      throw new AkweError('rate_limited', `Too many failed sign-ins; retry in ${retryAfterSeconds} s.`, { retryAfterSeconds });
    }
    return admitted;
  }

  /** Sends an email without making the request wait for it; a failure goes to onMailError. */
  private sendAfterAnswer(mail: Mail): void {
    const sending: Promise<void> = this.deps.mailer
      .send(mail)
      .catch((error: unknown) => this.deps.onMailError?.(error))
      .finally(() => this.pendingMails.delete(sending));
    this.pendingMails.add(sending);
  }

  private async startSession(user: DashboardUser, origin: RequestOrigin): Promise<Session> {
    const refresh = this.newRefreshToken(user.id, this.deps.newId(), origin);
    await this.deps.store.insertRefreshToken(refresh.record);
    const access = await this.deps.tokens.issue(user.id, 'access', refresh.record.familyId);
    return { user, accessToken: access.token, expiresInSeconds: access.expiresInSeconds, refreshToken: refresh.token, refreshExpiresAt: refresh.record.expiresAt };
  }

  private newRefreshToken(userId: string, familyId: string, origin: RequestOrigin) {
    const token = newOpaqueToken();
    const now = this.deps.clock.now();
    return {
      token,
      record: {
        id: this.deps.newId(),
        userId,
        familyId,
        tokenHash: hashOpaqueToken(token),
        expiresAt: new Date(now.getTime() + REFRESH_TOKEN_DAYS * 24 * HOUR_MS).toISOString(),
        revokedAt: null,
        replacedBy: null,
        userAgent: origin.userAgent?.slice(0, 500) ?? null,
        ip: origin.ip,
        createdAt: now.toISOString(),
      },
    };
  }

  private async newEmailToken(
    purpose: EmailTokenPurpose,
    fields: { email: string; userId?: string | null; merchantId?: string; role?: Role; invitedBy?: string },
  ): Promise<string> {
    const token = newOpaqueToken();
    const now = this.deps.clock.now();
    await this.deps.store.insertEmailToken({
      id: this.deps.newId(),
      purpose,
      tokenHash: hashOpaqueToken(token),
      email: fields.email,
      userId: fields.userId ?? null,
      merchantId: fields.merchantId ?? null,
      role: fields.role ?? null,
      invitedBy: fields.invitedBy ?? null,
      expiresAt: new Date(now.getTime() + EMAIL_TOKEN_TTL_MS[purpose]).toISOString(),
      usedAt: null,
      createdAt: now.toISOString(),
      revokedAt: null,
      revokedBy: null,
    });
    return token;
  }

  private async useEmailToken(token: string, purpose: EmailTokenPurpose) {
    if (!looksLikeOpaqueToken(token)) throw new AkweError('invalid_email_token');
    const used = await this.deps.store.useEmailToken(hashOpaqueToken(token), purpose, this.now());
    if (!used) throw new AkweError('invalid_email_token');
    return used;
  }

  /** The dashboard page a link opens (the pages come with the dashboard UI); the token rides in the query. */
  private link(page: string, token?: string): string {
    const url = new URL(`/dashboard/${page}`, this.deps.publicUrl);
    if (token !== undefined) url.searchParams.set('token', token);
    return url.toString();
  }

  private async audit(action: AuditAction, fields: { userId: string | null; merchantId?: string; target: string | null }, origin: RequestOrigin): Promise<void> {
    await this.deps.store.insertAudit(auditEntry(this.deps, { action, userId: fields.userId, merchantId: fields.merchantId ?? null, target: fields.target }, origin));
  }

  private now(): string {
    return isoNow(this.deps.clock);
  }
}
