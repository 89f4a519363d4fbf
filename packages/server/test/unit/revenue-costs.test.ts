/** The providers' costs of the revenue report: PROVIDER_COSTS_FILE's checks and the cost of a cell, exact in centimes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError } from '../../src/config.js';
import { costFor, providerCostMinor } from '../../src/core/revenue/provider-costs.js';
import { revenueQuery } from '../../src/core/revenue/revenue-query.js';
import { parseProviderCosts } from '../../src/operators/provider-costs-file.js';

describe('PROVIDER_COSTS_FILE', () => {
  it('reads costs per route and flow, a missing part counting as 0', () => {
    const costs = parseProviderCosts({ costs: { 'mtn_bj/mtn-momo': { collect: { percent_bps: 80 }, payout: { fixed_minor: 5000 } } } }, 'test');
    assert.deepEqual(costs.get('mtn_bj/mtn-momo'), { collect: { percentBps: 80, fixedMinor: 0 }, payout: { percentBps: 0, fixedMinor: 5000 } });
  });

  it('lists every problem at once', () => {
    assert.throws(
      () =>
        parseProviderCosts(
          { costs: { mtn: { collect: { percent_bps: 1 } }, 'mtn_bj/a': { transfer: {}, payout: { percent_bps: 10_001 }, collect: { percent_bps: 1.5 }, refund: { fixed: 1 } } } },
          'test',
        ),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.problems.length, 5, error.problems.join('\n'));
        return true;
      },
    );
    assert.throws(() => parseProviderCosts({ routes: {} }, 'test'), ConfigError);
  });
});

describe('a cell’s provider cost', () => {
  const cost = { percentBps: 75, fixedMinor: 2_500 };

  it('rounds the percentage up to the centime and adds the fixed part per transaction', () => {
    assert.equal(providerCostMinor(cost, { volumeMinor: 100_001, count: 2 }), 751 + 5_000);
    assert.equal(providerCostMinor(undefined, { volumeMinor: 100_001, count: 2 }), 0);
  });

  it('gives the cost back for what gives fees back, and stays exact past 2^53 / 10 000', () => {
    assert.equal(providerCostMinor(cost, { volumeMinor: -100_001, count: -1 }), -751 - 2_500);
    assert.equal(providerCostMinor({ percentBps: 10_000, fixedMinor: 0 }, { volumeMinor: 9_007_199_254_740_991, count: 1 }), 9_007_199_254_740_991);
  });

  it('maps a settlement to the route’s payout cost, and costs nothing without a route', () => {
    const costs = new Map([['mtn_bj/sandbox', { payout: cost }]]);
    assert.equal(costFor(costs, { operator: 'mtn_bj', route: 'sandbox', flow: 'settlement' }), cost);
    assert.equal(costFor(costs, { operator: 'mtn_bj', route: 'sandbox', flow: 'collection' }), undefined);
    assert.equal(costFor(costs, { operator: 'mtn_bj', route: null, flow: 'payout' }), undefined);
  });
});

describe('the revenue query', () => {
  it('takes whole UTC days, to exclusive, live and by day unless asked', () => {
    assert.deepEqual(revenueQuery({ from: '2026-11-01', to: '2026-12-01' }), {
      period: { from: '2026-11-01T00:00:00.000Z', to: '2026-12-01T00:00:00.000Z' },
      fromDay: '2026-11-01',
      toDay: '2026-12-01',
      groupBy: 'day',
      environment: 'live',
    });
    assert.equal(revenueQuery({ from: '2025-12-01', to: '2026-12-02' }).toDay, '2026-12-02', '366 days');
  });

  it('refuses what is no calendar day, an empty or reversed period and more than 366 days', () => {
    for (const [from, to, field] of [
      ['2026-02-29', '2026-03-01', 'from'],
      ['2026-11-01', '2026-11-01T10:00:00Z', 'to'],
      ['2026-11-02', '2026-11-01', 'to'],
      ['2025-11-30', '2026-12-02', 'to'],
    ] as const) {
      assert.throws(() => revenueQuery({ from, to }), { code: 'validation_error', field }, `${from}..${to}`);
    }
  });
});
