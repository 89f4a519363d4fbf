import { Type } from 'typebox';
import { environments } from '../../core/shared/environment.js';
import { revenueFlows } from '../../core/revenue/revenue-ledger.js';
import { revenueGroupings } from '../../core/revenue/revenue-query.js';
import type { RevenueAmounts, RevenueReport, RevenueRow } from '../../core/revenue/revenue-report.js';
import { csvDialects } from '../../core/exports/csv-cells.js';
import { revenueCsv } from '../../core/revenue/revenue-csv.js';
import { csvDelimiter } from '../exports/export-schemas.js';
import { inCentimes } from '../shared/money-descriptions.js';

const day = (description: string) => Type.String({ minLength: 1, maxLength: 64, description: `${description} A calendar day, \`2026-11-01\` (UTC).`, examples: ['2026-11-01'] });

const reportQuery = {
  from: day('The first day of the report (inclusive).'),
  to: day('The day after the last one (exclusive), later than `from`; at most 366 days after it.'),
  group_by: Type.Optional(
    Type.Enum(revenueGroupings, {
      description:
        'One row per `day` (the default), `operator`, `route` (per operator, route and flow: the providers’ costs are per route and flow) or `merchant`, and per currency.',
    }),
  ),
  environment: Type.Optional(Type.Enum(environments, { description: '`live` (the default) or `test`: the test environment is never mixed in.' })),
};

/** The report's query: any other parameter is refused (400). */
export const RevenueQuerystring = Type.Object(reportQuery, { additionalProperties: false });
export const RevenueCsvQuerystring = Type.Object({ ...reportQuery, ...csvDelimiter }, { additionalProperties: false });

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
const Minor = (description: string) => Type.Integer({ description: inCentimes(description) });

const amounts = {
  currency: Type.String(),
  fees_minor: Minor('The movement of the fees accounts: fees earned less fees given back.'),
  volume_minor: Minor('What the operators moved for these transactions (less what they moved for those giving fees back).'),
  transactions: Type.Integer({ description: 'Ledger transactions counted (those giving fees back count −1).' }),
  provider_costs_minor: Minor('What the providers charge for that volume, where PROVIDER_COSTS_FILE gives their route and flow a cost.'),
  margin_minor: Minor('fees_minor − provider_costs_minor.'),
  costs_complete: Type.Boolean({ description: 'False when some of it went through a route whose cost for that flow is not configured (its cost counts as 0).' }),
};

const totalExample = {
  currency: 'XOF',
  fees_minor: 1_275_000,
  volume_minor: 85_000_000,
  transactions: 214,
  provider_costs_minor: 680_000,
  margin_minor: 595_000,
  costs_complete: true,
};
const rowExample = { day: '2026-11-02', ...totalExample };

export const RevenueRowObject = Type.Object(
  {
    day: Type.Optional(Type.String({ description: 'Grouping by day: the UTC day.' })),
    operator: Type.Optional(
      Nullable(Type.String({ description: 'Grouping by operator or route: the catalog slug; null where none carried the money (bank settlements, transfers).' })),
    ),
    route: Type.Optional(Nullable(Type.String({ description: 'Grouping by route: the route’s name; null when none was recorded.' }))),
    flow: Type.Optional(Type.Enum(revenueFlows, { description: 'Grouping by route: what the fees were for.' })),
    merchant_id: Type.Optional(Type.String()),
    merchant_name: Type.Optional(Type.String()),
    ...amounts,
  },
  { title: 'AdminRevenueRow' },
);

export const RevenueReportObject = Type.Object(
  {
    object: Type.Literal('revenue_report'),
    from: Type.String(),
    to: Type.String(),
    group_by: Type.Enum(revenueGroupings),
    environment: Type.Enum(environments),
    rows: Type.Array(RevenueRowObject),
    totals: Type.Array(Type.Object(amounts, { title: 'AdminRevenueTotal', description: 'One per currency: the fees accounts’ movement over the period.' })),
  },
  {
    title: 'AdminRevenueReport',
    examples: [
      {
        object: 'revenue_report',
        from: '2026-11-02',
        to: '2026-11-03',
        group_by: 'day',
        environment: 'live',
        rows: [rowExample],
        totals: [totalExample],
      },
    ],
  },
);

function amountsToWire(amounts: RevenueAmounts) {
  return {
    currency: amounts.currency,
    fees_minor: amounts.feesMinor,
    volume_minor: amounts.volumeMinor,
    transactions: amounts.count,
    provider_costs_minor: amounts.costsMinor,
    margin_minor: amounts.marginMinor,
    costs_complete: amounts.costsComplete,
  };
}

function rowToWire(row: RevenueRow) {
  return {
    ...(row.day !== undefined ? { day: row.day } : {}),
    ...(row.operator !== undefined ? { operator: row.operator } : {}),
    ...(row.route !== undefined ? { route: row.route } : {}),
    ...(row.flow !== undefined ? { flow: row.flow } : {}),
    ...(row.merchantId !== undefined ? { merchant_id: row.merchantId, merchant_name: row.merchantName ?? '' } : {}),
    ...amountsToWire(row),
  };
}

export function revenueToWire(report: RevenueReport) {
  const { fromDay, toDay, groupBy, environment } = report.query;
  return {
    object: 'revenue_report' as const,
    from: fromDay,
    to: toDay,
    group_by: groupBy,
    environment,
    rows: report.rows.map(rowToWire),
    totals: report.totals.map(amountsToWire),
  };
}

/** The OpenAPI document's example file: the JSON example's report by day, written by the report's own CSV. */
export const revenueCsvExample = revenueCsv(
  {
    query: { period: { from: '2026-11-02T00:00:00.000Z', to: '2026-11-03T00:00:00.000Z' }, fromDay: '2026-11-02', toDay: '2026-11-03', groupBy: 'day', environment: 'live' },
    rows: [{ day: '2026-11-02', currency: 'XOF', feesMinor: 1_275_000, volumeMinor: 85_000_000, count: 214, costsMinor: 680_000, marginMinor: 595_000, costsComplete: true }],
    totals: [],
  },
  csvDialects.comma,
);
