/**
 * buildApp(deps): the whole HTTP API as a Fastify instance that is not listening.
 * Tests inject requests into it or listen on port 0; the server shell listens on PORT.
 */
import { dashboardUiRoutes } from './http/dashboard-ui/dashboard-ui-routes.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { accountRoutes } from './http/account/account-routes.js';
import { checkoutRoutes } from './http/checkout/checkout-routes.js';
import { payPageRoutes } from './http/payment-links/pay-page-routes.js';
import { contractRoutes } from './http/contracts/index.js';
import { eventRoutes } from './http/events/event-routes.js';
import { healthRoutes } from './http/health/health-routes.js';
import { errorReferenceRoutes } from './http/docs/error-reference-routes.js';
import { errorReferenceUrl } from './http/shared/error-doc-url.js';
import { operatorCallbackRoutes } from './http/operators/operator-callback-routes.js';
import { fedaPayWebhookRoutes } from './http/operators/fedapay-webhook-routes.js';
import { customerReturnRoutes } from './http/operators/customer-return-routes.js';
import { operatorPredictionRoutes } from './http/operators/operator-prediction-routes.js';
import { installApiReference } from './http/openapi/api-reference.js';
import { installOpenApi, openApiRoute } from './http/openapi/openapi.js';
import { bulkRoutes } from './http/bulk/bulk-routes.js';
import { balanceRoutes } from './http/balances/balance-routes.js';
import { transferRoutes } from './http/transfers/transfer-routes.js';
import { settlementRoutes } from './http/settlements/settlement-routes.js';
import { settlementAccountRoutes } from './http/settlements/settlement-account-routes.js';
import { paymentLinkRoutes } from './http/payment-links/payment-link-routes.js';
import { settlementScheduleRoutes } from './http/settlements/settlement-schedule-routes.js';
import { exportRoutes } from './http/exports/export-routes.js';
import { webhookEndpointRoutes } from './http/webhooks/webhook-endpoint-routes.js';
import { dashboardRoutes } from './http/dashboard/dashboard-routes.js';
import { ADMIN_PREFIX, adminRoutes } from './http/admin/admin-routes.js';
import { newId } from './core/shared/ids.js';
import { installAuthentication } from './http/plugins/authentication.js';
import { installSessionAudit } from './http/plugins/session-audit.js';
import { answerFrameworkError, installRootErrorHandling, MAX_PATH_PARAMETER_LENGTH } from './http/plugins/framework-errors.js';
import { installIdempotency } from './http/plugins/idempotency.js';
import { installInFlightTracking } from './http/plugins/in-flight-work.js';
import { clientErrorAnswerer } from './http/plugins/client-errors.js';
import { installJsonBodyParsing } from './http/plugins/json-body.js';
import { RouteMethods } from './http/plugins/route-methods.js';
import { installNulCharacterCheck } from './http/plugins/nul-characters.js';
import { installRateLimits } from './http/plugins/rate-limit.js';
import { installRefusalWhenClosing } from './http/plugins/refuse-when-closing.js';
import { installStrictTransportSecurity } from './http/plugins/strict-transport-security.js';
import { generateRequestId, installRequestIdHeader } from './http/plugins/request-id.js';
import { installValidationCompilers } from './http/plugins/validation-compilers.js';
import type { Services } from './services.js';
import { installHttpMetrics } from './metrics/http-metrics.js';
import { destinationUrlCheck } from './http/shared/url-policy.js';
import { installListCursors } from './http/shared/list-cursors.js';
import { systemResolver, type Resolver } from './webhooks/ssrf-guard.js';

export const API_PREFIX = '/api/v1';

export interface AppDeps {
  config: Config;
  services: Services;
  /** A pino logger; absent means silent (tests). */
  logger?: Logger;
  /** Extra routes inside the authenticated /api/v1 scope (tests register probe routes here). */
  apiExtensions?: (api: FastifyInstance) => void | Promise<void>;
  /**
   * Host name -> addresses, for checking webhook and callback URLs when they are registered
   * (http/shared/url-policy.ts). Default: the system resolver. Tests map their example names.
   */
  resolver?: Resolver;
}

/** Fastify's router options; route-methods.ts matches paths with the same ones. */
const routerOptions = { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAMETER_LENGTH };

export async function buildApp({ config, services, logger, apiExtensions, resolver = systemResolver }: AppDeps): Promise<FastifyInstance> {
  const referenceUrl = errorReferenceUrl(config.publicUrl);
  const app = Fastify({
    ...(logger ? { loggerInstance: logger as FastifyBaseLogger } : { logger: false }),
    genReqId: generateRequestId,
    // Health probes every few seconds would drown the request log.
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: (request) => request.url === '/health' || request.url === '/ready' }),
    bodyLimit: config.bodyLimitBytes,
    // request.ip (per-address limits, logs) believes X-Forwarded-For only from these proxies.
    trustProxy: config.trustProxy,
    // Refused in our own error shape instead (http/plugins/refuse-when-closing.ts).
    return503OnClosing: false,
    routerOptions,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: clientErrorAnswerer(referenceUrl),
  }).withTypeProvider<TypeBoxTypeProvider>();

  // JSON only: a text/plain body is refused with 415 rather than parsed as a string.
  app.removeContentTypeParser('text/plain');
  app.decorate('errorReferenceUrl', referenceUrl);
  installJsonBodyParsing(app);
  installValidationCompilers(app);
  const inFlightWork = installInFlightTracking(app);
  const routeMethods = new RouteMethods(routerOptions);
  routeMethods.track(app);
  installRootErrorHandling(app, routeMethods);
  installRequestIdHeader(app);
  // At the root, before any route: every request is counted, in every scope.
  installHttpMetrics(app, services.metrics);
  installStrictTransportSecurity(app, config.hsts);
  installRefusalWhenClosing(app);
  installNulCharacterCheck(app);
  await installOpenApi(app, config.publicUrl);
  await installApiReference(app, config.publicUrl);

  await app.register(healthRoutes, { database: services.database, timeoutMs: config.readyTimeoutMs });
  await app.register(errorReferenceRoutes);
  await app.register(dashboardUiRoutes);
  await app.register(checkoutRoutes, {
    prefix: '/checkout',
    checkout: services.checkout,
    secret: services.serverSecret,
    publicUrl: config.publicUrl,
    limits: config.checkoutLimits,
    redisUrl: config.redisUrl,
    clock: services.clock,
  });
  await app.register(payPageRoutes, {
    prefix: '/pay',
    paymentLinks: services.paymentLinks,
    checkout: services.checkout,
    catalog: services.catalog,
    secret: services.serverSecret,
    publicUrl: config.publicUrl,
    limits: config.checkoutLimits,
    redisUrl: config.redisUrl,
    clock: services.clock,
  });
  await app.register(operatorCallbackRoutes, {
    prefix: `${API_PREFIX}/operators`,
    payments: services.payments,
    refunds: services.refunds,
    payouts: services.payouts,
    operators: services.operators,
    publicUrl: config.publicUrl,
    perAddressPerMinute: config.operatorCallbacksPerMinute,
    redisUrl: config.redisUrl,
    clock: services.clock,
  });
  await app.register(customerReturnRoutes, {
    prefix: `${API_PREFIX}/operators`,
    payments: services.payments,
    publicUrl: config.publicUrl,
    serverSecret: services.serverSecret,
  });
  await app.register(fedaPayWebhookRoutes, {
    prefix: `${API_PREFIX}/operators`,
    payments: services.payments,
    payouts: services.payouts,
    operators: services.operators,
    perAddressPerMinute: config.operatorCallbacksPerMinute,
    redisUrl: config.redisUrl,
    clock: services.clock,
  });
  const destinationUrls = destinationUrlCheck({ dev: config.dev, resolver });
  // The dashboard signs its users in itself (docs/dashboard.md): outside the API-key scope below.
  await app.register(dashboardRoutes, {
    prefix: `${API_PREFIX}/dashboard`,
    dashboard: services.dashboard,
    developers: services.dashboardDevelopers,
    approvals: services.approvals,
    overview: services.dashboardOverview,
    destinationUrls,
    serverSecret: services.serverSecret,
    dev: config.dev,
    authPerMinute: config.dashboardAuthPerMinute,
    redisUrl: config.redisUrl,
    clock: services.clock,
    platformAdmins: services.platformAdmins,
    kyc: { kyc: services.kyc, merchants: services.merchants, vault: services.kycDocuments, maxDocumentBytes: config.kycMaxDocumentBytes, newId },
  });
  // The back office: the same sessions, for platform administrators only (docs/dashboard.md).
  await app.register(adminRoutes, {
    prefix: ADMIN_PREFIX,
    dashboard: services.dashboard,
    platformAdmins: services.platformAdmins,
    kyc: services.kyc,
    backOffice: services.backOffice,
    floats: services.floats.board,
    revenue: services.revenue,
    reconciliation: services.reconciliation,
  });

  await app.register(
    async (api) => {
      // Order matters: who is calling, then their budget, then their idempotency key.
      installAuthentication(api, services.merchants, services.dashboard);
      // What a dashboard session changes or exports here goes to the merchant's audit log.
      installSessionAudit(api, services.dashboardDevelopers, { exportsPrefix: `${API_PREFIX}/exports/` });
      await installRateLimits(api, { limits: config.rateLimits, redisUrl: config.redisUrl, clock: services.clock });
      installIdempotency(api, { store: services.idempotency, clock: services.clock, work: inFlightWork, leaseSeconds: config.idempotencyLeaseSeconds });
      openApiRoute(api);
      installListCursors(api, services.serverSecret);
      await api.register(accountRoutes);
      // Each contract version's routes (collect 2026-06, collect legacy, payouts 2025-01: http/contracts/index.ts).
      await api.register(contractRoutes, { services, config, destinationUrls });
      await api.register(bulkRoutes, {
        catalog: services.catalog,
        bulk: services.bulk,
        approvals: services.approvals,
        limits: { maxLines: config.bulkMaxLines, maxBytes: config.bulkMaxBytes },
      });
      await api.register(balanceRoutes, { ledger: services.ledger });
      await api.register(transferRoutes, { transfers: services.transfers, approvals: services.approvals });
      await api.register(settlementRoutes, { settlements: services.settlements, approvals: services.approvals });
      await api.register(settlementAccountRoutes, { settlementAccounts: services.settlementAccounts, clock: services.clock });
      await api.register(settlementScheduleRoutes, { schedules: services.settlementSchedules });
      await api.register(paymentLinkRoutes, { paymentLinks: services.paymentLinks, publicUrl: config.publicUrl, dev: config.dev });
      await api.register(exportRoutes, { exports: services.exports });
      await api.register(operatorPredictionRoutes, { catalog: services.catalog });
      await api.register(eventRoutes, {
        events: services.events,
        webhooks: services.webhooks,
        publicUrl: config.publicUrl,
        signals: services.signals,
        streamPollMs: config.eventStreamPollMs,
        streamLimits: config.eventStreamLimits,
      });
      await api.register(webhookEndpointRoutes, { webhooks: services.webhooks, destinationUrls });
      if (apiExtensions) await api.register(async (scope) => apiExtensions(scope as unknown as FastifyInstance));
    },
    { prefix: API_PREFIX },
  );

  // Not readied here: callers may still register (tests add probe routes); inject/listen ready it.
  return app as unknown as FastifyInstance;
}
