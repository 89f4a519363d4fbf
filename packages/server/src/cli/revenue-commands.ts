import { Command, InvalidArgumentError, Option } from 'commander';
import { csvDialects } from '../core/exports/csv-cells.js';
import { revenueCsv } from '../core/revenue/revenue-csv.js';
import { revenueGroupings, revenueQuery, type RevenueGrouping } from '../core/revenue/revenue-query.js';
import type { RevenueRow } from '../core/revenue/revenue-report.js';
import { environments, type Environment } from '../core/shared/environment.js';
import { revenueToWire } from '../http/admin/revenue-schemas.js';
import { output, table } from './output.js';
import { withServices } from './with-services.js';

function calendarDay(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new InvalidArgumentError('a calendar day, 2026-11-01 (UTC)');
  return value;
}

/** Centimes as FCFA for people (the JSON and the CSV keep the exact centimes). */
function major(minor: number): string {
  return String(minor / 100);
}

function rowLabel(row: RevenueRow): string {
  if (row.day !== undefined) return row.day;
  if (row.merchantId !== undefined) return `${row.merchantName} (${row.merchantId})`;
  if (row.flow !== undefined) return `${row.operator ?? '-'}/${row.route ?? '-'} ${row.flow}`;
  return row.operator ?? '(no operator)';
}

interface RevenueOptions {
  from: string;
  to: string;
  groupBy: RevenueGrouping;
  environment: Environment;
  json?: boolean;
  csv?: 'comma' | 'semicolon';
}

/** `akwe revenue`: the back office's revenue report (docs/operations.md "Revenue") from a terminal. */
export function revenueCommands(): Command {
  return new Command('revenue')
    .description('fees earned (the ledger’s fees accounts) per day, operator, route or merchant, with providers’ costs and margin')
    .requiredOption('--from <day>', 'first day, inclusive (UTC)', calendarDay)
    .requiredOption('--to <day>', 'the day after the last one (exclusive)', calendarDay)
    .addOption(new Option('--group-by <grouping>', 'one row per').choices(revenueGroupings).default('day'))
    .addOption(new Option('--environment <environment>', 'live or test').choices(environments).default('live'))
    .option('--json', 'print JSON (as GET /api/v1/admin/revenue)')
    .addOption(new Option('--csv [delimiter]', 'print the CSV file (comma, or semicolon for a French Excel)').choices(['comma', 'semicolon']).preset('comma'))
    .action(async (options: RevenueOptions) => {
      await withServices(async (services) => {
        const report = await services.revenue.report(revenueQuery(options));
        if (options.csv) {
          process.stdout.write(revenueCsv(report, csvDialects[options.csv]));
          return;
        }
        output(options.json, revenueToWire(report), () =>
          table(
            [...report.rows.map((row) => ({ label: rowLabel(row), ...row })), ...report.totals.map((total) => ({ label: 'TOTAL', ...total }))].map((row) => ({
              [options.groupBy]: row.label,
              currency: row.currency,
              fees: major(row.feesMinor),
              volume: major(row.volumeMinor),
              transactions: String(row.count),
              'provider costs': row.costsComplete ? major(row.costsMinor) : `${major(row.costsMinor)} (incomplete)`,
              margin: major(row.marginMinor),
            })),
          ),
        );
      });
    });
}
