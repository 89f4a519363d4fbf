/** Authentication rules, one by one, over HTTP on every database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { capturedLog } from '../support/captured-log.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const catalogPath = '/api/v1/collect/payments/operators/';

for (const target of testDatabases()) {
  describe(`authentication on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let merchant: Awaited<ReturnType<TestApp['newMerchant']>>;
    const log = capturedLog();
    const logLines = log.lines;

    before(async () => {
      t = await buildTestApp(target, { logger: log.logger });
      merchant = await t.newMerchant();
    });
    after(() => t.close());

    const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

    it('accepts the key as Authorization: Bearer', async () => {
      const res = await get('/api/v1/account', { authorization: `Bearer ${merchant.testKey}` });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().merchant_id, merchant.merchantId);
    });

    it('accepts the key as X-API-Key', async () => {
      const res = await get('/api/v1/account', { 'x-api-key': merchant.testKey });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().merchant_id, merchant.merchantId);
    });

    it('accepts the Bearer scheme in any letter case', async () => {
      const res = await get('/api/v1/account', { authorization: `bearer ${merchant.testKey}` });
      assert.equal(res.statusCode, 200);
    });

    it('answers 401 with the error body when no key is sent', async () => {
      const res = await get('/api/v1/account');
      assert.equal(res.statusCode, 401);
      assert.equal(res.json().error.code, 'unauthenticated');
      assert.equal(res.json().error.request_id, res.headers['x-request-id']);
      assert.match(String(res.headers['www-authenticate']), /^Bearer/);
    });

    it('answers 401 for an unknown key of the right shape', async () => {
      const forged = `ak_test_${'A'.repeat(43)}`;
      assert.equal((await get('/api/v1/account', { authorization: `Bearer ${forged}` })).statusCode, 401);
    });

    it('answers 401 for garbage, a Basic scheme, or two different keys at once', async () => {
      assert.equal((await get('/api/v1/account', { authorization: 'Bearer not-a-key' })).statusCode, 401);
      assert.equal((await get('/api/v1/account', { authorization: `Basic ${merchant.testKey}` })).statusCode, 401);
      const other = await t.newMerchant();
      const both = await get('/api/v1/account', { authorization: `Bearer ${merchant.testKey}`, 'x-api-key': other.testKey });
      assert.equal(both.statusCode, 401);
    });

    it('answers 401 once a key is revoked, and the other keys keep working', async () => {
      const issued = await t.services.merchants.createKey({ merchantId: merchant.merchantId, environment: 'test' });
      assert.equal((await get('/api/v1/account', { 'x-api-key': issued.secret })).statusCode, 200);
      await t.services.merchants.revokeKey(issued.key.id);
      assert.equal((await get('/api/v1/account', { 'x-api-key': issued.secret })).statusCode, 401);
      assert.equal((await get('/api/v1/account', { 'x-api-key': merchant.testKey })).statusCode, 200);
    });

    it('takes the environment from the key and ignores X-Service-Environment', async () => {
      const testRes = await get('/api/v1/account', { 'x-api-key': merchant.testKey, 'x-service-environment': 'live' });
      assert.equal(testRes.json().environment, 'test');
      const liveRes = await get('/api/v1/account', { 'x-api-key': merchant.liveKey, 'x-service-environment': 'test' });
      assert.equal(liveRes.json().environment, 'live');
    });

    it('grants every scope to a key with an empty scope list', async () => {
      for (const url of [catalogPath, '/api/v1/collect/operators/', '/api/v1/payout/operators/']) {
        assert.equal((await get(url, { 'x-api-key': merchant.testKey })).statusCode, 200, url);
      }
    });

    it('answers 403 insufficient_scope when the key lacks the route’s scope', async () => {
      const limited = await t.newMerchant({ scopes: ['collect:read'] });
      assert.equal((await get(catalogPath, { 'x-api-key': limited.testKey })).statusCode, 200);
      const res = await get('/api/v1/payout/operators/', { 'x-api-key': limited.testKey });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().error.code, 'insufficient_scope');
      assert.match(res.json().error.message, /payout:read/);
    });

    it('checks scopes on the earlier contract too, in its own error shape', async () => {
      const payoutOnly = await t.newMerchant({ scopes: ['payout:read'] });
      const res = await get('/api/v1/collect/operators/', { 'x-api-key': payoutOnly.testKey });
      assert.equal(res.statusCode, 403);
      assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'detail', 'error']);
      assert.equal(res.json().code, 'insufficient_scope');
    });

    it('answers the earlier contract’s 401 in {error, code, detail}', async () => {
      const res = await get('/api/v1/collect/operators/');
      assert.equal(res.statusCode, 401);
      assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'detail', 'error']);
      assert.equal(res.json().error, 'Unauthorized');
      assert.equal(res.json().code, 'unauthenticated');
      assert.match(res.json().detail, /^No API key was sent/);
    });

    describe('the 401 message says which problem it is', () => {
      const messageOf = async (headers: Record<string, string>) => {
        const res = await get('/api/v1/account', headers);
        assert.equal(res.statusCode, 401);
        assert.equal(res.json().error.code, 'unauthenticated');
        return res.json().error.message as string;
      };

      it('no key: says so and how to send one', async () => {
        for (const headers of [{}, { 'x-api-key': '' }] as Record<string, string>[]) {
          const message = await messageOf(headers);
          assert.match(message, /No API key was sent/);
          assert.match(message, /Authorization: Bearer <key>/);
          assert.match(message, /X-API-Key/);
        }
      });

      it('a malformed value: the wrong scheme, two different keys, or a value not shaped like our keys', async () => {
        assert.match(await messageOf({ authorization: `Basic ${merchant.testKey}` }), /not `Bearer <key>`/);
        const other = await t.newMerchant();
        assert.match(await messageOf({ authorization: `Bearer ${merchant.testKey}`, 'x-api-key': other.testKey }), /different keys/);
        for (const value of ['not-a-key', merchant.testKey.slice(0, -1), `"${merchant.testKey}"`, merchant.testKey.replace('ak_test_', 'sk_test_')]) {
          assert.match(await messageOf({ 'x-api-key': value }), /not shaped like an Akwe key/, value);
        }
      });

      it('a well-formed key that is unknown or revoked: one identical message, which does not say which', async () => {
        const issued = await t.services.merchants.createKey({ merchantId: merchant.merchantId, environment: 'test' });
        await t.services.merchants.revokeKey(issued.key.id);
        const revoked = await messageOf({ 'x-api-key': issued.secret });
        const unknown = await messageOf({ 'x-api-key': `ak_test_${'B'.repeat(43)}` });
        assert.equal(revoked, unknown);
        assert.match(revoked, /unknown or has been revoked/);
      });
    });

    it('answers 403 on the earlier contract when the key’s merchant cannot be found', async () => {
      const orphan = await t.newMerchant();
      // The merchant row disappears under a live key (as after a botched manual clean-up).
      await detachMerchant(t, orphan.merchantId);
      const res = await get('/api/v1/collect/operators/', { 'x-api-key': orphan.testKey });
      assert.equal(res.statusCode, 403);
      assert.equal(res.json().code, 'merchant_not_found');
    });

    describe('isolation of records', () => {
      /** A payment made through the API with this key, and the id of its created event. */
      async function payWith(key: string) {
        const reference = `ISO-${newId()}`;
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/collect/payments',
          headers: { 'x-api-key': key, 'idempotency-key': newId() },
          payload: { reference, amount: 1000, country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '0197000000' } },
        });
        assert.equal(res.statusCode, 201, res.body);
        const event = await t.services.database.db
          .selectFrom('events')
          .select('id')
          .where('type', '=', 'collect.payment.created')
          .where('subject_reference', '=', reference)
          .executeTakeFirstOrThrow();
        return { reference, id: res.json().id as string, eventId: event.id };
      }

      it('shows a key its own merchant’s payments and events in its own environment', async () => {
        const mine = await payWith(merchant.testKey);
        for (const path of [mine.reference, mine.id]) {
          const res = await get(`/api/v1/collect/payments/${path}`, { 'x-api-key': merchant.testKey });
          assert.equal(res.statusCode, 200);
          assert.equal(res.json().reference, mine.reference);
        }
        const event = await get(`/api/v1/events/${mine.eventId}`, { 'x-api-key': merchant.testKey });
        assert.equal(event.statusCode, 200);
        assert.equal(event.json().data.object.reference, mine.reference);
      });

      it('answers 404 for the same merchant’s records in the other environment', async () => {
        const testPayment = await payWith(merchant.testKey);
        for (const path of [`/api/v1/collect/payments/${testPayment.reference}`, `/api/v1/collect/payments/${testPayment.id}`, `/api/v1/events/${testPayment.eventId}`]) {
          const res = await get(path, { 'x-api-key': merchant.liveKey });
          assert.equal(res.statusCode, 404, path);
          assert.equal(res.json().error.code, 'not_found');
        }
      });

      it('answers 404, never the record, for another merchant’s records', async () => {
        const other = await t.newMerchant({ name: 'Other' });
        const theirs = await payWith(other.testKey);
        for (const path of [`/api/v1/collect/payments/${theirs.reference}`, `/api/v1/collect/payments/${theirs.id}`, `/api/v1/events/${theirs.eventId}`]) {
          const res = await get(path, { 'x-api-key': merchant.testKey });
          assert.equal(res.statusCode, 404, path);
          // Indistinguishable from a record that does not exist at all: nothing of theirs leaks.
          const { request_id: _r, ...error } = res.json().error;
          const unknownPath = path.replace(theirs.reference, 'NO-SUCH-REF').replace(theirs.id, newId()).replace(theirs.eventId, newId());
          const { request_id: _u, ...unknown } = (await get(unknownPath, { 'x-api-key': merchant.testKey })).json().error;
          assert.equal(error.code, unknown.code);
          assert.equal(error.message.replace(/ISO-[\w-]+|[0-9a-f-]{36}/g, 'X'), unknown.message.replace(/NO-SUCH-REF|[0-9a-f-]{36}/g, 'X'));
        }
      });
    });

    it('never writes a key to the logs, and every request log line carries the request id', async () => {
      await get('/api/v1/account', { authorization: `Bearer ${merchant.testKey}`, 'x-request-id': 'trace-123' });
      await get('/api/v1/account', { 'x-api-key': merchant.liveKey });
      const text = logLines.join('');
      assert.ok(logLines.length > 0);
      assert.ok(!text.includes(merchant.testKey) && !text.includes(merchant.liveKey), 'a key appeared in the logs');
      const requestLines = logLines.map((l) => JSON.parse(l)).filter((l) => l.req || l.res);
      assert.ok(requestLines.length >= 4);
      for (const line of requestLines) assert.equal(typeof line.request_id, 'string');
      assert.ok(requestLines.some((l) => l.request_id === 'trace-123'));
    });
  });
}

/** Removes a merchant row while its keys stay, bypassing the foreign key on each dialect. */
async function detachMerchant(t: TestApp, merchantId: string): Promise<void> {
  const { sql } = await import('kysely');
  const db = t.services.database.db;
  if (t.services.database.capabilities.concurrentWriters) {
    await db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await trx.deleteFrom('merchants').where('id', '=', merchantId).execute();
    });
  } else {
    await sql`pragma foreign_keys = off`.execute(db);
    await db.deleteFrom('merchants').where('id', '=', merchantId).execute();
    await sql`pragma foreign_keys = on`.execute(db);
  }
}
