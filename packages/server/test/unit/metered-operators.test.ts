/** Operator calls through the meter: counted by outcome and timed, the connector's own answer or error unchanged. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BrokenCircuitError } from 'cockatiel';
import { AkweError } from '../../src/core/errors/index.js';
import type { OperatorConnector } from '../../src/core/operators/operator-connector.js';
import { AkweMetrics } from '../../src/metrics/akwe-metrics.js';
import { MeteredOperators } from '../../src/metrics/metered-operators.js';
import { OperatorRegistry } from '../../src/operators/operator-registry.js';
import { OperatorUnreachable } from '../../src/operators/operator-http.js';
import { parseSamples, sampleValue } from '../support/prometheus-text.js';

describe('metered operator calls', () => {
  it('counts each outcome under the connector, operator and operation, and passes answers and errors through', async () => {
    const failures: unknown[] = [new OperatorUnreachable('Fake', 'timeout'), new AkweError('operator_unavailable'), new BrokenCircuitError(), new Error('bug')];
    const connector: OperatorConnector = {
      family: 'fake',
      health: () => 'degraded',
      payouts: {
        sendPayout: async () => ({ path: ['PROCESSING'] }) as never,
        queryPayout: async () => {
          throw failures.shift();
        },
      },
    };
    const metrics = new AkweMetrics();
    const operators = new MeteredOperators(new OperatorRegistry({ live: new Map([['FAKE_BJ', connector]]) }), metrics);
    const metered = operators.connectorFor('live', 'FAKE_BJ')!;
    assert.equal(operators.connectorFor('live', 'FAKE_BJ'), metered, 'one wrapper per connector and operator');
    assert.equal(metered.family, 'fake');
    assert.equal(metered.health?.(), 'degraded');
    assert.deepEqual(await metered.payouts!.sendPayout({} as never, {} as never), { path: ['PROCESSING'] });
    for (let i = 0; i < 4; i++) await assert.rejects(metered.payouts!.queryPayout({} as never));

    const samples = parseSamples(await metrics.registry.metrics());
    const calls = (operation: string, outcome: string) => sampleValue(samples, 'akwe_operator_calls_total', { connector: 'fake', operator: 'FAKE_BJ', operation, outcome });
    assert.equal(calls('sendPayout', 'answered'), 1);
    for (const outcome of ['unreachable', 'refused', 'circuit_open', 'error']) assert.equal(calls('queryPayout', outcome), 1, outcome);
    assert.equal(sampleValue(samples, 'akwe_operator_call_duration_seconds_count', { connector: 'fake', operator: 'FAKE_BJ', operation: 'queryPayout' }), 4);
  });
});
