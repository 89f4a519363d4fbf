/** Collect, earlier contract (paths ending with a slash, centimes, uppercase statuses), over HTTP on every database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { collectClient } from '../support/collect-client.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const body = (overrides: Record<string, unknown> = {}) => ({
  amount: 300_000,
  phone: '0197000000',
  country: 'BJ',
  operator: 'mtn_bj',
  reference: `LEG-${newId()}`,
  ...overrides,
});

const legacyFields = [
  'id',
  'reference',
  'status',
  'amount',
  'currency',
  'country',
  'operator',
  'phone',
  'psp_reference',
  'message',
  'environment',
  'idempotent_replay',
  'pending_since_seconds',
  'sandbox',
];

for (const target of testDatabases()) {
  describe(`collect, earlier contract, on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;

    before(async () => {
      t = await buildTestApp(target);
      key = (await t.newMerchant()).testKey;
    });
    after(() => t.close());

    const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { 'x-api-key': key, ...headers }, payload: payload as object });
    const get = (url: string) => t.app.inject({ url: `/api/v1${url}`, headers: { 'x-api-key': key } });

    it('creates a payment with amounts in centimes, the phone at the root and uppercase statuses (201)', async () => {
      const res = await post('/collect/mobile-money/', body());
      assert.equal(res.statusCode, 201, res.body);
      const payment = res.json();
      assert.deepEqual(Object.keys(payment).sort(), [...legacyFields].sort());
      assert.equal(payment.status, 'COMPLETED');
      assert.equal(payment.amount, 300_000);
      assert.equal(payment.currency, 'XOF');
      assert.equal(payment.phone, '+2290197000000');
      assert.equal(payment.sandbox, true);
      assert.equal(payment.pending_since_seconds, null);
      assert.match(payment.id, /^[0-9a-f-]{36}$/);
    });

    it('answers a live payment with no live operator configured 503 operator_unavailable in its own error shape, storing nothing', async () => {
      const { liveKey } = await t.newMerchant();
      const payload = body();
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/collect/mobile-money/', headers: { 'x-api-key': liveKey }, payload });
      assert.equal(res.statusCode, 503, res.body);
      assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'detail', 'error']);
      assert.equal(res.json().code, 'operator_unavailable');
      const read = await t.app.inject({ url: `/api/v1/collect/mobile-money/${payload.reference}/`, headers: { 'x-api-key': liveKey } });
      assert.equal(read.statusCode, 404);
    });

    it('maps each sandbox outcome to the earlier contract’s status names', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ phone: '0197000001' }, 'FAILED'],
        [{ phone: '0197000002' }, 'PENDING'],
        [{ phone: '0197000003' }, 'CANCELLED'],
        [{ country: 'CI', operator: 'orange_ci', phone: '0700000000' }, 'AWAITING_OTP'],
      ];
      for (const [overrides, status] of cases) {
        const payment = (await post('/collect/mobile-money/', body(overrides))).json();
        assert.equal(payment.status, status, JSON.stringify(overrides));
        if (status === 'PENDING') assert.equal(typeof payment.pending_since_seconds, 'number');
      }
    });

    it('keeps an amount that is not a whole franc exact, and the current contract shows it rounded down', async () => {
      const created = (await post('/collect/mobile-money/', body({ amount: 1_000_050 }))).json();
      assert.equal(created.amount, 1_000_050);
      const current = (await collectClient(t.app, key).get(created.reference)).json();
      assert.equal(current.amount, 10_000);
      assert.equal(current.amount_minor, 1_000_050);
    });

    it('replays an idempotent request with 200 and idempotent_replay true', async () => {
      const payload = body();
      const idempotencyKey = newId();
      const first = await post('/collect/mobile-money/', payload, { 'idempotency-key': idempotencyKey });
      const again = await post('/collect/mobile-money/', payload, { 'idempotency-key': idempotencyKey });
      assert.equal(first.statusCode, 201);
      assert.equal(again.statusCode, 200);
      assert.equal(again.json().idempotent_replay, true);
      assert.equal(again.json().id, first.json().id);
    });

    it('works without an Idempotency-Key, and refuses one longer than 128 characters', async () => {
      assert.equal((await post('/collect/mobile-money/', body())).statusCode, 201);
      const tooLong = await post('/collect/mobile-money/', body(), { 'idempotency-key': 'k'.repeat(129) });
      assert.equal(tooLong.statusCode, 400);
      assert.equal(tooLong.json().code, 'invalid_idempotency_key');
    });

    it('answers schema failures with field -> messages', async () => {
      const { phone: _p, ...noPhone } = body();
      const res = await post('/collect/mobile-money/', { ...noPhone, reference: 'r'.repeat(101), amount: 0 });
      assert.equal(res.statusCode, 400);
      const errors = res.json();
      assert.deepEqual(Object.keys(errors).sort(), ['amount', 'phone', 'reference']);
      for (const messages of Object.values(errors)) assert.ok(Array.isArray(messages) && messages.length > 0);
      const longPhone = await post('/collect/mobile-money/', body({ phone: '0'.repeat(21) }));
      assert.deepEqual(Object.keys(longPhone.json()), ['phone']);
    });

    it('answers business errors in {error, code, detail}', async () => {
      const low = await post('/collect/mobile-money/', body({ amount: 9_999 }));
      assert.equal(low.statusCode, 400);
      assert.deepEqual(Object.keys(low.json()).sort(), ['code', 'detail', 'error']);
      assert.equal(low.json().code, 'amount_too_low');
      assert.equal((await post('/collect/mobile-money/', body({ operator: 'nope' }))).json().code, 'invalid_operator');
      assert.equal((await post('/collect/mobile-money/', body({ phone: '97000000' }))).json().code, 'invalid_phone');
    });

    it('confirms an OTP payment with the reference in the body', async () => {
      const created = (await post('/collect/mobile-money/', body({ country: 'CI', operator: 'orange_ci', phone: '0700000000' }))).json();
      const wrong = await post('/collect/mobile-money/confirm/', { reference: created.reference, otp: '999999' });
      assert.equal(wrong.statusCode, 400);
      assert.equal(wrong.json().code, 'invalid_otp');
      const ok = await post('/collect/mobile-money/confirm/', { reference: created.reference, otp: '123456' });
      assert.equal(ok.statusCode, 200, ok.body);
      assert.equal(ok.json().status, 'COMPLETED');
    });

    it('answers 400 for a payment not eligible for confirmation and 404 for an unknown one', async () => {
      const done = (await post('/collect/mobile-money/', body())).json();
      const notEligible = await post('/collect/mobile-money/confirm/', { reference: done.reference, otp: '123456' });
      assert.equal(notEligible.statusCode, 400);
      assert.equal(notEligible.json().code, 'payment_not_confirmable');
      const unknown = await post('/collect/mobile-money/confirm/', { reference: 'NOPE', otp: '123456' });
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json().code, 'not_found');
      const badOtp = await post('/collect/mobile-money/confirm/', { reference: done.reference, otp: '12ab' });
      assert.deepEqual(Object.keys(badOtp.json()), ['otp']);
    });

    it('reads a payment by reference, with sync, and 404 for an unknown one', async () => {
      const created = (await post('/collect/mobile-money/', body({ phone: '0197000002' }))).json();
      const read = await get(`/collect/mobile-money/${created.reference}/`);
      assert.equal(read.statusCode, 200);
      assert.equal(read.json().status, 'PENDING');
      assert.equal((await get(`/collect/mobile-money/${created.reference}/?sync=true`)).json().status, 'PENDING');
      const missing = await get('/collect/mobile-money/NOPE/');
      assert.equal(missing.statusCode, 404);
      assert.deepEqual(Object.keys(missing.json()).sort(), ['code', 'detail', 'error']);
    });

    it('shares references with the current contract: one payment per reference', async () => {
      const created = (await post('/collect/mobile-money/', body())).json();
      const again = await post('/collect/mobile-money/', body({ reference: created.reference }));
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().code, 'duplicate_reference');
      assert.equal((await collectClient(t.app, key).get(created.reference)).json().id, created.id);
    });
  });
}
