import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chooseDeliveries, InFlightCounts, saturation, type DeliveryBudgets, type DeliverySlot } from '../../src/core/webhooks/delivery-budgets.js';
import { StreamThrottle } from '../../src/webhooks/stream-throttle.js';

const budgets: DeliveryBudgets = { perStream: 2, perMerchant: 3, perHost: 4 };
const none = () => Number.POSITIVE_INFINITY;
let counter = 0;
const slot = (overrides: Partial<DeliverySlot> = {}): DeliverySlot => ({
  id: `d${++counter}`,
  stream: 's1',
  merchantId: 'm1',
  host: 'h1',
  subject: null,
  streamLimit: null,
  ...overrides,
});

describe('delivery budgets', () => {
  it('fills a stream up to its bound, counting what is already in flight', () => {
    const inFlight = [slot()];
    const picked = chooseDeliveries([slot(), slot(), slot()], new InFlightCounts(inFlight), 10, budgets, none);
    assert.equal(picked.length, 1);
  });

  it('lets an endpoint’s own bound replace the default', () => {
    const picked = chooseDeliveries(
      [1, 2, 3, 4].map(() => slot({ stream: 'wide', streamLimit: 3, merchantId: `m${counter}`, host: `h${counter}` })),
      new InFlightCounts([]),
      10,
      budgets,
      none,
    );
    assert.equal(picked.length, 3);
  });

  it('bounds a merchant across its streams, and a host across merchants', () => {
    const merchant = chooseDeliveries(
      ['a', 'b', 'c', 'd'].map((stream) => slot({ stream, host: stream })),
      new InFlightCounts([]),
      10,
      budgets,
      none,
    );
    assert.equal(merchant.length, 3);
    const host = chooseDeliveries(
      ['a', 'b', 'c', 'd', 'e'].map((stream) => slot({ stream, merchantId: stream })),
      new InFlightCounts([]),
      10,
      budgets,
      none,
    );
    assert.equal(host.length, 4);
  });

  it('sends one delivery per subject and stream at a time, oldest first', () => {
    const first = slot({ subject: 'ORDER-1' });
    const second = slot({ subject: 'ORDER-1' });
    const other = slot({ subject: 'ORDER-2' });
    assert.deepEqual(chooseDeliveries([first, second, other], new InFlightCounts([]), 10, budgets, none), [first.id, other.id]);
    assert.deepEqual(chooseDeliveries([second], new InFlightCounts([first]), 10, budgets, none), []);
  });

  it('applies a back-off cap and reports saturated streams, merchants and hosts', () => {
    assert.equal(chooseDeliveries([slot(), slot()], new InFlightCounts([]), 10, budgets, () => 1).length, 1);
    const inFlight = [slot({ stream: 'x' }), slot({ stream: 'x' }), slot({ stream: 'y' })];
    const full = saturation(new InFlightCounts(inFlight), inFlight, budgets, none);
    assert.deepEqual([...full.streams], ['x']);
    assert.deepEqual([...full.merchants], ['m1']);
    assert.deepEqual([...full.hosts], []);
  });
});

describe('stream throttle', () => {
  const answer = (statusCode: number, durationMs = 10, retryAfterSeconds?: number) => ({
    outcome: 'answered' as const,
    statusCode,
    durationMs,
    ...(retryAfterSeconds ? { retryAfterSeconds } : {}),
  });

  it('halves a stream that answers 429, 503, slowly or not at all, and gives one back per quick success', () => {
    const throttle = new StreamThrottle(50);
    assert.equal(throttle.cap('s'), Number.POSITIVE_INFINITY);
    throttle.observe('s', answer(503), 8, 0);
    assert.equal(throttle.cap('s'), 4);
    throttle.observe('s', answer(200, 6_000), 4, 0);
    assert.equal(throttle.cap('s'), 2);
    throttle.observe('s', { outcome: 'failed', durationMs: 30_000, error: 'timeout' }, 2, 0);
    assert.equal(throttle.cap('s'), 1);
    throttle.observe('s', answer(429), 1, 0);
    assert.equal(throttle.cap('s'), 1, 'never below one');
    throttle.observe('s', answer(200), 1, 0);
    assert.equal(throttle.cap('s'), 2);
    assert.equal(throttle.cap('other'), Number.POSITIVE_INFINITY, 'streams are independent');
  });

  it('pauses a stream for its Retry-After, at most a minute', () => {
    const throttle = new StreamThrottle(50);
    throttle.observe('s', answer(429, 10, 30), 1, 1_000);
    throttle.observe('t', answer(503, 10, 3_600), 1, 1_000);
    assert.deepEqual(throttle.paused(30_999).sort(), ['s', 't']);
    assert.deepEqual(throttle.paused(31_000), ['t']);
    assert.deepEqual(throttle.paused(61_000), []);
  });
});
