/**
 * A run's downloadable report (docs/operations.md "Reconciliation"): its summary as label/value
 * rows, an empty row, then one row per line, ours and theirs side by side. Cells follow
 * docs/exports.md (formula-safe text, CRLF, the semicolon variant with a byte order mark).
 */
import { csvDialects, csvLine, csvPreamble, type Cell, type CsvDialectName } from '../exports/csv-cells.js';
import type { ReconciliationLine, ReconciliationRun } from './reconciliation-run.js';

export const runReportLineColumns = [
  'position',
  'outcome',
  'resource_type',
  'resource_id',
  'merchant_id',
  'provider_reference',
  'currency',
  'akwe_amount_minor',
  'provider_amount_minor',
  'akwe_status',
  'provider_status',
  'occurred_at',
  'discrepancy_id',
] as const;

function summaryRows(run: ReconciliationRun): Cell[][] {
  return [
    ['run', run.id],
    ['route', run.route],
    ['provider', run.provider],
    ['period_start', run.periodStart],
    ['period_end', run.periodEnd],
    ['file_name', run.fileName],
    ['lines_in_report', run.lineCount],
    ['matched', run.counts.matched],
    ['missing_at_provider', run.counts.missing_at_provider],
    ['missing_at_akwe', run.counts.missing_at_akwe],
    ['amount_differs', run.counts.amount_differs],
    ['status_differs', run.counts.status_differs],
    ['provider_collected_minor', run.providerCollectedMinor],
    ['provider_paid_out_minor', run.providerPaidOutMinor],
    ['akwe_collected_minor', run.akweCollectedMinor],
    ['akwe_paid_out_minor', run.akwePaidOutMinor],
  ];
}

function lineCells(line: ReconciliationLine): Cell[] {
  return [
    line.position,
    line.outcome,
    line.resourceType,
    line.resourceId,
    line.merchantId,
    line.providerReference,
    line.currency,
    line.akweAmountMinor,
    line.providerAmountMinor,
    line.akweStatus,
    line.providerStatus,
    line.occurredAt,
    line.discrepancyId,
  ];
}

export function runReportCsv(run: ReconciliationRun, lines: readonly ReconciliationLine[], dialectName: CsvDialectName = 'comma'): string {
  const dialect = csvDialects[dialectName];
  return [
    csvPreamble(dialect),
    ...summaryRows(run).map((cells) => csvLine(cells, dialect)),
    '\r\n',
    csvLine(runReportLineColumns, dialect),
    ...lines.map((line) => csvLine(lineCells(line), dialect)),
  ].join('');
}

/** The file's name: the route and the days it covers. */
export function runReportFileName(run: ReconciliationRun): string {
  const lastDay = new Date(Date.parse(run.periodEnd) - 86_400_000).toISOString().slice(0, 10);
  return `akwe-reconciliation-${run.route}-${run.periodStart.slice(0, 10)}-${lastDay}.csv`;
}
