import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { AkweError } from '../../../src/core/errors/index.js';
import type { OperatorAnswer, OperatorConnector } from '../../../src/core/operators/operator-connector.js';
import type { Payment } from '../../../src/core/payments/payment.js';
import type { CatalogOperator } from '../../../src/core/catalog/operator-catalog.js';
import { BreakerConnector, type StateChange } from '../../../src/operators/circuit-breaker.js';

/** A connector whose answers the test scripts: 'ok', 'fail' (no answer) or 'refuse' (our own refusal). */
function scripted() {
  const script: Array<'ok' | 'fail' | 'refuse'> = [];
  let calls = 0;
  const answer: OperatorAnswer = { path: ['processing'] };
  const connector: OperatorConnector = {
    family: 'scripted',
    push: {
      startCollection: async () => {
        calls += 1;
        const next = script.shift() ?? 'ok';
        if (next === 'fail') throw new Error('operator timed out');
        if (next === 'refuse') throw new AkweError('invalid_operator');
        return answer;
      },
    },
  };
  return { connector, script, calls: () => calls };
}

const payment = {} as Payment;
const operator = {} as CatalogOperator;

describe('BreakerConnector', () => {
  it('goes degraded on a failure, unavailable after the threshold, fails fast while open, and recovers through one probe', async () => {
    const inner = scripted();
    const changes: StateChange[] = [];
    const breaker = new BreakerConnector(inner.connector, { failures: 3, halfOpenAfterMs: 100 }, (change) => changes.push(change));
    assert.equal(breaker.health(), 'available');
    inner.script.push('fail', 'fail', 'fail');
    await assert.rejects(breaker.push!.startCollection(payment, operator), /timed out/);
    assert.equal(breaker.health(), 'degraded');
    await assert.rejects(breaker.push!.startCollection(payment, operator));
    await assert.rejects(breaker.push!.startCollection(payment, operator));
    assert.equal(breaker.health(), 'unavailable');
    const before = inner.calls();
    await assert.rejects(breaker.push!.startCollection(payment, operator));
    assert.equal(inner.calls(), before, 'open: the operator is not called at all');
    await sleep(150);
    assert.deepEqual(await breaker.push!.startCollection(payment, operator), { path: ['processing'] });
    assert.equal(breaker.health(), 'available');
    assert.deepEqual(
      changes.map((c) => c.health),
      ['unavailable', 'degraded', 'available'],
    );
  });

  it('does not count our own refusals, and an answer resets the count', async () => {
    const inner = scripted();
    const breaker = new BreakerConnector(inner.connector, { failures: 2, halfOpenAfterMs: 60_000 });
    inner.script.push('fail', 'refuse', 'refuse', 'ok', 'fail');
    await assert.rejects(breaker.push!.startCollection(payment, operator));
    await assert.rejects(breaker.push!.startCollection(payment, operator), AkweError);
    await assert.rejects(breaker.push!.startCollection(payment, operator), AkweError);
    assert.equal(breaker.health(), 'degraded');
    await breaker.push!.startCollection(payment, operator);
    assert.equal(breaker.health(), 'available');
    await assert.rejects(breaker.push!.startCollection(payment, operator));
    assert.equal(breaker.health(), 'degraded', 'one failure after an answer does not open it');
  });

  it('offers exactly the flows of the connector it wraps', () => {
    const breaker = new BreakerConnector(scripted().connector);
    assert.ok(breaker.push);
    assert.equal(breaker.payouts, undefined);
    assert.equal(breaker.refunds, undefined);
    assert.equal(breaker.family, 'scripted');
  });
});
