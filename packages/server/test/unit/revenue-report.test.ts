/** The revenue report's rows and totals from cells (no database), and its CSV file. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { csvDialects } from '../../src/core/exports/csv-cells.js';
import { revenueCsv, revenueFileName } from '../../src/core/revenue/revenue-csv.js';
import type { RevenueCell } from '../../src/core/revenue/revenue-ledger.js';
import { revenueQuery, type RevenueGrouping } from '../../src/core/revenue/revenue-query.js';
import { RevenueReports } from '../../src/core/revenue/revenue-report.js';
import { FakeClock } from '../support/fake-clock.js';

const cell = (fields: Partial<RevenueCell>): RevenueCell => ({
  day: '2026-11-01',
  merchantId: 'm1',
  merchantName: 'Boutique Adjoa',
  currency: 'XOF',
  flow: 'collection',
  operator: 'mtn_bj',
  route: 'mtn-momo',
  feesMinor: 0,
  volumeMinor: 0,
  count: 1,
  ...fields,
});

const cells: RevenueCell[] = [
  cell({ feesMinor: 4_500, volumeMinor: 300_000 }),
  cell({ day: '2026-11-02', merchantId: 'm2', merchantName: '@SUM(A1)', feesMinor: 6_000, volumeMinor: 100_000, flow: 'payout', route: 'momo-2' }),
  cell({ day: '2026-11-02', feesMinor: -4_500, volumeMinor: -300_000, count: -1 }),
  cell({ day: '2026-11-02', currency: 'XAF', operator: 'mtn_cm', route: 'mtn-momo', feesMinor: 1_500, volumeMinor: 100_000 }),
  cell({ day: '2026-11-03', operator: null, route: null, flow: 'settlement', feesMinor: 0, volumeMinor: 500_000 }),
];
const costs = new Map([
  ['mtn_bj/mtn-momo', { collect: { percentBps: 100, fixedMinor: 10 } }],
  ['mtn_bj/momo-2', { payout: { percentBps: 0, fixedMinor: 2_500 } }],
]);
const reports = new RevenueReports({ cells: async () => cells }, costs, { store: { insertAudit: async () => {} }, clock: new FakeClock(), newId: () => 'id' });
const reportBy = (groupBy: RevenueGrouping) => reports.report(revenueQuery({ from: '2026-11-01', to: '2026-12-01', groupBy }));

describe('the revenue report', () => {
  it('totals per currency, the same in every grouping, fees given back netted out', async () => {
    // XOF costs: 3 010 on day 1's collection, given back on day 2 (−3 010), and the payout's fixed 2 500.
    const expected = [
      { currency: 'XAF', feesMinor: 1_500, volumeMinor: 100_000, count: 1, costsMinor: 0, marginMinor: 1_500, costsComplete: false },
      { currency: 'XOF', feesMinor: 6_000, volumeMinor: 600_000, count: 2, costsMinor: 2_500, marginMinor: 3_500, costsComplete: true },
    ];
    for (const groupBy of ['day', 'operator', 'route', 'merchant'] as const) assert.deepEqual((await reportBy(groupBy)).totals, expected, groupBy);
  });

  it('groups by day in day order, by operator largest fees first, by route per flow', async () => {
    assert.deepEqual(
      (await reportBy('day')).rows.map((row) => [row.day, row.currency, row.feesMinor]),
      [
        ['2026-11-01', 'XOF', 4_500],
        ['2026-11-02', 'XAF', 1_500],
        ['2026-11-02', 'XOF', 1_500],
        ['2026-11-03', 'XOF', 0],
      ],
    );
    assert.deepEqual(
      (await reportBy('operator')).rows.map((row) => [row.operator, row.currency, row.feesMinor]),
      [
        ['mtn_bj', 'XOF', 6_000],
        ['mtn_cm', 'XAF', 1_500],
        [null, 'XOF', 0],
      ],
    );
    const routes = (await reportBy('route')).rows;
    assert.deepEqual(
      routes.map((row) => [row.operator, row.route, row.flow, row.costsMinor, row.marginMinor]),
      [
        ['mtn_bj', 'momo-2', 'payout', 2_500, 3_500],
        ['mtn_cm', 'mtn-momo', 'collection', 0, 1_500],
        ['mtn_bj', 'mtn-momo', 'collection', 0, 0],
        [null, null, 'settlement', 0, 0],
      ],
    );
    assert.equal(routes.find((row) => row.operator === 'mtn_cm')?.costsComplete, false, 'no cost configured for that route');
    assert.equal(routes.find((row) => row.operator === null)?.costsComplete, true, 'no route: nothing to configure');
  });

  it('writes the CSV with the grouping’s columns, formula-safe names and exact centimes', async () => {
    const report = await reportBy('merchant');
    assert.equal(revenueFileName(report), 'akwe-revenue-live-merchant-2026-11-01-2026-12-01.csv');
    assert.equal(
      revenueCsv(report, csvDialects.comma),
      'merchant_id,merchant_name,currency,fees_minor,volume_minor,transactions,provider_costs_minor,margin_minor,costs_complete\r\n' +
        "m2,'@SUM(A1),XOF,6000,100000,1,2500,3500,yes\r\n" +
        'm1,Boutique Adjoa,XAF,1500,100000,1,0,1500,no\r\n' +
        'm1,Boutique Adjoa,XOF,0,500000,1,0,0,yes\r\n',
    );
    assert.ok(revenueCsv(report, csvDialects.semicolon).startsWith('\ufeffmerchant_id;merchant_name;'));
  });
});
