import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { errorCatalog } from '../../core/errors/index.js';
import { documentTransform } from './document-transform.js';
import { operationTransform } from './operation-transform.js';

const errorTable = Object.entries(errorCatalog)
  .map(([code, { status, message }]) => `| ${status} | \`${code}\` | ${message} |`)
  .join('\n');

/** Where the document is served, under /api/v1; the first is the canonical one. */
export const OPENAPI_DOCUMENT_PATHS = ['/openapi.json', '/collect/openapi.json'] as const;

/**
 * The OpenAPI 3.1 document is generated from the route schemas (never written by hand):
 * operationTransform shapes each operation from its route's options, documentTransform finishes
 * the whole (webhooks, enums, named schemas).
 */
export async function installOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Akwe API',
        version: '2026-06',
        description: [
          'Mobile Money collection, payouts and bulk payments for Benin, Togo and Côte d’Ivoire.',
          'The API key decides the environment (`ak_test_…` or `ak_live_…`).',
          '',
          '## Errors',
          'Every error (current contract, payouts, bulk) has the body `{"error": {"code", "message", "field"?, "details"?, "request_id"}}`.',
          'The earlier collect contract keeps `{error, code, detail}` and, for validation, `{field: [messages]}`.',
          'Each operation lists the codes it can answer; these can come from any route: 404 `route_not_found`, 405 `method_not_allowed`,',
          '400 `malformed_request`, 408 `request_timeout`, 431 `headers_too_large`, 500 `internal_error`, 503 `service_unavailable`.',
          '',
          '| HTTP | code | meaning |',
          '|---|---|---|',
          errorTable,
        ].join('\n'),
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
        contact: { name: 'Akwe maintainers' },
      },
      servers: [{ url: publicUrl }],
      tags: [
        { name: 'account', description: 'The calling key: merchant, environment, scopes.' },
        { name: 'collect', description: 'Collect payments, current contract (2026-06): amounts in major units, lowercase statuses.' },
        { name: 'collect (earlier contract)', description: 'The earlier collect contract: amounts in centimes, uppercase statuses, its own error shapes. Deprecated.' },
        { name: 'payouts', description: 'Payouts to beneficiaries’ wallets.' },
        {
          name: 'bulk payments',
          description: 'Bulk payment batches: many payouts submitted as one batch (JSON items or a CSV file), checked line by line, then executed. Amounts in centimes.',
        },
        { name: 'exports', description: 'Payments, payouts and balance transactions as CSV files, streamed: any size, newest first.' },
        {
          name: 'transfers',
          description: 'Wallet transfers: money moved at once from one Akwe merchant’s available balance to another’s, in the key’s environment. Amounts in centimes (`_minor`).',
        },
        {
          name: 'settlements',
          description:
            'Settlements: your available balance to your own wallet or bank account, on demand or by schedule, each with a statement of what it covers; and the settlement accounts they go to. Amounts in centimes (`_minor`).',
        },
        { name: 'payment_links', description: 'Payment links: a public page (and its QR code) where customers pay you through the hosted checkout.' },
        { name: 'balances', description: 'The merchant’s balances per currency and the ledger transactions that moved them. Amounts in centimes.' },
        { name: 'operators', description: 'Which operator a phone number belongs to, from the regulators’ numbering plans.' },
        { name: 'events', description: 'Events for catch-up reads and resends; the same envelope webhooks deliver.' },
        { name: 'webhooks', description: 'Webhook endpoints, their secrets and deliveries; the events they receive are under `webhooks`.' },
        {
          name: 'dashboard',
          description:
            'The merchant dashboard’s own API: users, sign-in, sessions, team and roles. Signed in with a session (access token), not an API key; the active environment is X-Service-Environment (docs/dashboard.md).',
        },
        {
          name: 'admin',
          description:
            'The back office, under /api/v1/admin: KYC review, merchants’ suspension, discrepancies, operators’ health. Dashboard sessions of platform administrators only (granted with `akwe admins grant`); anyone else is 403 `admin_required`.',
        },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          dashboardSession: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'JWT',
            description: 'Authorization: Bearer <dashboard access token> (POST /api/v1/dashboard/auth/sign-in)',
          },
        },
      },
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    },
    transform: operationTransform,
    transformObject: documentTransform,
  });
  // Built once all routes are known, so a schema mistake (two schemas under one title) stops the
  // start instead of failing the first request for the document.
  app.addHook('onReady', async () => {
    app.swagger();
  });
}

/** Serves the document without a key: it is the public contract, not merchant data. */
export function openApiRoute(app: FastifyInstance): void {
  for (const path of OPENAPI_DOCUMENT_PATHS) app.get(path, { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
