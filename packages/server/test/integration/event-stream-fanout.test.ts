/**
 * Many open event streams of one merchant and environment share one reader, on every database:
 * a commit's wake costs one read of the events table, not one per stream, and every stream still
 * gets every event, in the same order, with resuming intact.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import type { TenantScope } from '../../src/core/shared/environment.js';
import { newId } from '../../src/core/shared/ids.js';
import { collectClient, hosted } from '../support/collect-client.js';
import { SseReader } from '../support/sse-reader.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const STREAMS = 12;
const HOUR_MS = 3_600_000;

interface Envelope {
  id: string;
  type: string;
  data: { object: { reference?: string } };
}

for (const target of testDatabases()) {
  describe(`event stream fan-out on ${target.name}`, { skip: target.skip, timeout: 120_000 }, () => {
    let t: TestApp;
    let baseUrl: string;
    let merchantId: string;
    let key: string;
    const readers: SseReader[] = [];
    /** Reads of the events table for the merchant, by kind, since the last reset. */
    const reads = { eventsAfter: 0, eventIdsAfter: 0, eventsWithIds: 0 };
    let wakes = 0;

    before(async () => {
      // A poll of an hour: every read these tests count was caused by a commit's signal.
      t = await buildTestApp(target, { env: { EVENT_STREAM_POLL_MS: String(HOUR_MS) } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      ({ merchantId, testKey: key } = await t.newMerchant());
      // The real reads, counted where the streams' reader calls them.
      const webhooks = t.services.webhooks;
      for (const name of Object.keys(reads) as (keyof typeof reads)[]) {
        const real = webhooks[name].bind(webhooks) as (scope: TenantScope, ...rest: never[]) => Promise<unknown>;
        (webhooks as unknown as Record<string, unknown>)[name] = (scope: TenantScope, ...rest: never[]) => {
          if (scope.merchantId === merchantId) reads[name] += 1;
          return real(scope, ...rest);
        };
      }
      t.services.signals.subscribe('events', () => (wakes += 1));
    });
    afterEach(async () => {
      // Each test's streams end with it: the key may hold EVENT_STREAM_MAX_PER_KEY (20) at once.
      await Promise.all(readers.splice(0).map((reader) => reader.close()));
    });
    after(async () => {
      await t.close();
    });

    function resetCounts(): void {
      reads.eventsAfter = reads.eventIdsAfter = reads.eventsWithIds = 0;
      wakes = 0;
    }

    async function open(headers: Record<string, string> = {}): Promise<SseReader> {
      const res = await fetch(`${baseUrl}/api/v1/events/stream?types=collect.payment.created`, { headers: { authorization: `Bearer ${key}`, ...headers } });
      assert.equal(res.status, 200, await (res.status === 200 ? Promise.resolve('') : res.text()));
      const reader = new SseReader(res);
      readers.push(reader);
      return reader;
    }

    async function newPayment(): Promise<string> {
      const payment = hosted({ reference: `FANOUT-${newId()}` });
      await collectClient(t.app, key).createOk(payment);
      return payment.reference;
    }

    async function nextEnvelope(reader: SseReader): Promise<Envelope> {
      return JSON.parse((await reader.next()).data) as Envelope;
    }

    async function take(reader: SseReader, count: number): Promise<Envelope[]> {
      const envelopes: Envelope[] = [];
      while (envelopes.length < count) envelopes.push(await nextEnvelope(reader));
      return envelopes;
    }

    it('reads once per wake for all the streams of a merchant and environment, and each gets every event in order', async () => {
      const streams = await Promise.all(Array.from({ length: STREAMS }, () => open()));
      // Every stream has caught up and is live once it has seen this one.
      const first = await newPayment();
      for (const stream of streams) assert.equal((await nextEnvelope(stream)).data.object.reference, first);

      resetCounts();
      const started = Date.now();
      const references: string[] = [];
      for (let n = 0; n < 5; n++) references.push(await newPayment());
      const received = await Promise.all(streams.map((stream) => take(stream, references.length)));
      const seconds = (Date.now() - started) / 1000;

      for (const envelopes of received) {
        assert.deepEqual(
          envelopes.map((e) => e.data.object.reference),
          references,
          'every event, once, in the order of its commit',
        );
        const ids = envelopes.map((e) => e.id);
        assert.deepEqual(ids, [...ids].sort(), 'in id order');
      }
      assert.ok(wakes >= 1, 'the commits woke the reader');
      assert.ok(reads.eventsAfter <= wakes, `${reads.eventsAfter} reads of new events for ${wakes} wakes (${STREAMS} streams)`);
      assert.ok(reads.eventsAfter < STREAMS, `${reads.eventsAfter} reads of new events for ${STREAMS} streams`);
      // The look for late commits runs at most once a second, for all the streams together.
      assert.ok(reads.eventIdsAfter <= Math.ceil(seconds) + 1, `${reads.eventIdsAfter} looks back in ${seconds} s`);
      assert.equal(reads.eventsWithIds, 0, 'no event committed late');
    });

    it('sends the same events in the same order to every stream when commits race', async () => {
      const streams = await Promise.all(Array.from({ length: 4 }, () => open()));
      const first = await newPayment();
      for (const stream of streams) assert.equal((await nextEnvelope(stream)).data.object.reference, first);

      const references = await Promise.all(Array.from({ length: 20 }, () => newPayment()));
      const received = await Promise.all(streams.map((stream) => take(stream, references.length)));
      const ids = received[0]!.map((e) => e.id);
      assert.equal(new Set(ids).size, references.length, 'no event twice');
      assert.deepEqual(new Set(received[0]!.map((e) => e.data.object.reference)), new Set(references));
      for (const envelopes of received)
        assert.deepEqual(
          envelopes.map((e) => e.id),
          ids,
        );
    });

    it('sends an event that commits after a later id was sent (a late commit) to every stream, once', async () => {
      const streams = await Promise.all(Array.from({ length: 3 }, () => open()));
      // The copy below is minted 100 ms before the event, so after the streams' start (they skip anything older).
      await new Promise((resolve) => setTimeout(resolve, 300));
      await newPayment();
      const seen = await Promise.all(streams.map((stream) => nextEnvelope(stream)));
      // A copy of that event under an id minted 100 ms before it: as if its transaction had committed only now.
      const db = t.db.database.db;
      const row = await db.selectFrom('events').selectAll().where('id', '=', seen[0]!.id).executeTakeFirstOrThrow();
      const mintedAt = parseInt(seen[0]!.id.replace(/-/g, '').slice(0, 12), 16) - 100;
      const lateId = `${mintedAt
        .toString(16)
        .padStart(12, '0')
        .replace(/^(.{8})(.{4})$/, '$1-$2')}-7${newId().slice(15)}`;
      assert.ok(lateId < seen[0]!.id);
      await db
        .insertInto('events')
        .values({ ...row, id: lateId })
        .execute();
      // The look for late commits runs at most once a second; wakes come with the next commits.
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      const next = await newPayment();
      for (const stream of streams) {
        const received = [await nextEnvelope(stream), await nextEnvelope(stream)];
        assert.deepEqual(received.map((e) => e.id).sort(), [lateId, received.find((e) => e.data.object.reference === next)!.id].sort());
      }
    });

    it('catches a stream resuming by Last-Event-ID up while the others are live, then feeds it with them', async () => {
      const live = await open();
      const firstReference = await newPayment();
      const firstSeen = await nextEnvelope(live);
      assert.equal(firstSeen.data.object.reference, firstReference);
      const missed = [await newPayment(), await newPayment()];
      for (const reference of missed) assert.equal((await nextEnvelope(live)).data.object.reference, reference);

      const resumed = await open({ 'last-event-id': firstSeen.id });
      const fresh = await open();
      const caughtUp = [await nextEnvelope(resumed), await nextEnvelope(resumed)];
      assert.deepEqual(
        caughtUp.map((e) => e.data.object.reference),
        missed,
      );
      const later = await newPayment();
      for (const stream of [live, resumed, fresh]) assert.equal((await nextEnvelope(stream)).data.object.reference, later, 'the new event, not a repeat');
    });
  });
}
