/** Webhook endpoints API, event catch-up and resend, on every database (delivery itself: webhook-delivery.test.ts). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectClient, direct } from '../support/collect-client.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`webhook API on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let merchant: Awaited<ReturnType<TestApp['newMerchant']>>;

    before(async () => {
      t = await buildTestApp(target);
      merchant = await t.newMerchant();
    });
    after(() => t.close());

    const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, key = merchant.testKey) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}` }, ...(payload !== undefined ? { payload: payload as object } : {}) });

    describe('endpoints', () => {
      it('creates an endpoint and shows its whsec_ secret at creation and on request only', async () => {
        const created = await call('POST', '/webhook-endpoints', { url: 'https://shop.example/hooks', events: ['collect.payment.*'], description: 'main' });
        assert.equal(created.statusCode, 201, created.body);
        const endpoint = created.json();
        assert.match(endpoint.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
        assert.deepEqual(endpoint.events, ['collect.payment.*']);
        assert.equal(endpoint.enabled, true);
        assert.equal(endpoint.api_version, '2026-06');
        assert.equal(endpoint.environment, 'test');
        const read = (await call('GET', `/webhook-endpoints/${endpoint.id}`)).json();
        assert.equal(read.secret, undefined);
        const listed = (await call('GET', '/webhook-endpoints')).json();
        assert.ok(listed.data.some((e: { id: string; secret?: string }) => e.id === endpoint.id && e.secret === undefined));
        const secret = (await call('GET', `/webhook-endpoints/${endpoint.id}/secret`)).json();
        assert.equal(secret.secret, endpoint.secret);
      });

      it('stores the secret encrypted, never in clear', async () => {
        const endpoint = (await call('POST', '/webhook-endpoints', { url: 'https://shop.example/enc' })).json();
        const row = await t.services.database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpoint.id).executeTakeFirstOrThrow();
        assert.ok(!JSON.stringify(row).includes(endpoint.secret));
      });

      it('requires HTTPS for live endpoints and allows HTTP for test ones', async () => {
        const live = await call('POST', '/webhook-endpoints', { url: 'http://shop.example/hooks' }, merchant.liveKey);
        assert.equal(live.statusCode, 400);
        assert.equal(live.json().error.field, 'url');
        assert.equal((await call('POST', '/webhook-endpoints', { url: 'https://shop.example/hooks' }, merchant.liveKey)).statusCode, 201);
        assert.equal((await call('POST', '/webhook-endpoints', { url: 'http://localhost:9/hooks' })).statusCode, 201);
        assert.equal((await call('POST', '/webhook-endpoints', { url: 'ftp://shop.example/x' })).statusCode, 400);
        assert.equal((await call('POST', '/webhook-endpoints', { url: 'https://user:pw@shop.example/x' })).statusCode, 400);
      });

      it('refuses an event type pattern it cannot match', async () => {
        const res = await call('POST', '/webhook-endpoints', { url: 'https://shop.example/x', events: ['collect payment'] });
        assert.equal(res.statusCode, 400);
        assert.equal(res.json().error.field, 'events');
      });

      it('refuses unknown event types on create and on update, naming the type and the known ones, and stores nothing', async () => {
        const before = (await call('GET', '/webhook-endpoints')).json().data.length;
        for (const events of [['collect.payment.succeeded'], ['collect.payment.completed', 'payout.succeeded'], ['collect.payments.*']]) {
          const res = await call('POST', '/webhook-endpoints', { url: 'https://shop.example/typo', events });
          assert.equal(res.statusCode, 400, `${events}: ${res.body}`);
          const error = res.json().error;
          assert.equal(error.field, 'events');
          assert.match(error.message, /Unknown event type "/);
          assert.match(error.message, /collect\.payment\.completed, .*collect\.refund\.failed/);
        }
        assert.equal((await call('GET', '/webhook-endpoints')).json().data.length, before, 'no endpoint stored');
        const ok = await call('POST', '/webhook-endpoints', { url: 'https://shop.example/typo', events: ['*', 'collect.*', 'collect.payment.pending', 'collect.refund.created'] });
        assert.equal(ok.statusCode, 201, ok.body);
        const id = ok.json().id;
        const update = await call('PATCH', `/webhook-endpoints/${id}`, { events: ['collect.payment.paid'] });
        assert.equal(update.statusCode, 400);
        assert.equal(update.json().error.field, 'events');
        assert.deepEqual((await call('GET', `/webhook-endpoints/${id}`)).json().events, ['*', 'collect.*', 'collect.payment.pending', 'collect.refund.created'], 'unchanged');
      });

      it('keeps endpoints apart by environment and merchant', async () => {
        const testEndpoint = (await call('POST', '/webhook-endpoints', { url: 'https://shop.example/iso' })).json();
        assert.equal((await call('GET', `/webhook-endpoints/${testEndpoint.id}`, undefined, merchant.liveKey)).statusCode, 404);
        const other = await t.newMerchant({ name: 'Other' });
        assert.equal((await call('GET', `/webhook-endpoints/${testEndpoint.id}`, undefined, other.testKey)).statusCode, 404);
        assert.equal((await call('DELETE', `/webhook-endpoints/${testEndpoint.id}`, undefined, other.testKey)).statusCode, 404);
      });

      it('updates, disables, re-enables and deletes an endpoint', async () => {
        const endpoint = (await call('POST', '/webhook-endpoints', { url: 'https://shop.example/a' })).json();
        const patched = await call('PATCH', `/webhook-endpoints/${endpoint.id}`, { url: 'https://shop.example/b', enabled: false, events: ['collect.refund.*'] });
        assert.equal(patched.statusCode, 200, patched.body);
        assert.equal(patched.json().url, 'https://shop.example/b');
        assert.equal(patched.json().enabled, false);
        assert.equal((await call('PATCH', `/webhook-endpoints/${endpoint.id}`, { enabled: true })).json().enabled, true);
        const deleted = await call('DELETE', `/webhook-endpoints/${endpoint.id}`);
        assert.deepEqual(deleted.json(), { object: 'webhook_endpoint', id: endpoint.id, deleted: true });
        assert.equal((await call('GET', `/webhook-endpoints/${endpoint.id}`)).statusCode, 404);
      });

      it('rotates the secret with an overlap during which the old one still signs', async () => {
        const endpoint = (await call('POST', '/webhook-endpoints', { url: 'https://shop.example/rot' })).json();
        const rotated = await call('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`, { overlap_seconds: 3600 });
        assert.equal(rotated.statusCode, 200, rotated.body);
        assert.notEqual(rotated.json().secret, endpoint.secret);
        assert.ok(rotated.json().previous_secret_expires_at);
        const secrets = (await call('GET', `/webhook-endpoints/${endpoint.id}/secret`)).json();
        assert.equal(secrets.previous_secret, endpoint.secret);
        assert.equal((await call('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`, { overlap_seconds: 604_801 })).statusCode, 400);
      });

      it('caps endpoints per merchant and environment at 16, even when creations race for the last place', async () => {
        const own = await t.newMerchant({ name: 'Many endpoints' });
        const create = (i: number, key = own.testKey) => call('POST', '/webhook-endpoints', { url: `https://shop.example/cap/${i}` }, key);
        for (let i = 0; i < 15; i++) assert.equal((await create(i)).statusCode, 201);
        const racing = await Promise.all([15, 16, 17, 18, 19].map((i) => create(i)));
        assert.deepEqual(racing.map((r) => r.statusCode).sort(), [201, 409, 409, 409, 409]);
        const refused = racing.find((r) => r.statusCode === 409)!;
        assert.equal(refused.json().error.code, 'endpoint_limit_reached');
        assert.equal((await call('GET', '/webhook-endpoints?limit=100', undefined, own.testKey)).json().data.length, 16);
        assert.equal((await create(20, own.liveKey)).statusCode, 201, 'the other environment has its own 16');
      });

      it('needs webhooks:read to read and webhooks:write to change', async () => {
        const reader = await t.newMerchant({ name: 'Reader', scopes: ['webhooks:read'] });
        assert.equal((await call('GET', '/webhook-endpoints', undefined, reader.testKey)).statusCode, 200);
        const refused = await call('POST', '/webhook-endpoints', { url: 'https://shop.example/x' }, reader.testKey);
        assert.equal(refused.statusCode, 403);
        assert.equal(refused.json().error.code, 'insufficient_scope');
        const payer = await t.newMerchant({ name: 'Payer', scopes: ['collect:write'] });
        assert.equal((await call('GET', '/events', undefined, payer.testKey)).statusCode, 403);
      });

      it('shows a signing secret only to a key that may change webhooks (a secret forges them)', async () => {
        const endpoint = (await call('POST', '/webhook-endpoints', { url: 'https://shop.example/secret-scope' })).json();
        const reader = await t.newMerchant({ name: 'Secret reader', scopes: ['webhooks:read'] });
        const readerCall = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${reader.testKey}` } });
        for (const url of [`/webhook-endpoints/${endpoint.id}/secret`, '/account/callback-secret']) {
          const refused = await readerCall(url);
          assert.equal(refused.statusCode, 403, url);
          assert.equal(refused.json().error.code, 'insufficient_scope');
          assert.doesNotMatch(refused.body, /whsec_/);
        }
        assert.equal((await readerCall(`/webhook-endpoints/${endpoint.id}`)).statusCode, 404, 'another merchant’s endpoint');
        assert.match((await call('GET', `/webhook-endpoints/${endpoint.id}/secret`)).json().secret, /^whsec_/);
      });

      it('gives each merchant and environment one callback secret', async () => {
        const first = (await call('GET', '/account/callback-secret')).json();
        const again = (await call('GET', '/account/callback-secret')).json();
        const live = (await call('GET', '/account/callback-secret', undefined, merchant.liveKey)).json();
        assert.match(first.secret, /^whsec_/);
        assert.equal(again.secret, first.secret);
        assert.notEqual(live.secret, first.secret);
      });
    });

    describe('events', () => {
      let fresh: Awaited<ReturnType<TestApp['newMerchant']>>;
      before(async () => {
        fresh = await t.newMerchant({ name: 'Events' });
        const api = collectClient(t.app, fresh.testKey);
        for (let i = 0; i < 3; i++) await api.createOk(direct());
        await api.createOk(direct({ customer: { phone: '0197000001' } }));
      });

      it('lists the key’s events newest first with cursor pagination', async () => {
        const all = (await call('GET', '/events?limit=100', undefined, fresh.testKey)).json();
        assert.equal(all.data.length, 12);
        assert.equal(all.has_more, false);
        const ids = all.data.map((e: { id: string }) => e.id);
        assert.deepEqual([...ids].sort().reverse(), ids);
        const first = (await call('GET', '/events?limit=3', undefined, fresh.testKey)).json();
        assert.equal(first.has_more, true);
        const second = (await call('GET', `/events?limit=3&starting_after=${first.data[2].id}`, undefined, fresh.testKey)).json();
        assert.deepEqual(
          [...first.data, ...second.data].map((e: { id: string }) => e.id),
          ids.slice(0, 6),
        );
        for (const event of all.data) {
          assert.equal(event.event_version, '2026-06');
          assert.equal(event.merchant_id, fresh.merchantId);
        }
      });

      it('filters by exact type, by family and by date', async () => {
        const failed = (await call('GET', '/events?type=collect.payment.failed', undefined, fresh.testKey)).json();
        assert.deepEqual(
          failed.data.map((e: { type: string }) => e.type),
          ['collect.payment.failed'],
        );
        const family = (await call('GET', '/events?type=collect.payment.*&limit=100', undefined, fresh.testKey)).json();
        assert.equal(family.data.length, 12);
        const two = (await call('GET', '/events?type=collect.payment.failed,collect.payment.created&limit=100', undefined, fresh.testKey)).json();
        assert.equal(two.data.length, 5);
        const future = (await call('GET', `/events?created_gte=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`, undefined, fresh.testKey)).json();
        assert.equal(future.data.length, 0);
        const past = (await call('GET', `/events?created_lte=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}&limit=100`, undefined, fresh.testKey)).json();
        assert.equal(past.data.length, 12);
        assert.equal((await call('GET', '/events?created_gte=yesterday', undefined, fresh.testKey)).statusCode, 400);
      });

      it('refuses a filter on an event type that does not exist, naming it and the known ones', async () => {
        for (const type of ['collect.payment.complete', 'collect.payment.created,payment.completed', 'collect.paiement.*']) {
          const res = await call('GET', `/events?type=${encodeURIComponent(type)}`, undefined, fresh.testKey);
          assert.equal(res.statusCode, 400, `${type}: ${res.body}`);
          const error = res.json().error;
          assert.equal(error.code, 'validation_error');
          assert.equal(error.field, 'type');
          assert.match(error.message, /Unknown event type "(collect\.payment\.complete|payment\.completed|collect\.paiement\.\*)"/);
          assert.match(error.message, /collect\.payment\.completed/, 'the known types are listed');
        }
        assert.equal((await call('GET', '/events?type=*', undefined, fresh.testKey)).statusCode, 200);
        // An unknown filter is refused too, instead of being ignored and returning everything.
        for (const url of ['/events?colour=blue', '/events?types=collect.payment.created', `/webhook-endpoints/${'x'.repeat(8)}/deliveries?status=failed`]) {
          const res = await call('GET', url, undefined, fresh.testKey);
          assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
          assert.equal(res.json().error.code, 'validation_error');
          assert.match(res.json().error.message, /is not a known field/);
        }
        assert.equal((await call('GET', '/events?type=collect.refund.*', undefined, fresh.testKey)).statusCode, 200);
      });

      it('shows no events of the other environment', async () => {
        const live = (await call('GET', '/events', undefined, fresh.liveKey)).json();
        assert.equal(live.data.length, 0);
      });

      it('resends an event to one endpoint or to every subscribed one, once per destination', async () => {
        const a = (await call('POST', '/webhook-endpoints', { url: 'https://a.example/h' }, fresh.testKey)).json();
        const b = (await call('POST', '/webhook-endpoints', { url: 'https://b.example/h', events: ['collect.refund.*'] }, fresh.testKey)).json();
        const event = (await call('GET', '/events?type=collect.payment.created&limit=1', undefined, fresh.testKey)).json().data[0];
        const toAll = await call('POST', `/events/${event.id}/resend`, {}, fresh.testKey);
        assert.equal(toAll.statusCode, 202, toAll.body);
        assert.deepEqual(
          toAll.json().data.map((d: { endpoint_id: string }) => d.endpoint_id),
          [a.id],
        );
        const toB = await call('POST', `/events/${event.id}/resend`, { endpoint_id: b.id }, fresh.testKey);
        assert.deepEqual(
          toB.json().data.map((d: { endpoint_id: string }) => d.endpoint_id),
          [b.id],
        );
        await call('POST', `/events/${event.id}/resend`, {}, fresh.testKey);
        const rows = await t.services.database.db.selectFrom('webhook_deliveries').select('destination').where('event_id', '=', event.id).execute();
        assert.deepEqual(rows.map((r) => r.destination).sort(), [a.id, b.id].sort());
        assert.equal((await call('POST', `/events/${event.id}/resend`, {}, merchant.testKey)).statusCode, 404);
      });

      it('refuses a legacy endpoint subscribed to events it can never receive (payout, refund, bulk), on create and update, writing nothing', async () => {
        const count = async () => (await t.services.database.db.selectFrom('webhook_endpoints').select('id').where('merchant_id', '=', fresh.merchantId).execute()).length;
        const before = await count();
        for (const events of [['payout.*'], ['collect.payment.completed', 'payout.completed'], ['collect.refund.*'], ['bulk_payment.completed']]) {
          const res = await call('POST', '/webhook-endpoints', { url: 'https://legacy.example/h', api_version: 'legacy', events }, fresh.testKey);
          assert.equal(res.statusCode, 400, `${events}: ${res.body}`);
          assert.equal(res.json().error.code, 'validation_error');
          assert.equal(res.json().error.field, 'events');
          assert.match(res.json().error.message, /legacy endpoint receives payment events only/);
        }
        assert.equal(await count(), before);
        for (const events of [['*'], ['collect.*'], ['collect.payment.*'], ['collect.payment.completed']]) {
          const res = await call('POST', '/webhook-endpoints', { url: 'https://legacy.example/h', api_version: 'legacy', events }, fresh.testKey);
          assert.equal(res.statusCode, 201, `${events}: ${res.body}`);
          await call('DELETE', `/webhook-endpoints/${res.json().id}`, undefined, fresh.testKey);
        }
        const current = (await call('POST', '/webhook-endpoints', { url: 'https://now.example/h', events: ['payout.*'] }, fresh.testKey)).json();
        const toLegacy = await call('PATCH', `/webhook-endpoints/${current.id}`, { api_version: 'legacy' }, fresh.testKey);
        assert.equal(toLegacy.statusCode, 400, toLegacy.body);
        const legacy = (await call('POST', '/webhook-endpoints', { url: 'https://legacy.example/h', api_version: 'legacy' }, fresh.testKey)).json();
        const payoutsToLegacy = await call('PATCH', `/webhook-endpoints/${legacy.id}`, { events: ['payout.*'] }, fresh.testKey);
        assert.equal(payoutsToLegacy.statusCode, 400, payoutsToLegacy.body);
        const row = await t.services.database.db.selectFrom('webhook_endpoints').selectAll().where('id', '=', current.id).executeTakeFirstOrThrow();
        assert.equal(row.api_version, '2026-06');
        await call('DELETE', `/webhook-endpoints/${current.id}`, undefined, fresh.testKey);
        await call('DELETE', `/webhook-endpoints/${legacy.id}`, undefined, fresh.testKey);
      });

      it("answers a bad resend body with one message naming the field, without the union's noise", async () => {
        const event = (await call('GET', '/events?limit=1', undefined, fresh.testKey)).json().data[0];
        const res = await call('POST', `/events/${event.id}/resend`, { endpoint_id: 7 }, fresh.testKey);
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().error.field, 'endpoint_id');
        assert.deepEqual(
          res.json().error.details.map((d: { field: string }) => d.field),
          ['endpoint_id'],
        );
      });

      it("refuses to resend an event a legacy endpoint cannot receive (a refund's) to that endpoint, and makes no delivery", async () => {
        const legacy = (await call('POST', '/webhook-endpoints', { url: 'https://legacy.example/h', api_version: 'legacy' }, fresh.testKey)).json();
        const api = collectClient(t.app, fresh.testKey);
        const payment = await api.createOk(direct());
        assert.equal((await api.post(payment.reference, 'refunds', {})).statusCode, 201);
        const event = (await call('GET', `/events?type=collect.refund.created&reference=${payment.reference}`, undefined, fresh.testKey)).json().data[0];
        const res = await call('POST', `/events/${event.id}/resend`, { endpoint_id: legacy.id }, fresh.testKey);
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().error.code, 'validation_error');
        assert.equal(res.json().error.field, 'endpoint_id');
        const rows = await t.services.database.db.selectFrom('webhook_deliveries').select('id').where('event_id', '=', event.id).where('destination', '=', legacy.id).execute();
        assert.equal(rows.length, 0);
      });

      it('commits an Idempotency-Key with the endpoint it creates and the deliveries a resend resets: concurrent retries make one endpoint, replays answer the same', async () => {
        const keyed = (url: string, payload: unknown, key: string) =>
          t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { authorization: `Bearer ${fresh.testKey}`, 'idempotency-key': key }, payload: payload as object });
        const body = { url: 'https://keyed.example/h', description: 'keyed' };
        const racing = await Promise.all(Array.from({ length: 5 }, () => keyed('/webhook-endpoints', body, 'endpoint-key-1')));
        const created = racing.filter((r) => r.statusCode === 201);
        assert.ok(created.length >= 1, racing.map((r) => `${r.statusCode} ${r.body}`).join('\n'));
        for (const other of racing.filter((r) => r.statusCode !== 201)) assert.equal(other.statusCode, 409, other.body);
        assert.equal(new Set(created.map((r) => r.json().id)).size, 1, 'every success names the same endpoint');
        const rows = await t.services.database.db
          .selectFrom('webhook_endpoints')
          .select('id')
          .where('description', '=', 'keyed')
          .where('merchant_id', '=', fresh.merchantId)
          .execute();
        assert.equal(rows.length, 1, 'one endpoint for one key');
        const replay = await keyed('/webhook-endpoints', body, 'endpoint-key-1');
        assert.equal(replay.statusCode, 201);
        assert.equal(replay.json().id, created[0]!.json().id);
        assert.equal(replay.json().secret, created[0]!.json().secret);
        assert.equal(replay.headers['idempotent-replayed'], 'true');
        const claim = await t.services.database.db
          .selectFrom('idempotency_records')
          .select(['state', 'resource_id'])
          .where('idempotency_key', '=', 'endpoint-key-1')
          .executeTakeFirstOrThrow();
        assert.deepEqual(claim, { state: 'completed', resource_id: rows[0]!.id });
        const stored = await t.services.database.db
          .selectFrom('idempotency_records')
          .select('response_body')
          .where('idempotency_key', '=', 'endpoint-key-1')
          .executeTakeFirstOrThrow();
        assert.ok(!stored.response_body!.includes(created[0]!.json().secret), 'the stored answer never holds the signing secret in clear');
        assert.match(stored.response_body!, /^sealed:v1\./);

        // A refused creation leaves no endpoint and its answer is the one replayed.
        const refused = await keyed('/webhook-endpoints', { url: 'ftp://keyed.example/x' }, 'endpoint-key-2');
        assert.equal(refused.statusCode, 400);
        assert.equal((await keyed('/webhook-endpoints', { url: 'ftp://keyed.example/x' }, 'endpoint-key-2')).body, refused.body);

        const event = (await call('GET', '/events?type=collect.payment.created&limit=1', undefined, fresh.testKey)).json().data[0];
        const first = await keyed(`/events/${event.id}/resend`, { endpoint_id: rows[0]!.id }, 'resend-key-1');
        assert.equal(first.statusCode, 202, first.body);
        // Mark it delivered: a replay must not reset it again, a new key does.
        await t.services.database.db
          .updateTable('webhook_deliveries')
          .set({ status: 'succeeded', attempts: 1 })
          .where('event_id', '=', event.id)
          .where('destination', '=', rows[0]!.id)
          .execute();
        const again = await keyed(`/events/${event.id}/resend`, { endpoint_id: rows[0]!.id }, 'resend-key-1');
        assert.equal(again.statusCode, 202);
        assert.equal(again.body, first.body);
        const stateOf = async () =>
          (
            await t.services.database.db
              .selectFrom('webhook_deliveries')
              .select('status')
              .where('event_id', '=', event.id)
              .where('destination', '=', rows[0]!.id)
              .executeTakeFirstOrThrow()
          ).status;
        assert.equal(await stateOf(), 'succeeded', 'a replay resets nothing');
        await keyed(`/events/${event.id}/resend`, { endpoint_id: rows[0]!.id }, 'resend-key-2');
        assert.equal(await stateOf(), 'pending');

        // A rotation retried with its key after a lost answer rotates once: the same new secret again.
        const rotated = await keyed(`/webhook-endpoints/${rows[0]!.id}/rotate-secret`, { overlap_seconds: 3600 }, 'rotate-key-1');
        assert.equal(rotated.statusCode, 200, rotated.body);
        const retried = await keyed(`/webhook-endpoints/${rows[0]!.id}/rotate-secret`, { overlap_seconds: 3600 }, 'rotate-key-1');
        assert.equal(retried.headers['idempotent-replayed'], 'true');
        assert.equal(retried.json().secret, rotated.json().secret);
        const secrets = (await call('GET', `/webhook-endpoints/${rows[0]!.id}/secret`, undefined, fresh.testKey)).json();
        assert.deepEqual([secrets.secret, secrets.previous_secret], [rotated.json().secret, created[0]!.json().secret], 'the first secret still signs during the overlap');
        const storedRotation = await t.services.database.db
          .selectFrom('idempotency_records')
          .select('response_body')
          .where('idempotency_key', '=', 'rotate-key-1')
          .executeTakeFirstOrThrow();
        assert.match(storedRotation.response_body!, /^sealed:v1\./, 'the stored answer showing the new secret is sealed');
      });
    });
  });
}
