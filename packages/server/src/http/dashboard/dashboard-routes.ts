import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DashboardDevelopers } from '../../core/dashboard/dashboard-developers.js';
import type { DashboardService, Session } from '../../core/dashboard/dashboard-service.js';
import type { DashboardUser, Member } from '../../core/dashboard/dashboard-user.js';
import { actionsOf, scopesOf } from '../../core/dashboard/permissions.js';
import { AkweError } from '../../core/errors/index.js';
import type { Clock } from '../../core/shared/clock.js';
import { MemoryRateLimitCounter, RedisRateLimitCounter, type RateLimitCounter } from '../plugins/rate-limit-store.js';
import { errorResponses } from '../shared/error-schemas.js';
import type { DestinationUrlCheck } from '../shared/url-policy.js';
import { callerOf, installDashboardContext, originOf } from './dashboard-context.js';
import { developerRoutes } from './developer-routes.js';
import { invitationRoutes } from './invitation-routes.js';
import { approvalRoutes } from './approval-routes.js';
import type { ApprovalService } from '../../core/approvals/approval-service.js';
import { kycRoutes, type KycRoutesOptions } from './kyc-routes.js';
import type { PlatformAdmins } from '../../core/admin/platform-admins.js';
import { overviewRoutes } from './overview-routes.js';
import type { DashboardOverview } from '../../core/dashboard/dashboard-overview.js';
import {
  Accepted,
  AcceptInvitationBody,
  CodeBody,
  InvitationBody,
  LanguageBody,
  MemberList,
  MemberObject,
  MemberParams,
  MembershipObject,
  MeObject,
  NoContent,
  MerchantParams,
  PasswordResetBody,
  PasswordResetCompleteBody,
  RoleBody,
  SessionObject,
  SignInAnswer,
  SignInBody,
  SignUpBody,
  TokenBody,
  TotpEnrolment,
  TotpSignInBody,
} from './dashboard-schemas.js';
import { clearSessionCookies, CsrfTokens, REFRESH_COOKIE, cookieValue, setSessionCookies, type CookieFlags } from './session-cookies.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Counts against the per-address budget of the unauthenticated auth routes (sign-in, sign-up, reset …). */
    dashboardAuthBudget?: boolean;
  }
}

export interface DashboardRoutesOptions {
  dashboard: DashboardService;
  /** The developers section: API keys, webhook endpoints, the audit log. */
  developers: DashboardDevelopers;
  /** Maker-checker approvals of live money-out. */
  approvals: ApprovalService;
  /** The home page's figures. */
  overview: DashboardOverview;
  /** Where a webhook endpoint may point (http/shared/url-policy.ts). */
  destinationUrls: DestinationUrlCheck;
  serverSecret: () => string;
  /** AKWE_DEV: cookies without Secure, so http://localhost works. */
  dev: boolean;
  /** RATE_LIMIT_DASHBOARD_AUTH_PER_IP. */
  authPerMinute: number;
  redisUrl?: string;
  clock: Clock;
  /** GET /me tells whether the user is a platform administrator. */
  platformAdmins: PlatformAdmins;
  /** The KYC section. */
  kyc: Omit<KycRoutesOptions, 'dashboard'>;
}

const tags = ['dashboard'];
const WINDOW_MS = 60_000;
const session = [{ dashboardSession: [] }];
const noKey: Array<Record<string, string[]>> = [];

/** The dashboard API under /api/v1/dashboard (docs/dashboard.md): its own sign-in, no API key. */
export const dashboardRoutes: FastifyPluginAsyncTypebox<DashboardRoutesOptions> = async (app, options) => {
  const { dashboard, clock } = options;
  const flags: CookieFlags = { secure: !options.dev };
  const csrf = new CsrfTokens(options.serverSecret);
  installDashboardContext(app, dashboard);

  const counter: RateLimitCounter = options.redisUrl
    ? new RedisRateLimitCounter({
        url: options.redisUrl,
        keyPrefix: 'akwe:dashboard-auth:',
        onConnectionError: (error) => app.log.warn({ err: error }, 'dashboard sign-in limits: Redis unreachable'),
        onReady: () => {},
      })
    : new MemoryRateLimitCounter(clock);
  app.addHook('onClose', () => counter.close());
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config.dashboardAuthBudget) return;
    let window;
    try {
      window = await counter.hit(`ip:${request.ip}`, WINDOW_MS);
    } catch (error) {
      request.log.warn({ err: error }, 'dashboard sign-in limits unavailable; request let through');
      return;
    }
    if (window.count > options.authPerMinute) {
      const seconds = Math.max(1, Math.ceil(window.resetInMs / 1000));
      throw new AkweError('rate_limited', `Too many sign-in requests from this address: ${options.authPerMinute} per minute; retry in ${seconds} s.`, {
        retryAfterSeconds: seconds,
      });
    }
  });

  const userToWire = (user: DashboardUser) => ({
    id: user.id,
    email: user.email,
    name: user.name,
    email_verified: user.emailVerifiedAt !== null,
    totp_enabled: user.totpEnabledAt !== null,
    language: user.language,
  });
  const memberToWire = (member: Member) => ({ user_id: member.userId, email: member.email, name: member.name, role: member.role, created_at: member.createdAt });
  const sendSession = (reply: FastifyReply, started: Session) => {
    const csrfToken = csrf.forRefreshToken(started.refreshToken);
    setSessionCookies(reply, started, csrfToken, flags, clock.now());
    reply.header('cache-control', 'no-store');
    return {
      object: 'dashboard_session' as const,
      access_token: started.accessToken,
      token_type: 'Bearer' as const,
      expires_in: started.expiresInSeconds,
      csrf_token: csrfToken,
      user: userToWire(started.user),
    };
  };
  /** The refresh cookie of a cookie-authenticated route, once its CSRF token is checked. */
  const refreshCookieChecked = (request: FastifyRequest): string | undefined => {
    const refreshToken = cookieValue(request, REFRESH_COOKIE);
    if (refreshToken === undefined) return undefined;
    if (!csrf.matches(request, refreshToken)) throw new AkweError('csrf_token_invalid');
    return refreshToken;
  };

  app.post(
    '/auth/sign-up',
    {
      config: { dashboardAuthBudget: true },
      schema: {
        tags,
        security: noKey,
        operationId: 'dashboardSignUp',
        summary: 'Create a user and their merchant',
        description:
          'Creates the user, a merchant they own, and emails a verification link. The answer is the same whether or not the address has an account (that address gets an email saying so).',
        body: SignUpBody,
        response: { 202: Accepted, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      await dashboard.signUp({ email: body.email, password: body.password, name: body.name, merchantName: body.merchant_name, language: body.language }, originOf(request));
      return reply.code(202).send({ status: 'accepted' });
    },
  );

  app.post(
    '/auth/verify-email',
    {
      config: { dashboardAuthBudget: true },
      schema: {
        tags,
        security: noKey,
        operationId: 'dashboardVerifyEmail',
        summary: 'Verify the email address with the emailed link’s token',
        body: TokenBody,
        response: { 204: NoContent, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      await dashboard.verifyEmail(request.body.token, originOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/sign-in',
    {
      config: { dashboardAuthBudget: true },
      schema: {
        tags,
        security: noKey,
        operationId: 'dashboardSignIn',
        summary: 'Sign in with email and password',
        description:
          'Answers a session (access token, and the refresh token in an HttpOnly cookie), or a TOTP challenge when the user has two-factor sign-in on. Unknown address and wrong password get the same 401; repeated failures pause sign-in (429 with Retry-After).',
        body: SignInBody,
        response: { 200: SignInAnswer, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const result = await dashboard.signIn(request.body, originOf(request));
      if (result.kind === 'totp_required') {
        return { object: 'totp_challenge' as const, totp_required: true as const, challenge_token: result.challengeToken, expires_in: result.expiresInSeconds };
      }
      return sendSession(reply, result.session);
    },
  );

  app.post(
    '/auth/totp',
    {
      config: { dashboardAuthBudget: true },
      schema: {
        tags,
        security: noKey,
        operationId: 'dashboardSignInTotp',
        summary: 'Second sign-in step: the authenticator code',
        body: TotpSignInBody,
        response: { 200: SessionObject, ...errorResponses(400, 401, 429) },
      },
    },
    async (request, reply) => sendSession(reply, await dashboard.signInWithTotp({ challengeToken: request.body.challenge_token, code: request.body.code }, originOf(request))),
  );

  app.post(
    '/auth/refresh',
    {
      schema: {
        tags,
        security: noKey,
        operationId: 'dashboardRefresh',
        summary: 'A new access token from the refresh cookie',
        description:
          'Needs the `akwe_refresh` cookie and the `X-CSRF-Token` header. The refresh token rotates: each use returns a new one; using an old one again ends that session.',
        response: { 200: SessionObject, ...errorResponses(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const refreshToken = refreshCookieChecked(request);
      return sendSession(reply, await dashboard.refresh(refreshToken, originOf(request)));
    },
  );

  app.post(
    '/auth/sign-out',
    {
      schema: {
        tags,
        security: noKey,
        operationId: 'dashboardSignOut',
        summary: 'End this session (needs the refresh cookie and X-CSRF-Token)',
        response: { 204: NoContent, ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      await dashboard.signOut(refreshCookieChecked(request));
      clearSessionCookies(reply, flags);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/sign-out-everywhere',
    {
      config: { dashboardSession: true },
      schema: {
        tags,
        security: session,
        operationId: 'dashboardSignOutEverywhere',
        summary: 'End every session of the user, on every device',
        response: { 204: NoContent, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      await dashboard.signOutEverywhere(callerOf(request).user, originOf(request));
      clearSessionCookies(reply, flags);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/password-reset',
    {
      config: { dashboardAuthBudget: true },
      schema: {
        tags,
        security: noKey,
        operationId: 'dashboardPasswordResetRequest',
        summary: 'Email a password-reset link (always 202)',
        body: PasswordResetBody,
        response: { 202: Accepted, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      await dashboard.requestPasswordReset(request.body.email, originOf(request));
      return reply.code(202).send({ status: 'accepted' });
    },
  );

  app.post(
    '/auth/password-reset/complete',
    {
      config: { dashboardAuthBudget: true },
      schema: {
        tags,
        security: noKey,
        operationId: 'dashboardPasswordResetComplete',
        summary: 'Set a new password with the emailed token; signs out every session',
        body: PasswordResetCompleteBody,
        response: { 204: NoContent, ...errorResponses(400, 429) },
      },
    },
    async (request, reply) => {
      await dashboard.completePasswordReset(request.body, originOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/auth/invitations/accept',
    {
      config: { dashboardAuthBudget: true },
      schema: {
        tags,
        security: noKey,
        operationId: 'dashboardAcceptInvitation',
        summary: 'Accept an invitation (creating the account when the address has none)',
        body: AcceptInvitationBody,
        response: { 200: MembershipObject, ...errorResponses(400, 410, 429) },
      },
    },
    async (request) => {
      const membership = await dashboard.acceptInvitation(request.body, originOf(request));
      return { merchant_id: membership.merchantId, role: membership.role };
    },
  );

  app.get(
    '/me',
    {
      config: { dashboardSession: true },
      schema: {
        tags,
        security: session,
        operationId: 'dashboardMe',
        summary: 'The signed-in user, their merchants and roles',
        response: { 200: MeObject, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      return {
        user: userToWire(caller.user),
        environment: request.dashboardEnvironment,
        platform_admin: await options.platformAdmins.isAdmin(caller.user.id),
        memberships: caller.memberships.map((m) => ({
          merchant_id: m.merchantId,
          merchant_name: m.merchantName,
          role: m.role,
          permissions: actionsOf(m.role),
          key_scopes: scopesOf(m.role),
        })),
      };
    },
  );

  app.put(
    '/me/language',
    {
      config: { dashboardSession: true },
      schema: {
        tags,
        security: session,
        operationId: 'dashboardSetLanguage',
        summary: 'Choose the language of the emails sent to you',
        description: 'The dashboard sends the language its user picks; invitations, password resets and KYC decisions are then written in it.',
        body: LanguageBody,
        response: { 204: NoContent, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      await dashboard.setLanguage(callerOf(request).user, request.body.language);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/me/totp',
    {
      config: { dashboardSession: true },
      schema: {
        tags,
        security: session,
        operationId: 'dashboardTotpEnroll',
        summary: 'Start two-factor enrolment',
        description: 'Returns the otpauth URL for the authenticator app; two-factor sign-in is on once POST /me/totp/confirm gets a code.',
        response: { 200: TotpEnrolment, ...errorResponses(400, 401, 409) },
      },
    },
    async (request) => {
      const enrolment = await dashboard.enrollTotp(callerOf(request).user);
      return { otpauth_url: enrolment.otpauthUrl, secret: enrolment.secret };
    },
  );

  app.post(
    '/me/totp/confirm',
    {
      config: { dashboardSession: true },
      schema: {
        tags,
        security: session,
        operationId: 'dashboardTotpConfirm',
        summary: 'Turn two-factor sign-in on with a code',
        body: CodeBody,
        response: { 204: NoContent, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      await dashboard.confirmTotp(callerOf(request).user, request.body.code, originOf(request));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/me/totp/disable',
    {
      config: { dashboardSession: true },
      schema: {
        tags,
        security: session,
        operationId: 'dashboardTotpDisable',
        summary: 'Turn two-factor sign-in off with a code',
        body: CodeBody,
        response: { 204: NoContent, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      await dashboard.disableTotp(callerOf(request).user, request.body.code, originOf(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/merchants/:merchantId/members',
    {
      config: { dashboardSession: true },
      schema: {
        tags,
        security: session,
        operationId: 'dashboardListMembers',
        summary: 'The merchant’s members and their roles',
        params: MerchantParams,
        response: { 200: MemberList, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const caller = await dashboard.actingIn(callerOf(request).user, request.params.merchantId, 'read');
      return { object: 'list' as const, data: (await dashboard.listMembers(caller)).map(memberToWire) };
    },
  );

  app.post(
    '/merchants/:merchantId/invitations',
    {
      config: { dashboardSession: true },
      schema: {
        tags,
        security: session,
        operationId: 'dashboardInvite',
        summary: 'Invite someone to the merchant with a role (team.manage)',
        params: MerchantParams,
        body: InvitationBody,
        response: { 202: Accepted, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const caller = await dashboard.actingIn(callerOf(request).user, request.params.merchantId, 'team.manage');
      await dashboard.invite(caller, request.body, originOf(request));
      return reply.code(202).send({ status: 'accepted' });
    },
  );

  app.patch(
    '/merchants/:merchantId/members/:userId',
    {
      config: { dashboardSession: true },
      schema: {
        tags,
        security: session,
        operationId: 'dashboardChangeRole',
        summary: 'Change a member’s role (team.manage)',
        params: MemberParams,
        body: RoleBody,
        response: { 200: MemberObject, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const caller = await dashboard.actingIn(callerOf(request).user, request.params.merchantId, 'team.manage');
      return memberToWire(await dashboard.changeRole(caller, request.params.userId, request.body.role, originOf(request)));
    },
  );

  app.delete(
    '/merchants/:merchantId/members/:userId',
    {
      config: { dashboardSession: true },
      schema: {
        tags,
        security: session,
        operationId: 'dashboardRemoveMember',
        summary: 'Remove a member (team.manage)',
        params: MemberParams,
        response: { 204: NoContent, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const caller = await dashboard.actingIn(callerOf(request).user, request.params.merchantId, 'team.manage');
      await dashboard.removeMember(caller, request.params.userId, originOf(request));
      return reply.code(204).send(null);
    },
  );

  await app.register(overviewRoutes, { dashboard, overview: options.overview });
  // Last, so the document lists the developers section after the account and team routes.
  await app.register(developerRoutes, { dashboard, developers: options.developers, destinationUrls: options.destinationUrls, serverSecret: options.serverSecret });
  await app.register(approvalRoutes, { dashboard, approvals: options.approvals });
  await app.register(invitationRoutes, { dashboard });
  await app.register(kycRoutes, { dashboard, ...options.kyc });
};
