/**
 * Random input, on every database: a seeded stream of requests to the collect routes (both
 * contracts) and the event and webhook routes, valid and broken bodies, odd path and query values,
 * test and live keys; first one at a time, then over concurrent lanes. Whatever arrives, the answer
 * is never a 5xx other than the documented 503 `operator_unavailable` (live payments without a live
 * operator), every error has the shape of its contract, and afterwards the money adds up: no
 * payment refunded beyond its amount, refunds that match the payment's refunded total, and no
 * idempotency key left in progress. The seeds are fixed: the sequential stream repeats exactly,
 * so a failure names the request that caused it.
 *
 * route-property.test.ts covers the breadth (every route the app registers, inputs generated from
 * the route schemas); this stream covers depth: payments driven into their later states and
 * raced over concurrent lanes, then the money checked.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { errorShapeProblem } from '../support/error-shape.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const REQUESTS = 1_200;

/** A small seeded generator (LCG): the same seed gives the same requests. */
function randomSource(seed: number) {
  let state = seed;
  const next = () => {
    state = (state * 1_103_515_245 + 12_345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
  return {
    chance: (p: number) => next() < p,
    integer: (below: number) => Math.floor(next() * below),
    pick<T>(items: readonly T[]): T {
      return items[Math.floor(next() * items.length)]!;
    },
  };
}

type Random = ReturnType<typeof randomSource>;

const oddStrings = [
  '',
  ' ',
  'a'.repeat(300),
  'a'.repeat(3000),
  '\u0000',
  'x\u0000y',
  '💥',
  '\ud800',
  'FAIL',
  'PENDING',
  'CANCEL',
  '0197000001',
  '+22997000000',
  '97000000',
  '../x',
  '%00',
  'null',
  '1e400',
  '-1',
  '١٢٣',
  'mtn_bj',
  'orange_ci',
  'togocom_tg',
  'BJ',
  'CI',
  'XOF',
  'XAF',
  'EUR',
  'direct',
  'hosted',
  'https://shop.example/cb',
  'http://shop.example/cb',
  'javascript:alert(1)',
  '123456',
  '000000',
  '111111',
  '12',
  '<script>',
];

function oddValue(random: Random): unknown {
  return random.pick<() => unknown>([
    () => random.pick(oddStrings),
    () => random.integer(1_000_000),
    () => -random.integer(1_000_000),
    () => random.integer(100_000) / 7,
    () => 1e308,
    () => Number.MAX_SAFE_INTEGER + 2,
    () => random.pick([0, 99, 100, 59, 60, 86_400, 86_401]),
    () => null,
    () => random.chance(0.5),
    () => [],
    () => [random.pick(oddStrings)],
    () => ({}),
    () => ({ phone: random.pick(oddStrings) }),
  ])();
}

/** A plausible body, changed in a few places (or not at all) by odd values and removed fields. */
function bodyFrom(random: Random, valid: Record<string, unknown>, extraKeys: string[]): Record<string, unknown> {
  const body: Record<string, unknown> = { ...valid };
  const changes = random.chance(0.5) ? 0 : 1 + random.integer(3);
  for (let i = 0; i < changes; i++) {
    const key = random.pick([...Object.keys(body), ...extraKeys]);
    if (random.chance(0.2)) delete body[key];
    else body[key] = oddValue(random);
  }
  return body;
}

/** Country, an operator of it and a number of it, so that unchanged bodies create payments. */
const wallets = [
  { country: 'BJ', operator: 'mtn_bj', phone: '0197000000' },
  { country: 'BJ', operator: 'moov_bj', phone: '0197000001' },
  { country: 'BJ', operator: 'celtiis_bj', phone: '0197000002' },
  { country: 'TG', operator: 'tmoney_tg', phone: '90000000' },
  { country: 'CI', operator: 'orange_ci', phone: '0700000000' },
  { country: 'CI', operator: 'mtn_ci', phone: '0500000000' },
];

function paymentBody(random: Random): Record<string, unknown> {
  const wallet = random.pick(wallets);
  return bodyFrom(
    random,
    {
      reference: `R-${random.integer(1e9)}`,
      amount: random.pick([100, 3000, 250_000]),
      currency: 'XOF',
      country: wallet.country,
      mode: random.pick(['direct', 'direct', 'hosted']),
      operator: wallet.operator,
      customer: { phone: wallet.phone },
      description: 'random input',
    },
    ['expires_in_seconds', 'callback_url', 'extra', '__proto__', 'constructor'],
  );
}

function pathSegment(random: Random, known: string[]): string {
  // Half the time one of the newest payments, so concurrent lanes often act on the same one.
  const value = random.chance(0.8) ? random.pick(random.chance(0.5) ? known.slice(-4) : known) : random.pick(oddStrings);
  try {
    return random.chance(0.9) ? encodeURIComponent(value) : value;
  } catch {
    return 'x%ZZ'; // a lone surrogate cannot be percent-encoded: send a broken escape instead
  }
}

interface Sent {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  payload?: string;
  legacy: boolean;
}

function nextRequest(random: Random, keys: { test: string; live: string }, known: string[]): Sent {
  const headers: Record<string, string> = { authorization: `Bearer ${random.chance(0.8) ? keys.test : keys.live}` };
  // Mostly fresh keys, some from a small pool (replays and reuse), a few malformed.
  if (random.chance(0.9)) {
    headers['idempotency-key'] = random.chance(0.05) ? random.pick(['', ' ', 'a'.repeat(300)]) : random.chance(0.2) ? `pool-${random.integer(20)}` : `key-${random.integer(1e9)}`;
  }
  const json = (body: unknown) => {
    headers['content-type'] = random.chance(0.05) ? random.pick(['text/plain', 'application/json; charset=latin1', 'application/x-www-form-urlencoded']) : 'application/json';
    return random.chance(0.04) ? random.pick(['{', '[]', 'null', '"x"', '1', '{"amount":1e999}']) : JSON.stringify(body);
  };
  const ref = () => pathSegment(random, known);
  const route = random.integer(12);
  if (route < 4) return { method: 'POST', url: '/api/v1/collect/payments', headers, payload: json(paymentBody(random)), legacy: false };
  if (route < 5) return { method: 'GET', url: `/api/v1/collect/payments/${ref()}${random.pick(['', '?sync=true', '?sync=1', '?sync=yes', '?sync='])}`, headers, legacy: false };
  if (route < 8) {
    const action = random.pick(['confirm', 'cancel', 'pay', 'refunds', 'refunds', 'refunds']);
    const wallet = random.pick(wallets);
    const valid = {
      confirm: { otp: random.pick(['123456', '000000', '111111', '1234', '99999999']) },
      cancel: {},
      pay: { phone: wallet.phone, operator: wallet.operator },
      refunds: random.chance(0.3) ? {} : { amount: random.pick([1, 100, 1500, 3000]), reason: 'random input' },
    }[action]!;
    const body = bodyFrom(random, valid, ['amount', 'reason', 'extra']);
    return { method: 'POST', url: `/api/v1/collect/payments/${ref()}/${action}`, headers, payload: json(body), legacy: false };
  }
  if (route < 9) return { method: 'GET', url: `/api/v1/collect/payments/${ref()}/refunds`, headers, legacy: false };
  if (route < 10) {
    const confirm = random.chance(0.3);
    const body = confirm
      ? bodyFrom(random, { reference: random.pick(known), otp: '123456' }, ['extra'])
      : bodyFrom(random, { amount: random.pick([100, 300_000]), phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: `L-${random.integer(1e6)}` }, [
          'currency',
          'customer_first_name',
          'extra',
        ]);
    return { method: 'POST', url: confirm ? '/api/v1/collect/mobile-money/confirm/' : '/api/v1/collect/mobile-money/', headers, payload: json(body), legacy: true };
  }
  if (route < 11) return { method: 'GET', url: `/api/v1/collect/mobile-money/${ref()}/${random.pick(['', '?sync=true'])}`, headers, legacy: true };
  return {
    method: 'GET',
    url: random.pick([`/api/v1/events?type=${ref()}`, `/api/v1/events?limit=${ref()}`, `/api/v1/events/${ref()}`, `/api/v1/webhook-endpoints/${ref()}`, `/checkout/${ref()}`]),
    headers,
    legacy: false,
  };
}

interface StreamResult {
  failures: string[];
  created: number;
}

/** Sends `requests` seeded random requests over `lanes` concurrent lanes and checks every answer. */
async function sendRandomStream(t: TestApp, options: { seed: number; requests: number; lanes: number }): Promise<StreamResult> {
  const { testKey, liveKey } = await t.newMerchant();
  const random = randomSource(options.seed);
  const known = ['nope'];
  const result: StreamResult = { failures: [], created: 0 };
  let sentSoFar = 0;
  const lane = async () => {
    while (sentSoFar < options.requests) {
      const i = sentSoFar++;
      const sent = nextRequest(random, { test: testKey, live: liveKey }, known);
      const res = await t.app.inject(sent);
      const describeIt = () => `#${i} ${sent.method} ${sent.url.slice(0, 120)} ${sent.payload?.slice(0, 200) ?? ''} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
      const errorCode = (body: { error?: { code?: string }; code?: string }) => (sent.legacy ? body.code : body.error?.code);
      if (res.statusCode >= 500 && !(res.statusCode === 503 && errorCode(res.json()) === 'operator_unavailable')) result.failures.push(describeIt());
      if (res.statusCode === 201 && res.headers['idempotent-replayed'] !== 'true') {
        const payment = res.json();
        known.push(payment.reference, payment.id);
        result.created += 1;
      }
      if (res.statusCode >= 400 && res.headers['content-type']?.toString().startsWith('application/json')) {
        const problem = errorShapeProblem(res, sent.legacy ? 'legacy' : 'current');
        if (problem) result.failures.push(`error shape (${problem}): ${describeIt()}`);
      }
    }
  };
  await Promise.all(Array.from({ length: options.lanes }, lane));
  return result;
}

/** No payment refunded beyond its amount, refunds that match each refunded total, no key left in progress. */
async function assertMoneyAddsUp(t: TestApp): Promise<{ refunds: number }> {
  const db = t.db.database.db;
  const payments = await db.selectFrom('payments').select(['id', 'amount_minor', 'refunded_minor']).execute();
  const refunds = await db.selectFrom('refunds').select(['payment_id', 'amount_minor', 'status']).execute();
  for (const payment of payments) {
    assert.ok(payment.refunded_minor <= payment.amount_minor, `payment ${payment.id} refunded beyond its amount`);
    const refunded = refunds.filter((r) => r.payment_id === payment.id && r.status !== 'failed').reduce((sum, r) => sum + r.amount_minor, 0);
    assert.equal(refunded, payment.refunded_minor, `payment ${payment.id}: its refunds and its refunded total disagree`);
  }
  const inProgress = await db.selectFrom('idempotency_records').select('idempotency_key').where('state', '=', 'in_progress').execute();
  assert.deepEqual(inProgress, []);
  return { refunds: refunds.length };
}

for (const target of testDatabases()) {
  describe(`random input on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await buildTestApp(target);
    });
    after(() => t.close());

    it(`answers ${REQUESTS} seeded random requests, one at a time, without a server error, each error in its contract's shape, and the money adds up`, async () => {
      const { failures, created } = await sendRandomStream(t, { seed: 20_261_122, requests: REQUESTS, lanes: 1 });
      assert.deepEqual(failures, []);
      const { refunds } = await assertMoneyAddsUp(t);
      // The generator must keep reaching the deeper states, or this test proves little.
      assert.ok(created >= 60, `only ${created} payments were created`);
      assert.ok(refunds >= 5, `only ${refunds} refunds were made`);
    });

    it(`answers ${REQUESTS} more over 12 concurrent lanes (racing refunds, cancels and confirms) the same way`, async () => {
      const { failures } = await sendRandomStream(t, { seed: 20_261_123, requests: REQUESTS, lanes: 12 });
      assert.deepEqual(failures, []);
      await assertMoneyAddsUp(t);
    });
  });
}
