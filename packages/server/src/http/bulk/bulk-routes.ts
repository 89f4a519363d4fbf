import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Readable } from 'node:stream';
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import type { OperatorCatalog } from '../../core/catalog/operator-catalog.js';
import type { BatchCsvLimits } from '../../core/bulk/batch-csv.js';
import { acceptedBatchFileEncodings } from '../../core/bulk/batch-file-encoding.js';
import { batchTemplateCsv, batchTemplateFileName } from '../../core/bulk/batch-template.js';
import type { BulkBatchDetail, BulkService } from '../../core/bulk/bulk-service.js';
import type { ApprovalService } from '../../core/approvals/approval-service.js';
import { AkweError } from '../../core/errors/index.js';
import { principalOf } from '../plugins/authentication.js';
import { answerWithoutStoring, recordedRequest } from '../plugins/idempotency.js';
import { errorResponses } from '../shared/error-schemas.js';
import { enumFiltersInAnyCase } from '../shared/list-filters.js';
import { readList } from '../shared/list-cursors.js';
import { toAkweError } from '../shared/to-akwe-error.js';
import { itemSchemaProblems, withoutRefusedFields } from './item-schema-problems.js';
import { CsvUpload, IMPORT_PATH, readCsvBody, readMultipartCsv } from './csv-upload.js';
import { bulkBatchSummaryToWire, bulkBatchToWire, bulkItemToWire } from './bulk-mapper.js';
import { BulkBatchList, BulkBatchObject, BulkItemList, BulkParams, CreateBulkBody, ImportCsvQuery, ListBulkItemsQuery, ListBulkQuery, TemplateQuery } from './bulk-schemas.js';
import { listRoute, createdFilters } from '../shared/list-route.js';

export interface BulkRoutesOptions {
  catalog: OperatorCatalog;
  bulk: BulkService;
  /** BULK_MAX_LINES and BULK_MAX_BYTES: the CSV reader's limits and the JSON body limit. */
  limits: BatchCsvLimits;
  /** A dashboard session's live execution above the approval threshold goes through the approvals instead. */
  approvals: Pick<ApprovalService, 'guardApiCall'>;
}

const tags = ['bulk payments'];

/** Bulk payments (docs/bulk.md): paths end with a slash, as the contract writes them. */
export const bulkRoutes: FastifyPluginAsyncTypebox<BulkRoutesOptions> = async (app, { catalog, bulk, limits, approvals }) => {
  app.addContentTypeParser('text/csv', async (request: FastifyRequest, payload: AsyncIterable<Buffer>) => readCsvBody(request, payload, catalog, limits));
  app.addContentTypeParser('multipart/form-data', async (request: FastifyRequest, payload: Readable) => readMultipartCsv(request, payload, catalog, limits));
  const render = (detail: BulkBatchDetail) => ({ status: 201, body: bulkBatchToWire(detail) });

  app.post(
    '/bulk-payments/',
    {
      bodyLimit: limits.maxBytes,
      attachValidation: true,
      config: { scope: 'bulk:write', idempotency: { required: true, recorded: true }, rateLimitBucket: 'payout' },
      schema: {
        tags,
        operationId: 'createBulkPayment',
        summary: 'Create a bulk payment batch',
        description:
          'Stores a `draft` batch whose lines are all `pending`; nothing is paid until the batch is validated. Every problem of every line is checked at once: a batch with any problem is refused whole with 400 `validation_error` whose `details` list `{row, field, code, message}`, and nothing is stored. Header Idempotency-Key is required.',
        body: CreateBulkBody,
        response: { 201: BulkBatchObject, ...errorResponses(400, 401, 403, 409, 413, 422, 429) },
      },
    },
    async (request, reply) => {
      // A body the schema refuses is not kept under its Idempotency-Key, as on every other route.
      if (request.validationError) answerWithoutStoring(request);
      // Schema errors inside items join the line checks' report (every line at once); any other is a plain 400.
      const earlierProblems = request.validationError && itemSchemaProblems(request.validationError.validation as FastifySchemaValidationError[]);
      if (request.validationError && !earlierProblems) throw toAkweError(request.validationError);
      const recorded = recordedRequest(request, reply, render);
      const { name, description, items, metadata, country } = request.body;
      const detail = await bulk.createFromItems(
        principalOf(request),
        {
          name,
          description,
          metadata,
          ...(country === undefined ? {} : { country }),
          ...(earlierProblems ? { earlierProblems } : {}),
          items: items
            .map((line, index) => withoutRefusedFields(line, earlierProblems?.get(index + 1)))
            .map((item) => ({
              beneficiaryName: item.beneficiary_name,
              phone: item.phone,
              amount: item.amount,
              currency: item.currency,
              reference: item.reference,
              country: item.country,
              operator: item.operator,
              description: item.description,
              metadata: item.metadata,
            })),
        },
        recorded,
      );
      return recorded.send(detail);
    },
  );

  app.post(
    IMPORT_PATH,
    {
      config: { scope: 'bulk:write', idempotency: { required: true, recorded: true }, rateLimitBucket: 'payout' },
      schema: {
        tags,
        operationId: 'importBulkPaymentCsv',
        summary: 'Create a bulk payment batch from a CSV file',
        description: `The body is the file itself, \`Content-Type: text/csv\`, or a \`multipart/form-data\` upload holding exactly one file field (format in docs/bulk.md and the template), in ${acceptedBatchFileEncodings}. The batch is named by the \`name\` query parameter; without it, by the uploaded file's name (without \`.csv\`), else \`Import <YYYY-MM-DD HH:MM> UTC\`. As for a create, every problem of every line is reported at once (rows as a spreadsheet shows them, header = row 1) and a file with any problem stores nothing. A file over BULK_MAX_BYTES (or a multipart body over it by more than 64 KiB) is 413 \`payload_too_large\`; over BULK_MAX_LINES lines is 400; a second file part, a workbook or binary file, or mixed encodings is 400. Header Idempotency-Key is required; the same file with the same key replays.`,
        querystring: ImportCsvQuery,
        response: { 201: BulkBatchObject, ...errorResponses(400, 401, 403, 409, 413, 415, 422, 429) },
      },
    },
    async (request, reply) => {
      const upload = request.body;
      if (!(upload instanceof CsvUpload))
        throw new AkweError('unsupported_media_type', 'Send the file as the body with Content-Type: text/csv, or as a multipart/form-data upload.');
      const recorded = recordedRequest(request, reply, render);
      const detail = await bulk.createFromCsv(
        principalOf(request),
        { name: request.query.name, description: request.query.description, fileName: upload.fileName },
        upload.checked,
        recorded,
      );
      return recorded.send(detail);
    },
  );

  app.post(
    '/bulk-payments/:id/validate/',
    {
      config: { scope: 'bulk:write', idempotency: { required: true }, rateLimitBucket: 'payout' },
      schema: {
        tags,
        operationId: 'validateBulkPayment',
        summary: 'Approve a batch and pay its lines',
        description:
          "The merchant's approval of a `draft`: with the available balance covering every line's amount and fee (else 422 `insufficient_balance`, nothing changes), the batch becomes `processing` and is answered at once; the worker then makes each `pending` line a payout (reference = the line's reference, payout id = the line's id) in row order, leaving `invalid` a line the payout checks refuse now. The payouts follow their own lifecycle (webhooks payout.*), each line follows its payout, and the batch ends `completed`, `partially_completed` or `failed`. An interrupted execution resumes without paying a line twice. Validating a `processing` batch answers it as it is; a finished one is 409. Header Idempotency-Key is required.",
        params: BulkParams,
        response: { 200: BulkBatchObject, ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (principal.actor) {
        const { batch } = await bulk.get(principal, request.params.id);
        if (batch.status === 'draft') await approvals.guardApiCall(principal, batch.currency, batch.totalAmountMinor);
      }
      return bulkBatchToWire(await bulk.validate(principal, request.params.id));
    },
  );

  app.post(
    '/bulk-payments/:id/cancel/',
    {
      config: { scope: 'bulk:write', idempotency: { required: false }, rateLimitBucket: 'payout' },
      schema: {
        tags,
        operationId: 'cancelBulkPayment',
        summary: 'Cancel a draft batch',
        description:
          'A `draft` becomes `cancelled` with all its lines (`bulk_payment.cancelled` is emitted); nothing was reserved, so no balance moves. Cancelling a cancelled batch answers it as it is; a validated batch is 409 `invalid_state_transition`: its lines are payouts already. Idempotency-Key is honoured when sent.',
        params: BulkParams,
        response: { 200: BulkBatchObject, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => bulkBatchToWire(await bulk.cancel(principalOf(request), request.params.id)),
  );

  app.get(
    '/bulk-payments/template.csv',
    {
      config: { scope: 'bulk:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getBulkPaymentTemplate',
        summary: 'The CSV template to fill',
        description: `UTF-8 with a byte order mark, the header row with every column, one example line; semicolons unless \`delimiter=comma\`. A filled file may come back in ${acceptedBatchFileEncodings}; a workbook (.xlsx, .xls, .ods) is refused: save the sheet as CSV.`,
        querystring: TemplateQuery,
        response: { 200: { description: 'The template file.', content: { 'text/csv': { schema: { type: 'string' } } } }, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${batchTemplateFileName}"`)
        .send(batchTemplateCsv(request.query.delimiter === 'comma' ? ',' : ';')),
  );

  app.get(
    '/bulk-payments/',
    ...listRoute({
      list: 'bulk_batches',
      scope: 'bulk:read',
      tags,
      operationId: 'listBulkPayments',
      summary: 'List bulk payment batches, newest first',
      description: 'Cursor pagination like every list. Filters combine: status, created_gte / created_lte.',
      querystring: ListBulkQuery,
      response: BulkBatchList,
      filters: (query) => ({ status: query.status, ...createdFilters(query) }),
      read: (principal, filters, page) => bulk.list(principal, filters, page),
      toWire: bulkBatchSummaryToWire,
    }),
  );

  app.get(
    '/bulk-payments/:id/',
    {
      config: { scope: 'bulk:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getBulkPayment',
        summary: 'A bulk payment batch, with count, amount and fee per line status',
        params: BulkParams,
        response: { 200: BulkBatchObject, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => bulkBatchToWire(await bulk.get(principalOf(request), request.params.id)),
  );

  app.get(
    '/bulk-payments/:id/items/',
    {
      config: { scope: 'bulk:read', rateLimitBucket: 'read' },
      preValidation: enumFiltersInAnyCase(ListBulkItemsQuery),
      schema: {
        tags,
        operationId: 'listBulkPaymentItems',
        summary: 'The lines of a batch, in row order',
        description: 'Cursor pagination on line ids: starting_after gives the rows after that line, ending_before those before it. Filter: status.',
        params: BulkParams,
        querystring: ListBulkItemsQuery,
        response: { 200: BulkItemList, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const filters = { status: request.query.status };
      const list = readList(request, 'bulk_items', filters, request.params.id);
      return list.envelope(await bulk.items(principalOf(request), request.params.id, filters, list.page), bulkItemToWire);
    },
  );
};
