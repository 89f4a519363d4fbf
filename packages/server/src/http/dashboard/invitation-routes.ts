import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { DashboardService } from '../../core/dashboard/dashboard-service.js';
import type { Invitation } from '../../core/dashboard/invitation.js';
import { errorResponses } from '../shared/error-schemas.js';
import { callerOf, originOf } from './dashboard-context.js';
import { MerchantParams } from './dashboard-schemas.js';
import { InvitationList, InvitationObject, InvitationParams, InvitationQuery } from './invitation-schemas.js';

const tags = ['dashboard'];
const session = [{ dashboardSession: [] }];
const config = { dashboardSession: true };

export const invitationToWire = (invitation: Invitation) => ({
  object: 'invitation' as const,
  id: invitation.id,
  merchant_id: invitation.merchantId,
  email: invitation.email,
  role: invitation.role,
  status: invitation.status,
  invited_by: invitation.invitedBy,
  created_at: invitation.createdAt,
  expires_at: invitation.expiresAt,
  accepted_at: invitation.acceptedAt,
  revoked_at: invitation.revokedAt,
  revoked_by: invitation.revokedBy,
});

/**
 * A merchant's invitations (docs/dashboard.md "Team and roles"): listed and revoked by members who
 * manage the team, beside POST …/invitations that sends them. Registered inside the dashboard scope.
 */
export const invitationRoutes: FastifyPluginAsyncTypebox<{ dashboard: DashboardService }> = async (app, { dashboard }) => {
  app.get(
    '/merchants/:merchantId/invitations',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardListInvitations',
        summary: 'The merchant’s invitations, newest first (the last 200), with their status now (team.manage)',
        params: MerchantParams,
        querystring: InvitationQuery,
        response: { 200: InvitationList, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const caller = await dashboard.actingIn(callerOf(request).user, request.params.merchantId, 'team.manage');
      return { object: 'list' as const, data: (await dashboard.listInvitations(caller, request.query.status)).map(invitationToWire) };
    },
  );

  app.delete(
    '/merchants/:merchantId/invitations/:invitationId',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardRevokeInvitation',
        summary: 'Revoke a pending invitation (team.manage; an invitation as owner: owners only)',
        description: 'Answers the invitation, `revoked`; its link then answers 410 `invitation_revoked`. One no longer pending answers 409 `invitation_not_pending`.',
        params: InvitationParams,
        response: { 200: InvitationObject, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const caller = await dashboard.actingIn(callerOf(request).user, request.params.merchantId, 'team.manage');
      return invitationToWire(await dashboard.revokeInvitation(caller, request.params.invitationId, originOf(request)));
    },
  );
};
