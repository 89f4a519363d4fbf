/**
 * Event fan-out on every database: one pass over a batch that mixes tenants turns each event into
 * deliveries for its own tenant's enabled endpoints only, and takes the whole batch off the fan-out queue.
 * Checked on the stored rows, since the repository reads endpoints once per tenant per pass and
 * empties the batch from the queue with one statement.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TenantScope } from '../../src/core/shared/environment.js';
import { collectClient, direct, hosted } from '../support/collect-client.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`event fan-out on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;

    before(async () => {
      t = await buildTestApp(target);
    });
    after(() => t.close());

    const db = () => t.services.database.db;

    async function addEndpoint(scope: TenantScope, path: string, options: { enabled?: boolean } = {}): Promise<string> {
      // Live endpoints must be HTTPS; nothing is sent here, so the address only has to be valid.
      const origin = scope.environment === 'live' ? 'https://receiver.example' : 'http://receiver.example';
      return (await t.services.webhooks.createEndpoint(scope, { url: `${origin}${path}`, enabled: options.enabled })).id;
    }

    /** Every stored event of a tenant, with the destinations of its deliveries and the tenants they belong to. */
    async function fannedOutEvents(scope: TenantScope) {
      const events = await db()
        .selectFrom('events')
        .select(['id'])
        .where('merchant_id', '=', scope.merchantId)
        .where('environment', '=', scope.environment)
        .orderBy('id')
        .execute();
      const queued = new Set((await db().selectFrom('event_fanout_queue').select('event_id').execute()).map((row) => row.event_id));
      return Promise.all(
        events.map(async (event) => {
          const deliveries = await db().selectFrom('webhook_deliveries').select(['destination', 'merchant_id', 'environment']).where('event_id', '=', event.id).execute();
          return {
            id: event.id,
            queued: queued.has(event.id),
            destinations: deliveries.map((d) => d.destination).sort(),
            tenants: [...new Set(deliveries.map((d) => `${d.merchant_id}/${d.environment}`))],
          };
        }),
      );
    }

    const deliveryCount = async () =>
      Number(
        (
          await db()
            .selectFrom('webhook_deliveries')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it('gives every event of a mixed-tenant pass exactly its own tenant’s enabled endpoints, takes them all off the queue, and leaves nothing for a second pass', async () => {
      const a = await t.newMerchant({ name: 'Merchant A' });
      const b = await t.newMerchant({ name: 'Merchant B' });
      const aTest: TenantScope = { merchantId: a.merchantId, environment: 'test' };
      const aLive: TenantScope = { merchantId: a.merchantId, environment: 'live' };
      const bTest: TenantScope = { merchantId: b.merchantId, environment: 'test' };
      const endpointsOf = new Map<TenantScope, string[]>([
        [aTest, [await addEndpoint(aTest, '/a-test')]],
        [aLive, [await addEndpoint(aLive, '/a-live')]],
        [bTest, [await addEndpoint(bTest, '/b-test-1'), await addEndpoint(bTest, '/b-test-2')]],
      ]);
      // A disabled endpoint of a tenant in the batch gets nothing.
      await addEndpoint(bTest, '/b-test-disabled', { enabled: false });

      // Interleaved, so consecutive events of the batch belong to different tenants.
      const aTestApi = collectClient(t.app, a.testKey);
      const aLiveApi = collectClient(t.app, a.liveKey);
      const bTestApi = collectClient(t.app, b.testKey);
      for (let i = 0; i < 3; i++) {
        await aTestApi.createOk(direct());
        await bTestApi.createOk(direct());
        await aLiveApi.createOk(hosted());
      }
      const pending = await db().selectFrom('event_fanout_queue').select('event_id').execute();
      assert.ok(pending.length >= 15, `several events per tenant (got ${pending.length})`);

      assert.equal(await t.services.webhooks.fanOut(100), pending.length, 'the whole batch in one pass');

      for (const [scope, endpointIds] of endpointsOf) {
        const events = await fannedOutEvents(scope);
        assert.ok(events.length >= 3, `several events for ${scope.merchantId}/${scope.environment}`);
        for (const event of events) {
          assert.equal(event.queued, false, `event ${event.id} has left the fan-out queue`);
          assert.deepEqual(event.destinations, [...endpointIds].sort(), `event ${event.id} reaches its own tenant’s enabled endpoints only`);
          assert.deepEqual(event.tenants, [`${scope.merchantId}/${scope.environment}`]);
        }
      }
      assert.deepEqual(await db().selectFrom('event_fanout_queue').select('event_id').execute(), [], 'the queue is empty');

      const deliveriesAfterFirstPass = await deliveryCount();
      assert.equal(await t.services.webhooks.fanOut(100), 0, 'a second pass finds nothing to do');
      assert.equal(await deliveryCount(), deliveriesAfterFirstPass, 'and inserts no delivery');
    });

    it('a fan-out woken by a creation’s signal sees that creation’s events', async () => {
      const merchant = await t.newMerchant();
      const scope: TenantScope = { merchantId: merchant.merchantId, environment: 'test' };
      await addEndpoint(scope, '/woken');
      while ((await t.services.webhooks.fanOut(100)) > 0);
      // As the worker pool does: a pass starts as soon as a signal the fan-out wakes on comes. On
      // SQLite the first comes from inside the creation's transaction (`fanout`), and the pass
      // waits for that transaction; on PostgreSQL it follows the commit (`events`).
      const passes: Promise<number>[] = [];
      const unsubscribes = (['fanout', 'events'] as const).map((topic) => t.services.signals.subscribe(topic, () => passes.push(t.services.webhooks.fanOut(100))));
      try {
        await collectClient(t.app, merchant.testKey).createOk(direct());
      } finally {
        for (const unsubscribe of unsubscribes) unsubscribe();
      }
      assert.equal(passes.length, t.services.database.capabilities.signalsBeforeCommit ? 2 : 1, 'the signals of one creation');
      assert.equal(await passes[0], 3, 'the first pass woken fanned out the three events');
      assert.deepEqual(
        (await fannedOutEvents(scope)).map((e) => e.destinations.length),
        [1, 1, 1],
      );
    });

    it('reads endpoints afresh on each pass: one added after a pass receives the next events', async () => {
      const merchant = await t.newMerchant();
      const scope: TenantScope = { merchantId: merchant.merchantId, environment: 'test' };
      const first = await addEndpoint(scope, '/first');
      const api = collectClient(t.app, merchant.testKey);
      await api.createOk(direct());
      while ((await t.services.webhooks.fanOut(100)) > 0);
      const second = await addEndpoint(scope, '/second');
      await api.createOk(direct());
      while ((await t.services.webhooks.fanOut(100)) > 0);

      const events = await fannedOutEvents(scope);
      // Each direct sandbox payment writes three events: created (pending), processing, completed.
      assert.equal(events.length, 6);
      assert.deepEqual(
        events.map((e) => e.destinations),
        [[first], [first], [first], [first, second].sort(), [first, second].sort(), [first, second].sort()],
      );
    });
  });
}
