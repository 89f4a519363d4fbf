import { csvLine, csvPreamble, type Cell, type CsvDialect } from '../exports/csv-cells.js';
import type { RevenueReport, RevenueRow } from './revenue-report.js';
import type { RevenueGrouping } from './revenue-query.js';

/** The columns that say what a row is about, per grouping. */
const keyColumns: Record<RevenueGrouping, readonly { name: string; cell: (row: RevenueRow) => Cell }[]> = {
  day: [{ name: 'day', cell: (row) => row.day ?? null }],
  operator: [{ name: 'operator', cell: (row) => row.operator ?? null }],
  route: [
    { name: 'operator', cell: (row) => row.operator ?? null },
    { name: 'route', cell: (row) => row.route ?? null },
    { name: 'flow', cell: (row) => row.flow ?? null },
  ],
  merchant: [
    { name: 'merchant_id', cell: (row) => row.merchantId ?? null },
    { name: 'merchant_name', cell: (row) => row.merchantName ?? null },
  ],
};

const amountColumns: readonly { name: string; cell: (row: RevenueRow) => Cell }[] = [
  { name: 'currency', cell: (row) => row.currency },
  { name: 'fees_minor', cell: (row) => row.feesMinor },
  { name: 'volume_minor', cell: (row) => row.volumeMinor },
  { name: 'transactions', cell: (row) => row.count },
  { name: 'provider_costs_minor', cell: (row) => row.costsMinor },
  { name: 'margin_minor', cell: (row) => row.marginMinor },
  { name: 'costs_complete', cell: (row) => (row.costsComplete ? 'yes' : 'no') },
];

/**
 * The report as a CSV file (docs/exports.md's rules: CRLF, quoting, formula-safe text cells such
 * as merchants' names; the semicolon dialect starts with a byte order mark). One line per row;
 * amounts are exact integers in centimes.
 */
export function revenueCsv(report: RevenueReport, dialect: CsvDialect): string {
  const columns = [...keyColumns[report.query.groupBy], ...amountColumns];
  const lines = report.rows.map((row) =>
    csvLine(
      columns.map((column) => column.cell(row)),
      dialect,
    ),
  );
  return (
    csvPreamble(dialect) +
    csvLine(
      columns.map((column) => column.name),
      dialect,
    ) +
    lines.join('')
  );
}

/** `akwe-revenue-live-day-2026-11-01-2026-12-01.csv` */
export function revenueFileName(report: RevenueReport): string {
  const { environment, groupBy, fromDay, toDay } = report.query;
  return `akwe-revenue-${environment}-${groupBy}-${fromDay}-${toDay}.csv`;
}
