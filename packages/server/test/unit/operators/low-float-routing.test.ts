/** Floats and routing: a route low on float loses new payouts to another route; the threshold in the operators file; no network. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../../src/config.js';
import { loadDefaultCatalog } from '../../../src/core/catalog/operator-catalog.js';
import { LowFloats } from '../../../src/core/floats/low-floats.js';
import type { OperatorConnector, OperatorHealth } from '../../../src/core/operators/operator-connector.js';
import { OperatorRouting } from '../../../src/core/operators/operator-routing.js';
import { OperatorRegistry } from '../../../src/operators/operator-registry.js';
import { parseOperatorsConfig } from '../../../src/operators/operators-file.js';
import { FakeClock } from '../../support/fake-clock.js';

const catalog = loadDefaultCatalog();
const mtnBj = catalog.findOperator('BJ', 'mtn_bj')!;
const context = { catalog, publicUrl: 'https://akwe.example/', serverSecret: () => 'floats-test-secret', clock: new FakeClock(), env: {} };
const product = { subscription_key: 'sub', api_user: '7c2f53f2-1b1e-4f8f-9d1e-2b0c6e6f0a01', api_key: 'key' };
const mtn = { connector: 'mtn-momo', base_url: 'https://proxy.momoapi.mtn.com', target_environment: 'mtnbenin', collection: product, disbursement: product };

function fake(family: string, health: () => OperatorHealth = () => 'available'): OperatorConnector {
  const call = () => Promise.reject(new Error('not called in these tests'));
  return { family, health, push: { startCollection: call }, payouts: { sendPayout: call, queryPayout: call } } as unknown as OperatorConnector;
}

function routing(low: ReadonlySet<string>, health: () => OperatorHealth = () => 'available') {
  const routes = [
    { name: 'mtn-momo', label: 'mtn_bj/mtn-momo', connector: fake('mtn-momo', health) },
    { name: 'pawapay', label: 'mtn_bj/pawapay', connector: fake('pawapay') },
  ];
  return new OperatorRouting(new OperatorRegistry({ live: new Map([['MTN_BJ', routes]]) }), catalog, (label) => low.has(label));
}

describe('payout routing with floats', () => {
  it('sends new payouts to the next route that pays out when the first is low on float', () => {
    assert.equal(routing(new Set()).pick('live', mtnBj, 'payouts').route, 'mtn-momo');
    assert.equal(routing(new Set(['mtn_bj/mtn-momo'])).pick('live', mtnBj, 'payouts').route, 'pawapay');
  });

  it('keeps today’s choice when every route is low: the first that is up', () => {
    assert.equal(routing(new Set(['mtn_bj/mtn-momo', 'mtn_bj/pawapay'])).pick('live', mtnBj, 'payouts').route, 'mtn-momo');
  });

  it('never sends a payout to a low route’s fallback that is down, nor lets a float move collections', () => {
    assert.equal(routing(new Set(['mtn_bj/pawapay']), () => 'unavailable').pick('live', mtnBj, 'payouts').route, 'pawapay');
    assert.equal(routing(new Set(['mtn_bj/mtn-momo'])).pick('live', mtnBj, 'push').route, 'mtn-momo', 'a float pays payouts, not collections');
  });
});

describe('low_float_minor in the operators file', () => {
  it('gives the route its threshold in centimes', () => {
    const [route] = parseOperatorsConfig({ operators: { mtn_bj: { ...mtn, low_float_minor: 50_000_000 } } }, 'test', context);
    assert.equal(route!.lowFloatMinor, 50_000_000);
  });

  it('refuses a threshold that is not a whole number of centimes, or on a route that cannot read its balance', () => {
    const problemsOf = (data: unknown) => {
      try {
        parseOperatorsConfig(data, 'test', context);
      } catch (error) {
        assert.ok(error instanceof ConfigError);
        return error.problems.join('\n');
      }
      assert.fail('expected a ConfigError');
    };
    assert.match(problemsOf({ operators: { mtn_bj: { ...mtn, low_float_minor: -1 } } }), /operators\.mtn_bj\.low_float_minor must be a whole number of centimes/);
    assert.match(problemsOf({ operators: { mtn_bj: { ...mtn, low_float_minor: '5000' } } }), /low_float_minor must be a whole number/);
    const { disbursement: _disbursement, ...collectOnly } = mtn;
    assert.match(problemsOf({ operators: { mtn_bj: { ...collectOnly, low_float_minor: 100 } } }), /cannot read its balance/);
  });
});

describe('the low routes kept in memory', () => {
  it('loads from the database when stale, and learns a reading of its own process at once', async () => {
    let now = 0;
    let stored = ['mtn_bj/mtn-momo'];
    let loads = 0;
    const low = new LowFloats(
      async () => {
        loads += 1;
        return stored;
      },
      () => now,
      5_000,
    );
    assert.equal(low.isLow('mtn_bj/mtn-momo'), false, 'nothing known before the first load');
    await low.refresh();
    assert.equal(low.isLow('mtn_bj/mtn-momo'), true);
    low.note('mtn_bj/mtn-momo', false);
    assert.equal(low.isLow('mtn_bj/mtn-momo'), false, 'its own reading counts at once');
    stored = ['mtn_bj/pawapay'];
    now = 6_000;
    const before = loads;
    low.isLow('mtn_bj/pawapay');
    await low.refresh();
    assert.ok(loads > before, 'a stale view is read again');
    assert.equal(low.isLow('mtn_bj/pawapay'), true);
  });
});
