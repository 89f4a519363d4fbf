import { Type } from 'typebox';
import { inCentimes } from '../shared/money-descriptions.js';
import { bulkBatchStatuses, bulkItemStatuses } from '../../core/bulk/bulk-batch.js';
import { failureCodeList } from '../../core/shared/failure-codes.js';
import { MetadataInput, MetadataObject } from '../shared/metadata-schema.js';
import { listOf, listQuery } from '../shared/pagination.js';

const lineRules =
  'Required: beneficiary_name, phone, amount (centimes), currency, reference (unique in the batch and among your payouts); country unless the phone is international (+229…); operator unless it can be predicted from the number. ' +
  "A missing or wrong value is reported with the line's `row` (its position in items, from 1) in the 400 `validation_error` details, every line at once.";

/**
 * One line of a batch (the contract's item: beneficiary_name, phone, amount, currency, reference; docs/bulk.md). Every field is optional to the schema so that
 * the line checks (core/bulk/batch-lines.ts) report every missing one with its row, all lines at once.
 */
export const BulkItemInput = Type.Object(
  {
    beneficiary_name: Type.Optional(Type.String({ maxLength: 1000, description: 'At most 200 characters.' })),
    phone: Type.Optional(Type.String({ maxLength: 64, description: 'Wallet number, national or international.' })),
    amount: Type.Optional(Type.Integer({ description: inCentimes("Within the operator's payout limits (2500000 is 25 000 FCFA).") })),
    currency: Type.Optional(Type.String({ maxLength: 16, description: 'XOF (the currency payouts use in BJ, TG and CI).' })),
    reference: Type.Optional(Type.String({ maxLength: 1000, description: "1 to 100 of A-Z a-z 0-9 . _ : -; becomes the reference of the line's payout." })),
    country: Type.Optional(Type.String({ maxLength: 16, description: 'BJ, TG or CI; derived from an international number when absent.' })),
    operator: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'Payout catalog slug or alias; when absent, predicted from the number (the regulator’s numbering plan); a number with no predictable operator is refused with operator_required.',
      }),
    ),
    description: Type.Optional(Type.String({ maxLength: 1000, description: 'At most 255 characters.' })),
    metadata: Type.Optional(
      Type.Unsafe<Record<string, string>>({
        type: 'object',
        additionalProperties: { type: 'string' },
        description: "The line's own key-value pairs (the metadata limits, checked per line).",
      }),
    ),
  },
  {
    additionalProperties: false,
    title: 'BulkPaymentItemInput',
    description: lineRules,
    examples: [{ beneficiary_name: 'Kossi Agbeko', phone: '+22890112233', amount: 2500000, currency: 'XOF', reference: 'june-salary-001' }],
  },
);

export const CreateBulkBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    items: Type.Array(BulkItemInput, { minItems: 1, maxItems: 100_000, description: 'The lines; at most BULK_MAX_LINES (default 10 000).' }),
    metadata: Type.Optional(MetadataInput),
    country: Type.Optional(Type.String({ minLength: 2, maxLength: 2, description: 'BJ, TG or CI: the country of lines whose number is national and that name no country.' })),
  },
  {
    additionalProperties: false,
    title: 'CreateBulkPaymentRequest',
    examples: [
      {
        name: 'June salaries',
        description: 'Field staff, June 2026',
        country: 'TG',
        items: [
          { beneficiary_name: 'Kossi Agbeko', phone: '+22890112233', amount: 2500000, currency: 'XOF', reference: 'june-salary-001' },
          { beneficiary_name: 'Ama Dzidzo', phone: '99887766', amount: 1800000, currency: 'XOF', reference: 'june-salary-002', operator: 'flooz_tg' },
        ],
      },
    ],
  },
);

export const ImportCsvQuery = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: "The batch's name. Absent: the uploaded file's name without `.csv` (multipart), else `Import <YYYY-MM-DD HH:MM> UTC`.",
      }),
    ),
    description: Type.Optional(Type.String({ maxLength: 500 })),
    country: Type.Optional(Type.String({ minLength: 2, maxLength: 2, description: 'BJ, TG or CI: the country of rows whose number is national and whose country cell is empty.' })),
  },
  { additionalProperties: false },
);

export const TemplateQuery = Type.Object(
  { delimiter: Type.Enum(['semicolon', 'comma'], { default: 'semicolon', description: 'Semicolons open as columns in a French Excel; commas elsewhere.' }) },
  { additionalProperties: false },
);

const StatusTotal = Type.Object(
  {
    count: Type.Integer(),
    amount_minor: Type.Integer({ description: inCentimes('The lines’ amounts.') }),
    fee_minor: Type.Integer({ description: inCentimes('The lines’ payout fees.') }),
  },
  { title: 'BulkPaymentStatusTotal', examples: [{ count: 2, amount_minor: 4300000, fee_minor: 64500 }] },
);

const batchProperties = {
  object: Type.Literal('bulk_payment'),
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  status: Type.Enum(bulkBatchStatuses, {
    description: 'draft, then processing once validated; completed, partially_completed or failed at the end; cancelled for a draft cancelled instead.',
  }),
  source: Type.Enum(['api', 'csv'], { description: 'Created from JSON items or imported from a CSV file.' }),
  currency: Type.String(),
  item_count: Type.Integer(),
  total_amount_minor: Type.Integer({ description: inCentimes('Every line.') }),
  total_fee_minor: Type.Integer({ description: inCentimes("Payout fee of every line (from the operators' catalog entries).") }),
  metadata: MetadataObject,
  environment: Type.String(),
  sandbox: Type.Boolean(),
  validated_at: Type.Union([Type.String(), Type.Null()]),
  completed_at: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String(),
  updated_at: Type.String(),
};

const batchExample = {
  object: 'bulk_payment',
  id: '0193a7f0-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  name: 'June salaries',
  description: 'Field staff, June 2026',
  status: 'draft',
  source: 'api',
  currency: 'XOF',
  item_count: 2,
  total_amount_minor: 4300000,
  total_fee_minor: 64500,
  metadata: {},
  environment: 'test',
  sandbox: true,
  validated_at: null,
  completed_at: null,
  created_at: '2026-06-01T09:30:00.000Z',
  updated_at: '2026-06-01T09:30:00.000Z',
};

const noLines = { count: 0, amount_minor: 0, fee_minor: 0 };

/** A batch in a list: without the per-status totals, which the detail reads. */
export const BulkBatchSummary = Type.Object(batchProperties, { title: 'BulkPaymentSummary', description: 'A bulk payment batch as lists show it.', examples: [batchExample] });

export const BulkBatchObject = Type.Object(
  {
    ...batchProperties,
    totals: Type.Object(Object.fromEntries(bulkItemStatuses.map((status) => [status, StatusTotal])), {
      description: 'Count, amount and fee of the lines in each line status.',
    }),
    idempotent_replay: Type.Boolean(),
  },
  {
    title: 'BulkPayment',
    description: 'A bulk payment batch with what its lines add up to per status.',
    examples: [
      {
        ...batchExample,
        totals: { ...Object.fromEntries(bulkItemStatuses.map((status) => [status, noLines])), pending: { count: 2, amount_minor: 4300000, fee_minor: 64500 } },
        idempotent_replay: false,
      },
    ],
  },
);

export const BulkItemObject = Type.Object(
  {
    object: Type.Literal('bulk_payment_item'),
    id: Type.String({ format: 'uuid' }),
    batch_id: Type.String({ format: 'uuid' }),
    row: Type.Integer({ description: 'CSV: the spreadsheet row (header = 1). JSON: the position in items, from 1.' }),
    beneficiary_name: Type.String(),
    phone: Type.String({ description: 'E.164.' }),
    amount: Type.Integer({ description: inCentimes('Sent to the beneficiary.') }),
    fee_minor: Type.Integer({ description: inCentimes('The line’s payout fee, from its operator’s catalog entry when the line was drafted; its payout charges exactly this.') }),
    currency: Type.String(),
    country: Type.String(),
    operator: Type.String({ description: 'Canonical slug.' }),
    reference: Type.String(),
    description: Type.Union([Type.String(), Type.Null()]),
    metadata: MetadataObject,
    status: Type.Enum(bulkItemStatuses),
    problems: Type.Union([Type.Array(Type.Object({ row: Type.Integer(), field: Type.String(), code: Type.String(), message: Type.String() })), Type.Null()]),
    payout_id: Type.Union([Type.String(), Type.Null()]),
    failure_code: Type.Union([Type.Enum(failureCodeList), Type.Null()]),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  {
    title: 'BulkPaymentItem',
    description: 'One line of a bulk payment batch.',
    examples: [
      {
        object: 'bulk_payment_item',
        id: '0193a7f0-2b3c-7d4e-8f50-6a7b8c9d0e1f',
        batch_id: '0193a7f0-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
        row: 1,
        beneficiary_name: 'Kossi Agbeko',
        phone: '+22890112233',
        amount: 2500000,
        fee_minor: 37500,
        currency: 'XOF',
        country: 'TG',
        operator: 'tmoney_tg',
        reference: 'june-salary-001',
        description: null,
        metadata: {},
        status: 'pending',
        problems: null,
        payout_id: null,
        failure_code: null,
        created_at: '2026-06-01T09:30:00.000Z',
        updated_at: '2026-06-01T09:30:00.000Z',
      },
    ],
  },
);

export const BulkParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'The batch id.' }) });

export const ListBulkQuery = listQuery({
  status: Type.Optional(Type.Enum(bulkBatchStatuses)),
  created_gte: Type.Optional(Type.String({ format: 'date-time' })),
  created_lte: Type.Optional(Type.String({ format: 'date-time' })),
});

export const ListBulkItemsQuery = listQuery({ status: Type.Optional(Type.Enum(bulkItemStatuses)) });

export const BulkBatchList = listOf(BulkBatchSummary, { title: 'BulkPaymentList', description: 'Batches, newest first.' });
export const BulkItemList = listOf(BulkItemObject, { title: 'BulkPaymentItemList', description: 'Lines of a batch in row order (starting_after gives the following rows).' });
