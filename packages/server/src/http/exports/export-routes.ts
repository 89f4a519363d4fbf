/**
 * GET /exports/payments.csv, /exports/payouts.csv, /exports/balance-transactions.csv and /exports/batch-lines.csv
 * (docs/exports.md): the key's environment's rows as a CSV file, streamed page by page.
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ExportKind, ExportQuery, ExportService } from '../../core/exports/export-service.js';
import type { Scope } from '../../core/merchants/scopes.js';
import { principalOf } from '../plugins/authentication.js';
import { errorResponses } from '../shared/error-schemas.js';
import { enumFiltersInAnyCase } from '../shared/list-filters.js';
import { BalanceTransactionExportQuery, BatchLineExportQuery, PaymentExportQuery, PayoutExportQuery } from './export-schemas.js';

export interface ExportRoutesOptions {
  exports: ExportService;
}

const tags = ['exports'];

/**
 * The stream buffers about one page's text ahead of the socket: past this many bytes it stops
 * pulling the next page until the client has taken what is there.
 */
const STREAM_BUFFER_BYTES = 64 * 1024;

const fileDescription =
  'A `text/csv; charset=utf-8` file (RFC 4180: comma separated, CRLF line ends, no byte order mark; with `delimiter=semicolon`, semicolons and a UTF-8 byte order mark for a French Excel), header line first, newest first. `Content-Disposition: attachment; filename="akwe-<export>-<environment>-<from>-<to>.csv"`. ' +
  'Where a text cell would start a formula (`=`, `+`, `-`, `@`, a tab or a carriage return), at its start or after a comma or semicolon in it, an apostrophe goes before that character, so no spreadsheet runs it whichever delimiter it splits on; cells holding either delimiter are quoted; amounts are integers, never escaped.';

const csvResponse = (what: string) => ({ description: `${what}. ${fileDescription}`, content: { 'text/csv': { schema: { type: 'string' } } } });

function sendCsv(exports: ExportService, kind: ExportKind) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // The query is checked before anything is sent: a bad period is a 400, not a broken file.
    const file = await exports.csv(principalOf(request), kind, request.query as ExportQuery);
    // Readable.from pulls the next page only when the socket has room; a client that goes away
    // destroys the stream, which ends the generator (no further page is read).
    const body = Readable.from(file.chunks, { objectMode: false, highWaterMark: STREAM_BUFFER_BYTES });
    return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${file.fileName}"`).header('cache-control', 'no-store').send(body);
  };
}

function exportRoute(
  summary: string,
  operationId: string,
  scope: Scope,
  querystring: typeof PaymentExportQuery | typeof BalanceTransactionExportQuery | typeof BatchLineExportQuery,
  description: string,
) {
  return {
    config: { scope, rateLimitBucket: 'read' as const },
    ...('status' in querystring.properties ? { preValidation: enumFiltersInAnyCase(querystring) } : {}),
    schema: {
      tags,
      operationId,
      summary,
      description,
      querystring,
      response: { 200: csvResponse(summary), ...errorResponses(400, 401, 403, ...('batch_id' in querystring.properties ? [404] : []), 429) },
    },
  };
}

export const exportRoutes: FastifyPluginAsyncTypebox<ExportRoutesOptions> = async (app, { exports }) => {
  app.get(
    '/exports/payments.csv',
    exportRoute(
      'Payments as a CSV file',
      'exportPayments',
      'collect:read',
      PaymentExportQuery,
      'Every payment of the key’s environment created in [from, to), optionally of one status. Amounts in FCFA as the collect contract shows them (`amount`, `refunded_amount`) and in centimes (`_minor`); `fee_minor` is the collection’s fee, empty until the payment completed.',
    ),
    sendCsv(exports, 'payments'),
  );
  app.get(
    '/exports/payouts.csv',
    exportRoute(
      'Payouts as a CSV file',
      'exportPayouts',
      'payout:read',
      PayoutExportQuery,
      'Every payout of the key’s environment created in [from, to), optionally of one status. Amounts in centimes, as the payout contract shows them.',
    ),
    sendCsv(exports, 'payouts'),
  );
  app.get(
    '/exports/balance-transactions.csv',
    exportRoute(
      'Balance transactions as a CSV file',
      'exportBalanceTransactions',
      'payout:read',
      BalanceTransactionExportQuery,
      'Every balance transaction of the key’s environment created in [from, to), with the fields of GET /balance-transactions (`source` as three columns). Amounts in centimes.',
    ),
    sendCsv(exports, 'balance-transactions'),
  );
  app.get(
    '/exports/batch-lines.csv',
    exportRoute(
      'Bulk batch lines as a CSV file',
      'exportBatchLines',
      'bulk:read',
      BatchLineExportQuery,
      'The lines of one bulk batch (`batch_id`, in row order) or of every batch of the key’s environment (newest first), created in [from, to), optionally of one line status: the fields of GET /bulk-payments/{id}/items with the batch’s name, `problems` as `code: message` pairs. Amounts in centimes. A batch that is not the key’s merchant’s and environment’s: 404.',
    ),
    sendCsv(exports, 'batch-lines'),
  );
};
