/**
 * Collect-level guarantees on every database: idempotent creation (replay, reuse, concurrency),
 * rate limits on creation and reads, and the contract's event envelope of every payment event.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { collectClient, direct } from '../support/collect-client.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`collect idempotency, limits and events on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let merchant: Awaited<ReturnType<TestApp['newMerchant']>>;
    let api: ReturnType<typeof collectClient>;

    before(async () => {
      t = await buildTestApp(target);
      merchant = await t.newMerchant();
      api = collectClient(t.app, merchant.testKey);
    });
    after(() => t.close());

    const paymentsWithReference = async (reference: string) =>
      (await t.services.database.db.selectFrom('payments').select('id').where('reference', '=', reference).execute()).length;

    describe('idempotent creation', () => {
      it('requires the Idempotency-Key header', async () => {
        const res = await t.app.inject({ method: 'POST', url: '/api/v1/collect/payments', headers: { 'x-api-key': merchant.testKey }, payload: direct() });
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().error.code, 'missing_idempotency_key');
      });

      it('replays the original answer for the same key and payload, without a second payment', async () => {
        const body = direct();
        const key = newId();
        const first = await api.create(body, key);
        assert.equal(first.statusCode, 201);
        assert.equal(first.json().idempotent_replay, false);
        // Same payload with its keys in another order is the same request.
        const reordered = Object.fromEntries(Object.entries(body).reverse());
        const replay = await api.create(reordered, key);
        assert.equal(replay.statusCode, 201);
        assert.equal(replay.headers['idempotent-replayed'], 'true');
        assert.equal(replay.json().idempotent_replay, true);
        assert.deepEqual({ ...(replay.json() as Record<string, unknown>), idempotent_replay: false }, first.json());
        assert.equal(await paymentsWithReference(body.reference), 1);
        const eventCount = await t.services.database.db.selectFrom('events').select('id').where('subject_reference', '=', body.reference).execute();
        assert.equal(eventCount.length, 3);
      });

      it('refuses the same key with another payload (422 idempotency_key_reused)', async () => {
        const key = newId();
        await api.create(direct(), key);
        const res = await api.create(direct({ amount: 4000 }), key);
        assert.equal(res.statusCode, 422);
        assert.equal(res.json().error.code, 'idempotency_key_reused');
      });

      it('refuses a used key with 422 idempotency_key_reused even when the new payload would be refused on its own', async () => {
        const key = newId();
        assert.equal((await api.create(direct(), key)).statusCode, 201);
        // The core refuses this body (a return URL on a direct payment) before its first phase claims anything.
        const refusedBody = direct({ return_url: 'https://shop.example/merci' });
        const reused = await api.create(refusedBody, key);
        assert.equal(reused.statusCode, 422, reused.body);
        assert.equal(reused.json().error.code, 'idempotency_key_reused');
        const fresh = await api.create(refusedBody, newId());
        assert.notEqual(fresh.json().error.code, 'idempotency_key_reused', 'with a new key the body gets its own refusal');
        assert.ok(fresh.statusCode >= 400 && fresh.statusCode < 500, fresh.body);
      });

      it('gives one payment for N simultaneous creations with one key', async () => {
        const body = direct();
        const key = newId();
        const answers = await Promise.all(Array.from({ length: 10 }, () => api.create(body, key)));
        const statuses = answers.map((a) => a.statusCode);
        assert.ok(statuses.includes(201), statuses.join(','));
        for (const answer of answers) {
          if (answer.statusCode === 201) assert.equal(answer.json().reference, body.reference);
          else {
            assert.equal(answer.statusCode, 409, answer.body);
            assert.equal(answer.json().error.code, 'idempotency_request_in_progress');
          }
        }
        assert.equal(await paymentsWithReference(body.reference), 1);
        const ids = new Set(answers.filter((a) => a.statusCode === 201).map((a) => a.json().id));
        assert.equal(ids.size, 1);
      });

      it('gives one payment when the same reference races under different keys', async () => {
        const body = direct();
        const answers = await Promise.all(Array.from({ length: 6 }, () => api.create(body)));
        assert.equal(answers.filter((a) => a.statusCode === 201).length, 1, answers.map((a) => a.statusCode).join(','));
        for (const refused of answers.filter((a) => a.statusCode !== 201)) assert.equal(refused.json().error.code, 'duplicate_reference');
        assert.equal(await paymentsWithReference(body.reference), 1);
      });

      it('keeps keys apart per environment: the live key’s request is its own', async () => {
        const key = newId();
        await api.create(direct(), key);
        const liveAnswer = await collectClient(t.app, merchant.liveKey).create(direct(), key);
        assert.notEqual(liveAnswer.statusCode, 422);
        assert.notEqual(liveAnswer.headers['idempotent-replayed'], 'true');
      });
    });

    describe('event envelope', () => {
      it('serves every event of a payment in the contract envelope, one per status change', async () => {
        const payment = await api.createOk(direct());
        const rows = await t.services.database.db.selectFrom('events').select(['id', 'type']).where('subject_reference', '=', payment.reference).orderBy('id').execute();
        assert.deepEqual(
          rows.map((r) => r.type),
          ['collect.payment.created', 'collect.payment.processing', 'collect.payment.completed'],
        );
        for (const row of rows) {
          const res = await t.app.inject({ url: `/api/v1/events/${row.id}`, headers: { 'x-api-key': merchant.testKey } });
          assert.equal(res.statusCode, 200);
          const event = res.json();
          assert.equal(event.id, row.id);
          assert.equal(event.type, row.type);
          assert.equal(event.event_version, '2026-06');
          assert.equal(event.environment, 'test');
          assert.equal(event.merchant_id, merchant.merchantId);
          assert.match(event.created_at, /^\d{4}-\d{2}-\d{2}T/);
          const object = event.data.object;
          assert.equal(object.reference, payment.reference);
          assert.equal(object.amount, 3000);
          assert.equal(object.currency, 'XOF');
          assert.equal(object.sandbox, true);
          assert.equal(object.status, row.type.replace('collect.payment.', '').replace('created', 'pending'));
        }
      });
    });
  });
}

const sqlite = testDatabases().find((d) => d.name === 'sqlite')!;

describe('collect rate limits (30 a minute, lowered by configuration)', () => {
  let t: TestApp;
  let api: ReturnType<typeof collectClient>;

  before(async () => {
    t = await buildTestApp(sqlite, { env: { RATE_LIMIT_CREATE_PER_MINUTE: '3', RATE_LIMIT_READ_PER_MINUTE: '4', RATE_LIMIT_REFUND_PER_MINUTE: '1' } });
    api = collectClient(t.app, (await t.newMerchant()).testKey);
  });
  after(() => t.close());

  it('answers 429 rate_limited with Retry-After once a key exceeds its creation budget', async () => {
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await api.create(direct()));
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      [201, 201, 201, 429],
    );
    assert.equal(answers[0]!.headers['ratelimit-limit'], '3');
    assert.equal(answers[2]!.headers['ratelimit-remaining'], '0');
    const limited = answers[3]!;
    assert.equal(limited.json().error.code, 'rate_limited');
    assert.ok(Number(limited.headers['retry-after']) >= 1);
  });

  it('counts reads on their own budget', async () => {
    const reads = [];
    for (let i = 0; i < 5; i++) reads.push((await api.get('ANY-REF')).statusCode);
    assert.deepEqual(reads, [404, 404, 404, 404, 429]);
  });

  it('counts operator catalog reads, of either contract, on the read budget', async () => {
    const { testKey } = await t.newMerchant({ name: 'Catalog reader' });
    const headers = { 'x-api-key': testKey };
    const answers = [];
    for (const url of [
      '/api/v1/collect/payments/operators/',
      '/api/v1/collect/operators/',
      '/api/v1/collect/payments/operators/',
      '/api/v1/collect/operators/',
      '/api/v1/collect/payments/operators/',
    ]) {
      answers.push(await t.app.inject({ url, headers }));
    }
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      [200, 200, 200, 200, 429],
    );
    assert.equal(answers[1]!.headers['ratelimit-remaining'], '2');
    assert.equal(answers[4]!.json().error.code, 'rate_limited');
    const legacy = await t.app.inject({ url: '/api/v1/collect/operators/', headers });
    assert.equal(legacy.statusCode, 429);
    assert.equal(legacy.json().code, 'rate_limited', 'the earlier contract answers in its own shape');
    assert.ok(Number(legacy.headers['retry-after']) >= 1);
  });

  it('gives every key its own budget', async () => {
    const other = collectClient(t.app, (await t.newMerchant({ name: 'Other' })).testKey);
    assert.equal((await other.create(direct())).statusCode, 201);
  });
});
