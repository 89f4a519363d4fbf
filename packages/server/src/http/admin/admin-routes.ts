import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { BackOffice } from '../../core/admin/back-office.js';
import type { PlatformAdmins } from '../../core/admin/platform-admins.js';
import type { DashboardService } from '../../core/dashboard/dashboard-service.js';
import { AkweError } from '../../core/errors/index.js';
import { documentTypes, extensionOf } from '../../core/kyc/document-type.js';
import type { KycService } from '../../core/kyc/kyc-service.js';
import type { ReconciliationService } from '../../core/reconciliation/reconciliation-service.js';
import { looksLikeId } from '../../core/shared/ids.js';
import { callerOf, installDashboardContext, originOf } from '../dashboard/dashboard-context.js';
import { KycSubmissionObject, submissionToWire } from '../dashboard/kyc-schemas.js';
import { errorResponses } from '../shared/error-schemas.js';
import {
  AdminMerchantList,
  AdminMerchantObject,
  AdminMerchantParams,
  DiscrepancyList,
  DiscrepancyQuery,
  discrepancyToWire,
  DocumentParams,
  MerchantQuery,
  merchantToWire,
  OperatorList,
  OperatorQuery,
  operatorToWire,
  ReasonBody,
  RejectBody,
  SubmissionList,
  SubmissionParams,
  SubmissionQuery,
} from './admin-schemas.js';
import { FloatList, FloatQuery, floatToWire } from './float-schemas.js';
import type { FloatBoard } from '../../core/floats/float-board.js';
import type { RevenueReports } from '../../core/revenue/revenue-report.js';
import { revenueRoutes } from './revenue-routes.js';
import { reconciliationRoutes } from './reconciliation-routes.js';

export const ADMIN_PREFIX = '/api/v1/admin';

export interface AdminRoutesOptions {
  dashboard: DashboardService;
  platformAdmins: PlatformAdmins;
  kyc: KycService;
  backOffice: BackOffice;
  floats: FloatBoard;
  revenue: RevenueReports;
  reconciliation: ReconciliationService;
}

const tags = ['admin'];
const session = [{ dashboardSession: [] }];
const config = { dashboardSession: true };

/**
 * The back office (docs/dashboard.md "Back office"), for the platform's administrators only:
 * a dashboard session of a user granted the role from the CLI; anyone else is 403
 * `admin_required`. KYC review, merchants' suspension, discrepancies, operators' health, and
 * platform revenue (revenue-routes.ts), reconciliation against providers' reports (reconciliation-routes.ts).
 */
export const adminRoutes: FastifyPluginAsyncTypebox<AdminRoutesOptions> = async (app, { dashboard, platformAdmins, kyc, backOffice, floats, revenue, reconciliation }) => {
  installDashboardContext(app, dashboard);
  // After the session hook: every route here needs a session, and the role is read on each request.
  app.addHook('onRequest', async (request) => {
    if (!request.routeOptions.config.dashboardSession) return;
    if (!(await platformAdmins.isAdmin(callerOf(request).user.id))) throw new AkweError('admin_required');
  });
  await app.register(reconciliationRoutes, { reconciliation });

  app.get(
    '/kyc-submissions',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminListKycSubmissions',
        summary: 'KYC submissions, newest first; `status=submitted` for those waiting for a review',
        querystring: SubmissionQuery,
        response: { 200: SubmissionList, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { status, limit, starting_after: startingAfter } = request.query;
      if (startingAfter !== undefined && !looksLikeId(startingAfter)) {
        throw AkweError.ofField('invalid_cursor', 'starting_after', 'starting_after must be the next_cursor of a previous page of this list.');
      }
      const page = await kyc.list({ status, limit, startingAfter: startingAfter?.toLowerCase() });
      const last = page.data.at(-1);
      return { object: 'list' as const, data: page.data.map(submissionToWire), has_more: page.hasMore, next_cursor: page.hasMore && last ? last.id : null };
    },
  );

  app.get(
    '/kyc-submissions/:submissionId',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminGetKycSubmission',
        summary: 'One KYC submission with its documents’ descriptions',
        params: SubmissionParams,
        response: { 200: KycSubmissionObject, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => submissionToWire(await kyc.get(request.params.submissionId)),
  );

  app.get(
    '/kyc-submissions/:submissionId/documents/:documentId',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminDownloadKycDocument',
        summary: 'A KYC document, decrypted, as an attachment (the download is audited)',
        description:
          "Served with the type read from its content at upload (PDF, PNG or JPEG), `Content-Disposition: attachment`, `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox; default-src 'none'`, so it never runs in the page.",
        params: DocumentParams,
        response: {
          200: {
            description: 'The document.',
            content: Object.fromEntries(documentTypes.map((type) => [type, { schema: { type: 'string', format: 'binary' }, example: '(the file’s bytes)' }])),
          },
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const { document, content } = await kyc.document(callerOf(request).user, request.params.submissionId, request.params.documentId, originOf(request));
      return reply
        .header('content-type', document.contentType)
        .header('content-disposition', `attachment; filename="${document.kind}-${document.id}.${extensionOf[document.contentType]}"`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "sandbox; default-src 'none'")
        .header('cache-control', 'no-store')
        .send(content);
    },
  );

  app.post(
    '/kyc-submissions/:submissionId/approve',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminApproveKycSubmission',
        summary: 'Validate the submission: the merchant’s KYC becomes validated, its owners are emailed',
        params: SubmissionParams,
        response: { 200: KycSubmissionObject, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => submissionToWire(await kyc.approve(callerOf(request).user, request.params.submissionId, originOf(request))),
  );

  app.post(
    '/kyc-submissions/:submissionId/reject',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminRejectKycSubmission',
        summary: 'Reject the submission with a reason: the merchant’s KYC becomes rejected, its owners are emailed the reason',
        params: SubmissionParams,
        body: RejectBody,
        response: { 200: KycSubmissionObject, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => submissionToWire(await kyc.reject(callerOf(request).user, request.params.submissionId, request.body.reason, originOf(request))),
  );

  app.get(
    '/merchants',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminListMerchants',
        summary: 'Every merchant with its account and KYC status, newest first',
        querystring: MerchantQuery,
        response: { 200: AdminMerchantList, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const list = await backOffice.merchants({ status: request.query.status, kycStatus: request.query.kyc_status });
      return { object: 'list' as const, data: list.map(merchantToWire) };
    },
  );

  app.post(
    '/merchants/:merchantId/suspend',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminSuspendMerchant',
        summary: 'Suspend a merchant (its keys can no longer create payments in live, payouts, transfers, settlements)',
        params: AdminMerchantParams,
        body: ReasonBody,
        response: { 200: AdminMerchantObject, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => merchantToWire(await backOffice.suspend(callerOf(request).user, request.params.merchantId, request.body.reason, originOf(request))),
  );

  app.post(
    '/merchants/:merchantId/reactivate',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminReactivateMerchant',
        summary: 'Reactivate a suspended merchant',
        params: AdminMerchantParams,
        body: ReasonBody,
        response: { 200: AdminMerchantObject, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => merchantToWire(await backOffice.reactivate(callerOf(request).user, request.params.merchantId, request.body.reason, originOf(request))),
  );

  app.get(
    '/discrepancies',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminListDiscrepancies',
        summary: 'Operator answers our records refused, newest first (as `akwe reconcile discrepancies`)',
        querystring: DiscrepancyQuery,
        response: { 200: DiscrepancyList, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const list = await backOffice.discrepancies({ unresolvedOnly: request.query.unresolved_only, limit: request.query.limit });
      return { object: 'list' as const, data: list.map(discrepancyToWire) };
    },
  );

  app.get(
    '/operators',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminListOperators',
        summary: 'Every operator of the catalog in live and test with its health; `failing=true` for the others than available',
        querystring: OperatorQuery,
        response: { 200: OperatorList, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ object: 'list' as const, data: backOffice.operators({ failingOnly: request.query.failing }).map(operatorToWire) }),
  );

  app.get(
    '/floats',
    {
      config,
      schema: {
        tags,
        security: session,
        operationId: 'adminListRouteFloats',
        summary:
          'Every live route whose provider balance can be read: its last reading, threshold, state, and what the ledger expects there; `low=true` for the routes low on float',
        querystring: FloatQuery,
        response: { 200: FloatList, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ object: 'list' as const, data: (request.query.low ? await floats.low() : await floats.routes()).map(floatToWire) }),
  );
  // Inside this plugin: the hook above lets administrators alone through.
  await app.register(revenueRoutes, { revenue });
};
