import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { ApprovalRequest, ApprovalThreshold } from '../../core/approvals/approval.js';
import type { ApprovalService } from '../../core/approvals/approval-service.js';
import type { DashboardService, MemberCaller } from '../../core/dashboard/dashboard-service.js';
import type { Action } from '../../core/dashboard/permissions.js';
import { AkweError } from '../../core/errors/index.js';
import { looksLikeId } from '../../core/shared/ids.js';
import { errorResponses } from '../shared/error-schemas.js';
import { callerOf, originOf } from './dashboard-context.js';
import { MerchantParams } from './dashboard-schemas.js';
import {
  ApprovalList,
  ApprovalObject,
  ApprovalParams,
  ApprovalQuery,
  PolicyBody,
  PolicyObject,
  RejectBody,
  SubmitBatchBody,
  SubmitPayoutBody,
  SubmitRefundBody,
  SubmitSettlementBody,
  SubmitTransferBody,
} from './approval-schemas.js';

export interface ApprovalRoutesOptions {
  dashboard: DashboardService;
  approvals: ApprovalService;
}

const tags = ['dashboard'];
const session = [{ dashboardSession: [] }];
const config = { dashboardSession: true };

export const approvalToWire = (request: ApprovalRequest) => ({
  object: 'approval' as const,
  id: request.id,
  merchant_id: request.merchantId,
  environment: request.environment,
  kind: request.kind,
  status: request.status,
  approval_required: request.approvalRequired,
  amount_minor: request.amountMinor,
  currency: request.currency,
  request: request.request,
  maker_id: request.makerId,
  decided_by: request.decidedBy,
  decided_at: request.decidedAt,
  reason: request.reason,
  result: request.resultId === null ? null : { id: request.resultId, status: request.resultStatus ?? '' },
  error: request.errorCode === null ? null : { code: request.errorCode, message: request.errorMessage ?? '' },
  created_at: request.createdAt,
  updated_at: request.updatedAt,
  expires_at: request.expiresAt,
});

const policyToWire = (merchantId: string, thresholds: ApprovalThreshold[]) => ({
  object: 'approval_policy' as const,
  merchant_id: merchantId,
  thresholds: thresholds.map((t) => ({ currency: t.currency, amount_minor: t.thresholdMinor })),
  applies_to: 'live' as const,
});

/**
 * Maker-checker approvals (docs/dashboard.md "Approvals (maker-checker)"), under
 * /merchants/:merchantId: the policy, submissions of payouts, batch executions, wallet transfers,
 * settlements and refunds, the requests, approve and reject. Registered inside the dashboard scope (session and environment hooks).
 */
export const approvalRoutes: FastifyPluginAsyncTypebox<ApprovalRoutesOptions> = async (app, { dashboard, approvals }) => {
  const acting = (request: FastifyRequest, action: Action): Promise<MemberCaller> =>
    dashboard.actingIn(callerOf(request).user, (request.params as { merchantId: string }).merchantId, action);

  app.get(
    '/merchants/:merchantId/approval-policy',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardGetApprovalPolicy',
        summary: 'The live amounts, per currency, above which money-out needs a second user',
        params: MerchantParams,
        response: { 200: PolicyObject, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const caller = await acting(request, 'read');
      return policyToWire(caller.merchantId, await approvals.thresholds(caller.merchantId));
    },
  );

  app.put(
    '/merchants/:merchantId/approval-policy',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardSetApprovalPolicy',
        summary: 'Set the approval thresholds (approvals.manage); an empty list turns approvals off',
        params: MerchantParams,
        body: PolicyBody,
        response: { 200: PolicyObject, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const caller = await acting(request, 'approvals.manage');
      const thresholds = request.body.thresholds.map((t) => ({ currency: t.currency, thresholdMinor: t.amount_minor }));
      return policyToWire(caller.merchantId, await approvals.setThresholds(caller, thresholds, originOf(request)));
    },
  );

  app.post(
    '/merchants/:merchantId/approvals/payouts',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardSubmitPayout',
        summary: 'Submit a payout (payouts.create): executed at once, or pending a second user’s approval',
        description:
          'The body is the payout contract’s (POST /api/v1/payout/mobile-money/), checked at once the same way. In live above the threshold it answers 201 `pending`; otherwise the payout is made now and it answers 201 `executed` (`result.id` is the payout’s id), or the payout’s own error.',
        params: MerchantParams,
        body: SubmitPayoutBody,
        response: { 201: ApprovalObject, ...errorResponses(400, 401, 403, 404, 409, 422, 503) },
      },
    },
    async (request, reply) => {
      const caller = await acting(request, 'payouts.create');
      const submitted = await approvals.submitPayout(caller, request.dashboardEnvironment, request.body, originOf(request));
      return reply.code(201).send(approvalToWire(submitted));
    },
  );

  app.post(
    '/merchants/:merchantId/approvals/batches',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardSubmitBatch',
        summary: 'Submit a draft batch for execution (payouts.create): executed at once, or pending approval',
        description:
          'In live above the threshold (the lines’ total, fees aside) it answers 201 `pending`; otherwise the batch is validated now (as POST /api/v1/bulk-payments/{id}/validate/) and it answers 201 `executed`. A batch with a request still pending answers that request, 200.',
        params: MerchantParams,
        body: SubmitBatchBody,
        response: { 200: ApprovalObject, 201: ApprovalObject, ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const caller = await acting(request, 'payouts.create');
      const { request: submitted, created } = await approvals.submitBatch(caller, request.dashboardEnvironment, request.body.batch_id, originOf(request));
      return reply.code(created ? 201 : 200).send(approvalToWire(submitted));
    },
  );

  const submitted =
    'In live above the threshold it answers 201 `pending` (until `expires_at`); otherwise it is executed now and answers 201 `executed` (`result.id` is the request’s id), or the execution’s own error.';

  app.post(
    '/merchants/:merchantId/approvals/transfers',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardSubmitTransfer',
        summary: 'Submit a wallet transfer (payouts.create): executed at once, or pending a second user’s approval',
        description: `The body is the transfer API’s (POST /api/v1/transfers/), checked at once the same way (the balance when it executes). ${submitted}`,
        params: MerchantParams,
        body: SubmitTransferBody,
        response: { 201: ApprovalObject, ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const caller = await acting(request, 'payouts.create');
      return reply.code(201).send(approvalToWire(await approvals.submitTransfer(caller, request.dashboardEnvironment, request.body, originOf(request))));
    },
  );

  app.post(
    '/merchants/:merchantId/approvals/settlements',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardSubmitSettlement',
        summary: 'Submit a settlement (payouts.create): executed at once, or pending a second user’s approval',
        description: `The body is the settlement API’s (POST /api/v1/settlements/). Without \`amount_minor\`, the whole available balance at submission is the amount compared to the threshold, approved and settled. ${submitted}`,
        params: MerchantParams,
        body: SubmitSettlementBody,
        response: { 201: ApprovalObject, ...errorResponses(400, 401, 403, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const caller = await acting(request, 'payouts.create');
      return reply.code(201).send(approvalToWire(await approvals.submitSettlement(caller, request.dashboardEnvironment, request.body, originOf(request))));
    },
  );

  app.post(
    '/merchants/:merchantId/approvals/refunds',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardSubmitRefund',
        summary: 'Submit a refund of a completed payment (refunds.create): executed at once, or pending a second user’s approval',
        description: `Without \`amount_minor\`, all that is left to refund at submission is the amount compared, approved and refunded. ${submitted}`,
        params: MerchantParams,
        body: SubmitRefundBody,
        response: { 201: ApprovalObject, ...errorResponses(400, 401, 403, 404, 409, 422, 502, 503) },
      },
    },
    async (request, reply) => {
      const caller = await acting(request, 'refunds.create');
      return reply.code(201).send(approvalToWire(await approvals.submitRefund(caller, request.dashboardEnvironment, request.body, originOf(request))));
    },
  );

  app.get(
    '/merchants/:merchantId/approvals',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardListApprovals',
        summary: 'The approval requests of the active environment, newest first',
        params: MerchantParams,
        querystring: ApprovalQuery,
        response: { 200: ApprovalList, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const caller = await acting(request, 'read');
      const { status, limit, starting_after: startingAfter } = request.query;
      if (startingAfter !== undefined && !looksLikeId(startingAfter)) {
        throw AkweError.ofField('invalid_cursor', 'starting_after', 'starting_after must be the next_cursor of a previous page of this list.');
      }
      const page = await approvals.list(caller, request.dashboardEnvironment, { status, limit, startingAfter });
      const last = page.data.at(-1);
      return { object: 'list' as const, data: page.data.map(approvalToWire), has_more: page.hasMore, next_cursor: page.hasMore && last ? last.id : null };
    },
  );

  app.get(
    '/merchants/:merchantId/approvals/:approvalId',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardGetApproval',
        summary: 'One approval request',
        params: ApprovalParams,
        response: { 200: ApprovalObject, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const caller = await acting(request, 'read');
      return approvalToWire(await approvals.get(caller, request.dashboardEnvironment, request.params.approvalId));
    },
  );

  app.post(
    '/merchants/:merchantId/approvals/:approvalId/approve',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardApproveApproval',
        summary: 'Approve a pending request (approvals.decide), never one’s own; it is executed at once',
        description:
          'Answers the request `executed` (with `result`), or `failed` (with `error`: the execution’s refusal, the balance for instance). Of two approvers at once, one executes and the other gets 409 `approval_not_pending`; an expired request answers 409 `approval_expired`.',
        params: ApprovalParams,
        response: { 200: ApprovalObject, ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request) => {
      const caller = await acting(request, 'approvals.decide');
      return approvalToWire(await approvals.approve(caller, request.dashboardEnvironment, request.params.approvalId, originOf(request)));
    },
  );

  app.post(
    '/merchants/:merchantId/approvals/:approvalId/reject',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'dashboardRejectApproval',
        summary: 'Reject a pending request with a reason (approvals.decide); nothing is executed',
        params: ApprovalParams,
        body: RejectBody,
        response: { 200: ApprovalObject, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const caller = await acting(request, 'approvals.decide');
      return approvalToWire(await approvals.reject(caller, request.dashboardEnvironment, request.params.approvalId, request.body.reason, originOf(request)));
    },
  );
};
