/** Routes in the operators file, the routing of new and held requests, and the mocks' operators file: no network. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '../../../src/config.js';
import { loadDefaultCatalog } from '../../../src/core/catalog/operator-catalog.js';
import { AkweError } from '../../../src/core/errors/index.js';
import type { OperatorConnector, OperatorHealth } from '../../../src/core/operators/operator-connector.js';
import { OperatorRouting } from '../../../src/core/operators/operator-routing.js';
import type { MockFamily } from '../../../src/operators/mocks/mock-family.js';
import { composeOperatorsFile } from '../../../src/operators/mocks/operator-mocks.js';
import { OperatorRegistry } from '../../../src/operators/operator-registry.js';
import { parseOperatorsConfig } from '../../../src/operators/operators-file.js';
import { FakeClock } from '../../support/fake-clock.js';

const catalog = loadDefaultCatalog();
const context = { catalog, publicUrl: 'https://akwe.example/', serverSecret: () => 'routes-test-secret', clock: new FakeClock(), env: {} };
const product = { subscription_key: 'sub', api_user: '7c2f53f2-1b1e-4f8f-9d1e-2b0c6e6f0a01', api_key: 'key' };
const mtn = { connector: 'mtn-momo', base_url: 'https://proxy.momoapi.mtn.com', target_environment: 'mtnbenin', collection: product, disbursement: product };
const orange = { connector: 'orange-money', base_url: 'https://api.orange.com', authorization_header: 'Basic eA==', merchant_key: 'mk' };

function problemsOf(data: unknown): string[] {
  try {
    parseOperatorsConfig(data, 'test', context);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.problems;
  }
  assert.fail('expected a ConfigError');
}

/** A connector with the given flows and health, counting its calls. */
function fake(family: string, flows: Array<'push' | 'hosted' | 'payouts' | 'refunds' | 'status'>, health: () => OperatorHealth = () => 'available'): OperatorConnector {
  const call = () => Promise.reject(new Error('not called in these tests'));
  const parts: Record<string, unknown> = {
    push: { startCollection: call },
    hosted: { payCheckout: call },
    payouts: { sendPayout: call, queryPayout: call },
    refunds: { refund: call, queryRefund: call },
    status: { queryStatus: call },
  };
  return { family, health, ...Object.fromEntries(flows.map((flow) => [flow, parts[flow]])) } as OperatorConnector;
}

describe('routes in the operators file', () => {
  it('keeps one object as the only route, and reads a list as routes in order, named and restricted', () => {
    const configured = parseOperatorsConfig(
      { operators: { mtn_bj: [mtn, { ...mtn, route: 'mtn-backup', flows: ['payout'] }], mtn_ci: { ...mtn, target_environment: 'mtnivorycoast' } } },
      'test',
      context,
    );
    assert.deepEqual(
      configured.map((r) => [r.slug, r.route, r.label, r.flows]),
      [
        ['mtn_bj', 'mtn-momo', 'mtn_bj/mtn-momo', undefined],
        ['mtn_bj', 'mtn-backup', 'mtn_bj/mtn-backup', ['payout']],
        ['mtn_ci', 'mtn-momo', 'mtn_ci/mtn-momo', undefined],
      ],
    );
  });

  it('reports routes named twice, unknown flows, empty lists and bad names, each by its place', () => {
    const problems = problemsOf({
      operators: { mtn_bj: [mtn, mtn], mtn_ci: [{ ...mtn, target_environment: 'mtnivorycoast', flows: ['refund'], route: 'Bad Name' }], wave_ci: [] },
    });
    assert.ok(
      problems.some((p) => p.includes('operators.mtn_bj[1]') && p.includes('used twice')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.includes('operators.mtn_ci[0].flows')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.includes('operators.mtn_ci[0].route')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.includes('operators.wave_ci is an empty list')),
      problems.join('\n'),
    );
  });

  it('builds an Orange Money route for orange_ci only', () => {
    assert.equal(parseOperatorsConfig({ operators: { orange_ci: orange } }, 'test', context)[0]?.family, 'orange-money');
    assert.ok(problemsOf({ operators: { mtn_bj: orange } }).some((p) => p.includes('cannot serve')));
  });
});

describe('routing', () => {
  const mtnBj = catalog.findOperator('BJ', 'mtn_bj')!;
  const routed = (routes: Array<{ name: string; connector: OperatorConnector; flows?: Array<'collect' | 'payout'> }>) =>
    new OperatorRouting(new OperatorRegistry({ live: new Map([['MTN_BJ', routes.map((r) => ({ ...r, label: `mtn_bj/${r.name}` }))]]) }), catalog);

  it('sends a new request to the first route up that offers the flow and is not restricted from it', () => {
    let firstHealth: OperatorHealth = 'available';
    const routing = routed([
      { name: 'direct', connector: fake('mtn-momo', ['push', 'status'], () => firstHealth) },
      { name: 'aggregator', connector: fake('agg', ['push', 'status', 'payouts']), flows: ['collect', 'payout'] },
      { name: 'payouts-only', connector: fake('agg2', ['push', 'payouts']), flows: ['payout'] },
    ]);
    assert.equal(routing.pick('live', mtnBj, 'push').route, 'direct');
    assert.equal(routing.pick('live', mtnBj, 'payouts').route, 'aggregator', 'the direct route does not pay out');
    firstHealth = 'degraded';
    assert.equal(routing.pick('live', mtnBj, 'push').route, 'direct', 'a degraded route still takes traffic');
    firstHealth = 'unavailable';
    assert.equal(routing.pick('live', mtnBj, 'push').route, 'aggregator');
  });

  it('keeps a held request on its route, whatever the others; an unrecorded route is the first', () => {
    const first = fake('mtn-momo', ['push', 'status'], () => 'unavailable');
    const second = fake('agg', ['push', 'status']);
    const routing = routed([
      { name: 'direct', connector: first },
      { name: 'aggregator', connector: second },
    ]);
    const held = { environment: 'live' as const, country: 'BJ', operator: 'mtn_bj' };
    assert.equal(routing.optionalFlow({ ...held, route: 'direct' }, 'status'), first.status);
    assert.equal(routing.optionalFlow({ ...held, route: null }, 'status'), first.status, 'rows made before routes: the first route');
    assert.equal(routing.optionalFlow({ ...held, route: 'aggregator' }, 'status'), second.status);
    assert.throws(
      () => routing.flowFor({ ...held, route: 'direct' }, 'status'),
      (e: unknown) => e instanceof AkweError && e.code === 'operator_unavailable',
      'never moved to another route',
    );
    assert.equal(routing.isConfigured({ ...held, route: 'removed' }), false);
  });

  it('refuses with the catalog’s errors when no route offers the flow, or every one is down', () => {
    const down = routed([{ name: 'direct', connector: fake('mtn-momo', ['push'], () => 'unavailable') }]);
    assert.throws(
      () => down.pick('live', mtnBj, 'push'),
      (e: unknown) => e instanceof AkweError && e.code === 'operator_unavailable',
    );
    assert.throws(
      () => down.pick('live', mtnBj, 'payouts'),
      (e: unknown) => e instanceof AkweError && e.code === 'invalid_operator',
    );
    assert.throws(
      () => down.flowFor({ environment: 'live', country: 'BJ', operator: 'mtn_bj' }, 'refunds'),
      (e: unknown) => e instanceof AkweError && e.code === 'refund_not_supported',
    );
    const none = new OperatorRouting(new OperatorRegistry(), catalog);
    assert.throws(
      () => none.pick('live', mtnBj, 'push'),
      (e: unknown) => e instanceof AkweError && e.code === 'operator_unavailable',
    );
  });
});

describe('the mocks’ operators file', () => {
  const family = (name: string, kind: 'direct' | 'aggregator', slugs: string[]): MockFamily => ({ name, kind, slugs, mount: () => Promise.reject(new Error('unused')) });
  const entries = (name: string, slugs: string[]) => Object.fromEntries(slugs.map((slug) => [slug, { connector: name }]));

  it('puts the direct route first and the aggregators after, whatever the families’ order; one route stays an object', () => {
    const aggregator = family('agg', 'aggregator', ['mtn_bj', 'moov_bj']);
    const direct = family('mtn-momo', 'direct', ['mtn_bj']);
    const composed = composeOperatorsFile([
      { family: aggregator, entries: entries('agg', ['mtn_bj', 'moov_bj']) },
      { family: direct, entries: entries('mtn-momo', ['mtn_bj']) },
    ]);
    assert.deepEqual(composed, { mtn_bj: [{ connector: 'mtn-momo' }, { connector: 'agg' }], moov_bj: { connector: 'agg' } });
  });
});
