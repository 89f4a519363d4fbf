import { STATUS_CODES } from 'node:http';
import type { RouteOptions } from 'fastify';
import { batchExampleCsv, batchTemplateCsv } from '../../core/bulk/batch-template.js';
import { balanceTransactionsCsvExample, batchLinesCsvExample, paymentsCsvExample, payoutsCsvExample, statementCsvExample } from '../exports/export-examples.js';
import { revenueCsvExample } from '../admin/revenue-schemas.js';
import { narrowedToCodes } from './error-code-enum.js';
import { errorCodesFor } from './error-codes.js';
import { headersWithIdempotencyKey } from './idempotency-key-header.js';
import { routeFacts, type RouteFacts } from './route-facts.js';
import { kycMultipartBody } from '../dashboard/kyc-schemas.js';
import { reconciliationReportBody, runReportCsvExample } from '../admin/reconciliation-schemas.js';

type RouteSchema = Record<string, unknown>;

/** @fastify/swagger reads a response's description from this key and drops it from the schema. */
const RESPONSE_DESCRIPTION = 'x-response-description';

/**
 * Request bodies that are not JSON, so not in the route's schema (their parser is the route
 * plugin's): shown in the document by operation id.
 */
const batchFile = 'The batch file, UTF-8 (with or without BOM), comma or semicolon, header row first (docs/bulk.md; GET /bulk-payments/template.csv).';

const rawBodies: Record<string, Record<string, unknown>> = {
  dashboardSubmitKyc: kycMultipartBody,
  adminImportReconciliationReport: reconciliationReportBody,
  importBulkPaymentCsv: {
    'text/csv': { schema: { type: 'string', description: batchFile, examples: [batchExampleCsv()] } },
    'multipart/form-data': {
      schema: {
        type: 'object',
        properties: { file: { type: 'string', format: 'binary', description: `${batchFile} The first file field is read, whatever its name.` } },
        required: ['file'],
        examples: [{ file: batchExampleCsv() }],
      },
    },
  },
};

/** Response bodies that are not JSON: their example, by operation id and status. */
const rawResponseExamples: Record<string, Record<string, unknown>> = {
  getBulkPaymentTemplate: { 200: batchTemplateCsv() },
  exportPayments: { 200: paymentsCsvExample },
  exportPayouts: { 200: payoutsCsvExample },
  exportBalanceTransactions: { 200: balanceTransactionsCsvExample },
  exportBatchLines: { 200: batchLinesCsvExample },
  getSettlementStatementCsv: { 200: statementCsvExample },
  adminExportRevenue: { 200: revenueCsvExample },
  adminDownloadReconciliationReport: { 200: runReportCsvExample },
};

/** A non-JSON response (written with its `content`) gets its example in each media type. */
function withRawExamples(responses: Record<string, unknown>, operationId: string | undefined): Record<string, unknown> {
  const examples = operationId ? rawResponseExamples[operationId] : undefined;
  if (!examples) return responses;
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      const content = (response as { content?: Record<string, object> }).content;
      if (!(status in examples) || !content) return [status, response];
      return [status, { ...(response as object), content: Object.fromEntries(Object.entries(content).map(([type, media]) => [type, { ...media, example: examples[status] }])) }];
    }),
  );
}

/** What a reader needs beyond the route's own words: the key, the scope, the budget, idempotency. */
function operationNotes(route: RouteFacts): string[] {
  if (route.dashboard === 'session') return ['Needs a dashboard session (`Authorization: Bearer <access token>`), not an API key.'];
  if (route.dashboard === 'signedOut') {
    return [route.dashboardAuthBudget ? 'No sign-in needed. Rate-limited per client address (429 `rate_limited` with `Retry-After`).' : 'No sign-in needed.'];
  }
  if (route.public) return ['No API key needed.'];
  const notes = [route.scope ? `Required scope: \`${route.scope}\` (an empty scope list grants every scope).` : 'Any valid API key.'];
  if (route.rateLimitBucket) notes.push(`Rate-limit budget: \`${route.rateLimitBucket}\` (per API key and minute; 429 \`rate_limited\` with \`Retry-After\` past it).`);
  if (route.idempotency) notes.push(`Header \`Idempotency-Key\`: ${route.idempotency.required ? 'required' : 'optional'}.`);
  return notes;
}

/** Each error response says which codes of the catalog it can carry, in words and as an enum on its code. */
function describedErrorResponses(responses: Record<string, unknown>, route: RouteFacts): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(responses).map(([status, schema]) => {
      if (Number(status) < 400) return [status, schema];
      const codes = errorCodesFor(route, Number(status));
      const reason = STATUS_CODES[Number(status)] ?? 'Error';
      const description = codes.length > 0 ? `${reason}. Codes: ${codes.map((code) => `\`${code}\``).join(', ')}.` : `${reason}.`;
      return [status, { ...(narrowedToCodes(schema, codes) as object), [RESPONSE_DESCRIPTION]: description }];
    }),
  );
}

/**
 * @fastify/swagger's per-route `transform`: turns a route's options into what its operation
 * should show. Applies to the document only; the route's validation is untouched.
 */
export function operationTransform({ schema, url, route }: { schema: unknown; url: string; route: RouteOptions }) {
  const original = (schema ?? {}) as RouteSchema;
  const facts = routeFacts(route, original);
  const transformed: RouteSchema = { ...original };
  if (facts.public) transformed.security = [];
  transformed.description = [original.description, ...operationNotes(facts)].filter(Boolean).join('\n\n');
  if (facts.idempotency) transformed.headers = headersWithIdempotencyKey(original.headers, facts.idempotency);
  if (original.response) transformed.response = withRawExamples(describedErrorResponses(original.response as Record<string, unknown>, facts), facts.operationId);
  const raw = typeof original.operationId === 'string' ? rawBodies[original.operationId] : undefined;
  if (raw) transformed.body = { content: raw };
  return { schema: transformed as never, url };
}
