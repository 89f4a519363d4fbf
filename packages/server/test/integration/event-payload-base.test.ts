/**
 * Events written together about the same object store it once (migration 0042): the last keeps the
 * whole snapshot, the others a JSON Patch naming it. On every database: which rows hold patches,
 * and that every reader (by id, lists, pages that leave the base out, streams, the fan-out and the
 * sending path) gives back each event's own subject; a creation through the API, on each
 * database's own write path; and the migration's way back, which stores every snapshot whole again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { EventSubject, StoredEvent } from '../../src/core/events/stored-event.js';
import type { TenantScope } from '../../src/core/shared/environment.js';
import { newId } from '../../src/core/shared/ids.js';
import type { WebhookDelivery } from '../../src/core/webhooks/webhook-endpoint.js';
import { migrateTo, migrateToLatest } from '../../src/storage/migrator.js';
import { EventOutbox } from '../../src/storage/repositories/event-repository.js';
import { collectClient, direct } from '../support/collect-client.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const at = '2026-11-28T10:00:00.000Z';

/** A payment snapshot as the storage sees it: JSON, whatever the fields (the repository never looks inside). */
function paymentSubject(reference: string, fields: Record<string, unknown>): EventSubject {
  return {
    kind: 'payment',
    payment: {
      id: `pay-${reference}`,
      reference,
      amountMinor: 300000,
      currency: 'XOF',
      country: 'BJ',
      mode: 'direct',
      operator: 'mtn_bj',
      phone: '+2290197000000',
      description: 'Abonnement mensuel, novembre',
      customerFirstName: 'Afiavi',
      customerLastName: 'Houngbédji',
      metadata: { order: '42' },
      message: null,
      expiresAt: '2026-11-28T10:15:00.000Z',
      createdAt: at,
      updatedAt: at,
      ...fields,
    },
  } as unknown as EventSubject;
}

function event(scope: TenantScope, type: string, subject: EventSubject): StoredEvent {
  return { id: newId(), merchantId: scope.merchantId, environment: scope.environment, type, createdAt: at, subject };
}

/** What a reader must give back: the subject as JSON has it (a field set to undefined is no field). */
const asJson = (subject: EventSubject): unknown => JSON.parse(JSON.stringify(subject));

for (const target of testDatabases()) {
  describe(`events stored against a base on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let scope: TenantScope;
    let other: TenantScope;
    let written: StoredEvent[];

    before(async () => {
      t = await buildTestApp(target);
      scope = { merchantId: (await t.newMerchant({ name: 'Base owner' })).merchantId, environment: 'test' };
      other = { merchantId: (await t.newMerchant({ name: 'Base neighbour' })).merchantId, environment: 'test' };
      const created = event(scope, 'collect.payment.created', paymentSubject('order-1', { status: 'pending', pspReference: null, operatorState: undefined }));
      const refund = event(scope, 'collect.refund.created', {
        kind: 'refund',
        refund: { id: 'ref-1', status: 'pending' },
        payment: { reference: 'order-1' },
      } as unknown as EventSubject);
      const processing = event(scope, 'collect.payment.processing', paymentSubject('order-1', { status: 'processing', pspReference: null, route: 'sandbox' }));
      // Another object of the same tenant in the same write, and the same reference at another tenant.
      const batch = { id: 'batch-1', reference: 'salaires-novembre', fileName: 'salaires-novembre.csv', currency: 'XOF', totalMinor: 1500000, lines: 3, createdAt: at };
      const batchOpen = event(scope, 'bulk.batch.created', {
        kind: 'bulk_batch',
        batch: { ...batch, status: 'open' },
        totals: [{ status: 'pending', count: 3 }],
      } as unknown as EventSubject);
      const completed = event(
        scope,
        'collect.payment.completed',
        paymentSubject('order-1', {
          status: 'completed',
          pspReference: 'sbx_1',
          message: 'Paiement réussi ✓ "cité"',
          metadata: { order: '42', 'a/b': '1', 'x~y': 'a/b~c' },
          route: 'sandbox',
        }),
      );
      const batchDone = event(scope, 'bulk.batch.completed', {
        kind: 'bulk_batch',
        batch: { ...batch, status: 'done' },
        totals: [{ status: 'completed', count: 3 }],
      } as unknown as EventSubject);
      const neighbour = event(other, 'collect.payment.created', paymentSubject('order-1', { status: 'pending' }));
      written = [created, refund, processing, batchOpen, completed, batchDone, neighbour];
      const outbox = new EventOutbox(t.services.database.db);
      await t.services.database.db.transaction().execute((trx) => outbox.insert(trx, written));
    });
    after(() => t.close());

    const stored = () =>
      t.services.database.db
        .selectFrom('events')
        .select(['id', 'type', 'payload', 'base_event_id'])
        .where(
          'id',
          'in',
          written.map((e) => e.id),
        )
        .orderBy('id')
        .execute();

    it('keeps the last event about each object whole and stores the others as patches against it', async () => {
      const rows = await stored();
      const [created, refund, processing, batchOpen, completed, batchDone, neighbour] = written.map((e) => rows.find((row) => row.id === e.id)!);
      assert.equal(created!.base_event_id, completed!.id);
      assert.equal(processing!.base_event_id, completed!.id);
      assert.equal(batchOpen!.base_event_id, batchDone!.id);
      for (const whole of [refund, completed, batchDone, neighbour]) {
        assert.equal(whole!.base_event_id, null, whole!.type);
        assert.deepEqual(JSON.parse(whole!.payload), asJson(written.find((e) => e.id === whole!.id)!.subject));
      }
      assert.ok(Array.isArray(JSON.parse(created!.payload)), 'a patch is a JSON Patch (a list of operations)');
      assert.ok(created!.payload.length < completed!.payload.length, `a patch of ${created!.payload.length} characters against ${completed!.payload.length}`);
    });

    it('gives back every event’s own subject by id, in lists and to event streams', async () => {
      for (const written1 of written) {
        const scopeOf = { merchantId: written1.merchantId, environment: written1.environment };
        assert.deepEqual(asJson((await t.services.events.findById(scopeOf, written1.id))!.subject), asJson(written1.subject), written1.type);
      }
      const mine = written.filter((e) => e.merchantId === scope.merchantId);
      const listed = await t.services.webhookStore.listEvents(scope, {}, { limit: 100 });
      assert.deepEqual(
        listed.data.map((e) => [e.id, asJson(e.subject)]),
        [...mine].reverse().map((e) => [e.id, asJson(e.subject)]),
      );
      const after = await t.services.webhookStore.eventsAfter(scope, '00000000-0000-0000-0000-000000000000', 100);
      assert.deepEqual(
        after.map((e) => asJson(e.subject)),
        mine.map((e) => asJson(e.subject)),
      );
      const some = await t.services.webhookStore.eventsWithIds(scope, [mine[0]!.id, mine[2]!.id]);
      assert.deepEqual(
        some.map((e) => asJson(e.subject)),
        [mine[0]!, mine[2]!].map((e) => asJson(e.subject)),
      );
    });

    it('keeps an event whole when its patch would name a path JSON Patch refuses (a `__proto__` metadata key)', async () => {
      const metadata = (value: string) => JSON.parse(`{"__proto__": "${value}", "order": "7"}`) as Record<string, string>;
      const first = event(scope, 'collect.payment.created', paymentSubject('order-proto', { status: 'pending', metadata: metadata('a') }));
      const last = event(scope, 'collect.payment.completed', paymentSubject('order-proto', { status: 'completed', metadata: metadata('b') }));
      await t.services.database.db.transaction().execute((trx) => new EventOutbox(t.services.database.db).insert(trx, [first, last]));
      const row = await t.services.database.db.selectFrom('events').select(['base_event_id']).where('id', '=', first.id).executeTakeFirstOrThrow();
      assert.equal(row.base_event_id, null);
      const read = await t.services.webhookStore.eventsWithIds(scope, [first.id, last.id]);
      assert.deepEqual(
        read.map((e) => JSON.stringify(e.subject)),
        [first, last].map((e) => JSON.stringify(e.subject)),
      );
      written.push(first, last);
    });

    it('reads a patched event on a page that leaves its base out', async () => {
      // Newest first, one a page: `processing` comes on a page of its own, after its base's.
      const seen: unknown[] = [];
      let startingAfter: string | undefined;
      for (;;) {
        const page = await t.services.webhookStore.listEvents(scope, {}, { limit: 1, ...(startingAfter ? { startingAfter } : {}) });
        seen.push(...page.data.map((e) => [e.type, asJson(e.subject)]));
        if (!page.hasMore) break;
        startingAfter = page.data[0]!.id;
      }
      const mine = written.filter((e) => e.merchantId === scope.merchantId);
      assert.deepEqual(
        seen,
        [...mine].reverse().map((e) => [e.type, asJson(e.subject)]),
      );
      const filtered = await t.services.webhookStore.listEvents(scope, { types: ['collect.payment.created'] }, { limit: 10 });
      assert.deepEqual(
        filtered.data.map((e) => asJson(e.subject)),
        mine
          .filter((e) => e.type === 'collect.payment.created')
          .reverse()
          .map((e) => asJson(e.subject)),
      );
    });

    it('fans patched events out and loads them for sending with their own subject', async () => {
      const endpoint = await t.services.webhooks.createEndpoint(scope, { url: 'http://receiver.example/base' });
      // A pass of one event at a time: the base is never in the same pass as its patches.
      while ((await t.services.webhooks.fanOut(1)) > 0);
      const deliveries = await t.services.database.db.selectFrom('webhook_deliveries').select(['id', 'event_id']).where('destination', '=', endpoint.id).execute();
      const mine = written.filter((e) => e.merchantId === scope.merchantId);
      assert.deepEqual(deliveries.map((d) => d.event_id).sort(), mine.map((e) => e.id).sort());
      // One at a time too: a claim that holds a patched event without its base.
      for (const delivery of deliveries) {
        const loaded = await t.services.webhookStore.loadForSending([{ id: delivery.id, eventId: delivery.event_id, destination: endpoint.id } as WebhookDelivery]);
        const expected = mine.find((e) => e.id === delivery.event_id)!;
        assert.deepEqual(asJson(loaded.get(delivery.id)!.event.subject), asJson(expected.subject), expected.type);
      }
    });

    it('stores a sandbox creation’s three events as one snapshot and two patches', async () => {
      const merchant = await t.newMerchant({ name: 'Base creator' });
      const payment = await collectClient(t.app, merchant.testKey).createOk(direct());
      const rows = await t.services.database.db
        .selectFrom('events')
        .select(['id', 'type', 'payload', 'base_event_id'])
        .where('merchant_id', '=', merchant.merchantId)
        .orderBy('id')
        .execute();
      assert.deepEqual(
        rows.map((row) => [row.type, row.base_event_id]),
        [
          ['collect.payment.created', rows[2]!.id],
          ['collect.payment.processing', rows[2]!.id],
          ['collect.payment.completed', null],
        ],
      );
      for (const patched of rows.slice(0, 2)) {
        assert.ok(patched.payload.length < rows[2]!.payload.length / 2, `${patched.type}: a patch of ${patched.payload.length} characters against ${rows[2]!.payload.length}`);
      }
      const events = await t.services.webhookStore.listEvents({ merchantId: merchant.merchantId, environment: 'test' }, {}, { limit: 10 });
      const statuses = events.data.map((e) => (e.subject as { payment: { id: string; status: string } }).payment);
      assert.deepEqual(
        statuses.map((p) => [p.id, p.status]),
        [
          [payment.id, 'completed'],
          [payment.id, 'processing'],
          [payment.id, 'pending'],
        ],
      );
    });
  });

  describe(`migration 0042 (event payload base) on ${target.name}`, { skip: target.skip }, () => {
    it('stores every snapshot whole again when rolled back', async () => {
      const fresh = await target.open();
      try {
        const db = fresh.database.db;
        const owner = newId();
        await db.insertInto('merchants').values({ id: owner, name: 'Migration owner', status: 'active', kyc_status: 'validated', created_at: at, updated_at: at }).execute();
        const scope: TenantScope = { merchantId: owner, environment: 'test' };
        const events = [
          event(scope, 'collect.payment.created', paymentSubject('m-1', { status: 'pending' })),
          event(scope, 'collect.payment.completed', paymentSubject('m-1', { status: 'completed', pspReference: 'p' })),
        ];
        await db.transaction().execute((trx) => new EventOutbox(db).insert(trx, events));
        assert.notEqual((await db.selectFrom('events').select('base_event_id').where('id', '=', events[0]!.id).executeTakeFirstOrThrow()).base_event_id, null);
        await migrateTo(fresh.database, '0041-event-fanout-queue');
        const rows = await db.selectFrom('events').select(['id', 'payload']).where('merchant_id', '=', owner).orderBy('id').execute();
        assert.deepEqual(
          rows.map((row) => JSON.parse(row.payload) as unknown),
          events.map((e) => asJson(e.subject)),
        );
        await migrateToLatest(fresh.database);
      } finally {
        await fresh.close();
      }
    });
  });
}
