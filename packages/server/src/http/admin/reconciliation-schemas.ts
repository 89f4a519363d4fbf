import { Type } from 'typebox';
import type { ReconciliationLine, ReconciliationRun } from '../../core/reconciliation/reconciliation-run.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Minor = Type.Integer({ description: 'Centimes (100 = 1 FCFA).' });

export const RunParams = Type.Object({ runId: Type.String({ minLength: 1, maxLength: 64 }) });

export const RunQuery = Type.Object(
  {
    route: Type.Optional(Type.String({ maxLength: 32, description: 'Only the runs of this route.' })),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
    starting_after: Type.Optional(Type.String({ maxLength: 64, description: 'The `next_cursor` of the previous page.' })),
  },
  { additionalProperties: false },
);

export const ReportQuery = Type.Object(
  { delimiter: Type.Enum(['comma', 'semicolon'], { default: 'comma', description: 'semicolon: the variant French Excel opens as columns, with a byte order mark.' }) },
  { additionalProperties: false },
);

const runExample = {
  object: 'reconciliation_run',
  id: '0193c5d2-0000-7000-8000-0000000000a1',
  route: 'pawapay',
  provider: 'pawapay',
  period_start: '2026-11-26T00:00:00.000Z',
  period_end: '2026-11-27T00:00:00.000Z',
  source: 'upload',
  file_name: 'statement-2026-11-26.csv',
  line_count: 42,
  matched_count: 40,
  missing_at_provider_count: 1,
  missing_at_akwe_count: 1,
  amounts_differ_count: 1,
  status_differs_count: 0,
  provider_collected_minor: 12_500_000,
  provider_paid_out_minor: 3_000_000,
  akwe_collected_minor: 12_400_000,
  akwe_paid_out_minor: 3_100_000,
  created_at: '2026-11-27T06:00:00.000Z',
};

export const RunObject = Type.Object(
  {
    object: Type.Literal('reconciliation_run'),
    id: Type.String(),
    route: Type.String(),
    provider: Type.String(),
    period_start: Type.String({ format: 'date-time', description: 'The first instant covered (midnight UTC).' }),
    period_end: Type.String({ format: 'date-time', description: 'The end of the days covered (exclusive).' }),
    source: Type.Enum(['upload', 'cli', 'scheduled']),
    file_name: Nullable(Type.String()),
    line_count: Type.Integer({ description: 'Lines in the provider’s report.' }),
    matched_count: Type.Integer(),
    missing_at_provider_count: Type.Integer(),
    missing_at_akwe_count: Type.Integer(),
    amounts_differ_count: Type.Integer({ description: 'How many discrepancies of kind `amount_differs` (a count, not money).' }),
    status_differs_count: Type.Integer(),
    provider_collected_minor: Minor,
    provider_paid_out_minor: Minor,
    akwe_collected_minor: Minor,
    akwe_paid_out_minor: Minor,
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'AdminReconciliationRun', examples: [runExample] },
);

export const RunImportAnswer = Type.Object(
  { run: RunObject, already_imported: Type.Boolean({ description: 'true: this file was imported for this route before; its first run, nothing recorded again.' }) },
  { title: 'AdminReconciliationImport', examples: [{ run: runExample, already_imported: false }] },
);

export const RunList = Type.Object(
  { object: Type.Literal('list'), data: Type.Array(RunObject), has_more: Type.Boolean(), next_cursor: Nullable(Type.String()) },
  { title: 'AdminReconciliationRunList', examples: [{ object: 'list', data: [runExample], has_more: false, next_cursor: null }] },
);

const LineObject = Type.Object({
  position: Type.Integer(),
  outcome: Type.Enum(['matched', 'ignored', 'missing_at_provider', 'missing_at_akwe', 'amount_differs', 'status_differs']),
  resource_type: Type.Enum(['payment', 'payout', 'refund']),
  resource_id: Nullable(Type.String()),
  merchant_id: Nullable(Type.String()),
  provider_reference: Nullable(Type.String()),
  currency: Type.String(),
  akwe_amount_minor: Nullable(Minor),
  provider_amount_minor: Nullable(Minor),
  akwe_status: Nullable(Type.String()),
  provider_status: Nullable(Type.String()),
  occurred_at: Nullable(Type.String({ format: 'date-time' })),
  discrepancy_id: Nullable(Type.String()),
});

export const RunWithLines = Type.Object({ run: RunObject, lines: Type.Array(LineObject) }, { title: 'AdminReconciliationRunLines', examples: [{ run: runExample, lines: [] }] });

export function runToWire(run: ReconciliationRun) {
  return {
    object: 'reconciliation_run' as const,
    id: run.id,
    route: run.route,
    provider: run.provider,
    period_start: run.periodStart,
    period_end: run.periodEnd,
    source: run.source,
    file_name: run.fileName,
    line_count: run.lineCount,
    matched_count: run.counts.matched,
    missing_at_provider_count: run.counts.missing_at_provider,
    missing_at_akwe_count: run.counts.missing_at_akwe,
    amounts_differ_count: run.counts.amount_differs,
    status_differs_count: run.counts.status_differs,
    provider_collected_minor: run.providerCollectedMinor,
    provider_paid_out_minor: run.providerPaidOutMinor,
    akwe_collected_minor: run.akweCollectedMinor,
    akwe_paid_out_minor: run.akwePaidOutMinor,
    created_at: run.createdAt,
  };
}

export function lineToWire(line: ReconciliationLine) {
  return {
    position: line.position,
    outcome: line.outcome,
    resource_type: line.resourceType,
    resource_id: line.resourceId,
    merchant_id: line.merchantId,
    provider_reference: line.providerReference,
    currency: line.currency,
    akwe_amount_minor: line.akweAmountMinor,
    provider_amount_minor: line.providerAmountMinor,
    akwe_status: line.akweStatus,
    provider_status: line.providerStatus,
    occurred_at: line.occurredAt,
    discrepancy_id: line.discrepancyId,
  };
}

const statementExample =
  'Creation Date,MSISDN,Transaction ID,Provider Transaction ID,Amount,Currency,Country,MNO,Type\r\n2026-11-26T08:15:02Z,22951345789,0193c5d2-0000-7000-8000-000000000001,PP1234567890,5000,XOF,BEN,MTN_MOMO_BEN,DEPOSIT\r\n';

/** The upload's multipart body (its parser is report-upload.ts, so it is not in the route's schema). */
export const reconciliationReportBody = {
  'multipart/form-data': {
    schema: {
      type: 'object',
      properties: {
        file: { type: 'string', format: 'binary', description: 'The provider’s report as exported, CSV (docs/operations.md lists each provider’s columns), at most 5 MB.' },
        provider: { type: 'string', enum: ['mtn-momo', 'wave', 'orange-money', 'fedapay', 'pawapay'], description: 'The report’s format: the connector family.' },
        route: { type: 'string', description: 'The operators file’s route the report is of; by default the provider’s name.' },
        date: { type: 'string', format: 'date', description: 'The UTC day the report covers; by default the days of its lines.' },
      },
      required: ['file', 'provider'],
      examples: [{ file: statementExample, provider: 'pawapay' }],
    },
  },
};

export const runReportCsvExample =
  'run,0193c5d2-0000-7000-8000-0000000000a1\r\nroute,pawapay\r\n…\r\n\r\nposition,outcome,resource_type,resource_id,merchant_id,provider_reference,currency,akwe_amount_minor,provider_amount_minor,akwe_status,provider_status,occurred_at,discrepancy_id\r\n1,matched,payment,0193c5d2-0000-7000-8000-000000000001,0193a6b0-0a1b-7c2d-8e3f-4a5b6c7d8e9f,PP1234567890,XOF,500000,500000,completed,completed,2026-11-26T08:15:02.000Z,\r\n';
