import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApprovalService } from '../../core/approvals/approval-service.js';
import type { Settlement } from '../../core/settlements/settlement.js';
import type { SettlementService, SettlementStatement } from '../../core/settlements/settlement-service.js';
import { principalOf } from '../plugins/authentication.js';
import { recordedRequest } from '../plugins/idempotency.js';
import { errorResponses } from '../shared/error-schemas.js';
import { settlementToWire } from './settlement-mapper.js';
import {
  CreateSettlementBody,
  ListSettlementsQuery,
  SettlementList,
  SettlementObject,
  SettlementParams,
  SettlementStatementObject,
  StatementCsvQuery,
} from './settlement-schemas.js';
import type { CsvDialectName } from '../../core/exports/csv-cells.js';
import { listRoute, commonListFilters } from '../shared/list-route.js';

export interface SettlementRoutesOptions {
  settlements: SettlementService;
  /** A dashboard session's live settlement above the approval threshold goes through the approvals instead. */
  approvals: Pick<ApprovalService, 'guardApiCallMeasured'>;
}

const tags = ['settlements'];

/** The statement buffers about one page's text ahead of the socket (as the CSV exports do). */
const STREAM_BUFFER_BYTES = 64 * 1024;

function statementToWire({ settlement, totals, lineCount, availableChangeMinor, reservedChangeMinor, feeMinor }: SettlementStatement) {
  return {
    object: 'settlement_statement' as const,
    settlement: settlement.id,
    currency: settlement.currency,
    opening_available_minor: settlement.openingAvailableMinor,
    closing_available_minor: settlement.closingAvailableMinor,
    available_change_minor: availableChangeMinor,
    opening_reserved_minor: settlement.openingReservedMinor,
    closing_reserved_minor: settlement.closingReservedMinor,
    reserved_change_minor: reservedChangeMinor,
    fee_minor: feeMinor,
    line_count: lineCount,
    totals: totals.map((total) => ({
      type: total.type,
      count: total.count,
      available_change_minor: total.availableChangeMinor,
      reserved_change_minor: total.reservedChangeMinor,
      fee_minor: total.feeMinor,
    })),
    lines_url: `/api/v1/balance-transactions?settlement=${settlement.id}`,
    csv_url: `/api/v1/settlements/${settlement.id}/statement.csv`,
  };
}

/** The statement's CSV, streamed: a plain handler, since its 200 is a file, not a schema-typed body. */
function sendStatementCsv(settlements: SettlementService) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const { id } = request.params as { id: string };
    const { delimiter } = request.query as { delimiter?: CsvDialectName };
    const file = await settlements.statementCsv(principalOf(request), id, delimiter);
    const body = Readable.from(file.chunks, { objectMode: false, highWaterMark: STREAM_BUFFER_BYTES });
    return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${file.fileName}"`).header('cache-control', 'no-store').send(body);
  };
}

/** Settlements to the merchant's own accounts (docs/settlements.md): amounts in centimes, `_minor` fields. */
export const settlementRoutes: FastifyPluginAsyncTypebox<SettlementRoutesOptions> = async (app, { settlements, approvals }) => {
  app.post(
    '/settlements/',
    {
      config: { scope: 'settlements:write', idempotency: { required: true, recorded: true }, rateLimitBucket: 'settlement' },
      schema: {
        tags,
        operationId: 'createSettlement',
        summary: 'Settle your available balance to your own account',
        description:
          'Reserves `amount_minor` (or the whole available balance) of one currency and sends it to a usable settlement account: a wallet through a payout (the catalog’s payout fee is taken from the amount), a bank account by an administrator. Emits settlement.created, then settlement.paid or settlement.failed. Header Idempotency-Key is required.',
        body: CreateSettlementBody,
        response: { 201: SettlementObject, ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const input = request.body;
      const settlement = {
        accountId: input.settlement_account,
        currency: input.currency,
        amountMinor: input.amount_minor,
        reference: input.reference,
        description: input.description,
        metadata: input.metadata,
      };
      // Without an amount, the whole available balance now is what the threshold compares.
      await approvals.guardApiCallMeasured(principalOf(request), async () =>
        input.amount_minor === undefined
          ? { currency: input.currency, amountMinor: (await settlements.prepare(principalOf(request), settlement)).amountMinor }
          : { currency: input.currency, amountMinor: input.amount_minor },
      );
      const recorded = recordedRequest(request, reply, (made: Settlement) => ({ status: 201, body: settlementToWire(made) }));
      const created = await settlements.create(principalOf(request), settlement, recorded);
      return recorded.send(created);
    },
  );

  app.get(
    '/settlements/',
    ...listRoute({
      list: 'settlements',
      scope: 'settlements:read',
      tags,
      operationId: 'listSettlements',
      summary: 'List settlements, newest first',
      description: 'Cursor pagination like every list. Filters combine: status, reference, created_gte / created_lte, one `metadata[key]=value`.',
      querystring: ListSettlementsQuery,
      response: SettlementList,
      filters: (query) => ({ status: query.status, ...commonListFilters(query) }),
      read: (principal, filters, page) => settlements.list(principal, filters, page),
      toWire: settlementToWire,
    }),
  );

  app.get(
    '/settlements/:id',
    {
      config: { scope: 'settlements:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getSettlement',
        summary: 'A settlement by id or by your reference',
        params: SettlementParams,
        response: { 200: SettlementObject, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => settlementToWire(await settlements.get(principalOf(request), request.params.id)),
  );

  app.get(
    '/settlements/:id/statement',
    {
      config: { scope: 'settlements:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getSettlementStatement',
        summary: 'What a settlement covers, summed',
        description: 'The statement’s frame and its lines summed per type; the lines themselves are GET /balance-transactions?settlement=<id> or the CSV.',
        params: SettlementParams,
        response: { 200: SettlementStatementObject, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => statementToWire(await settlements.statement(principalOf(request), request.params.id)),
  );

  app.get(
    '/settlements/:id/statement.csv',
    {
      config: { scope: 'settlements:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getSettlementStatementCsv',
        summary: 'A settlement’s statement lines as a CSV file',
        description:
          'Every balance transaction the statement covers, oldest first, with the columns of the balance-transactions export; amounts in centimes. `text/csv; charset=utf-8`, RFC 4180 (or semicolons and a byte order mark with `delimiter=semicolon`), formulas escaped as in the exports. Its available changes sum to the statement’s `available_change_minor`.',
        params: SettlementParams,
        querystring: StatementCsvQuery,
        response: { 200: { description: 'The statement as CSV.', content: { 'text/csv': { schema: { type: 'string' } } } }, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    sendStatementCsv(settlements),
  );
};
