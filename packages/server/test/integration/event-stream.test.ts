/** GET /api/v1/events/stream through a real socket, on every database: new events, resuming, filtering, isolation, refusals. */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { collectClient, hosted } from '../support/collect-client.js';
import { SseReader } from '../support/sse-reader.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const READ_BUDGET = 777_777;
const HOUR_MS = 3_600_000;

interface Envelope {
  id: string;
  type: string;
  merchant_id: string;
  data: { object: { reference?: string } };
}

for (const target of testDatabases()) {
  describe(`event stream on ${target.name}`, { skip: target.skip, timeout: 60_000 }, () => {
    let t: TestApp;
    let baseUrl: string;
    let merchantId: string;
    let key: string;
    const readers: SseReader[] = [];

    before(async () => {
      // A read budget of its own value, so the stream's RateLimit-Limit shows which bucket it spends.
      // A poll of an hour: every event these tests wait for comes because its commit woke the stream.
      t = await buildTestApp(target, { env: { RATE_LIMIT_READ_PER_MINUTE: String(READ_BUDGET), EVENT_STREAM_POLL_MS: String(HOUR_MS) } });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      ({ merchantId, testKey: key } = await t.newMerchant());
    });
    after(async () => {
      await Promise.all(readers.map((reader) => reader.close()));
      await t.close();
    });

    async function open(streamKey: string, query = '', headers: Record<string, string> = {}): Promise<SseReader> {
      const res = await fetch(`${baseUrl}/api/v1/events/stream${query}`, { headers: { authorization: `Bearer ${streamKey}`, ...headers } });
      assert.equal(res.status, 200, await (res.status === 200 ? Promise.resolve('') : res.text()));
      assert.match(res.headers.get('content-type') ?? '', /^text\/event-stream/);
      assert.equal(res.headers.get('ratelimit-limit'), String(READ_BUDGET), 'one request of the read bucket');
      const reader = new SseReader(res);
      readers.push(reader);
      return reader;
    }

    async function newPayment(paymentKey = key): Promise<string> {
      const payment = hosted({ reference: `STREAM-${newId()}` });
      await collectClient(t.app, paymentKey).createOk(payment);
      return payment.reference;
    }

    async function nextEnvelope(reader: SseReader): Promise<Envelope> {
      const message = await reader.next();
      const envelope = JSON.parse(message.data) as Envelope;
      assert.equal(message.id, envelope.id);
      assert.equal(message.event, envelope.type);
      return envelope;
    }

    it('sends an event created after connecting, rendered as a current webhook body', async () => {
      const reader = await open(key);
      const reference = await newPayment();
      const envelope = await nextEnvelope(reader);
      assert.equal(envelope.type, 'collect.payment.created');
      assert.equal(envelope.merchant_id, merchantId);
      assert.equal(envelope.data.object.reference, reference);
      const listed = await t.app.inject({ url: `/api/v1/events/${envelope.id}`, headers: { authorization: `Bearer ${key}` } });
      assert.deepEqual(envelope, listed.json());
      await reader.close();
    });

    it('wakes when an event commits, without waiting for its (hour-long) poll', async () => {
      const reader = await open(key);
      await newPayment();
      await nextEnvelope(reader);
      // The stream has read its page and waits now: only the commit's signal can bring the next event.
      const next = await newPayment();
      assert.equal((await nextEnvelope(reader)).data.object.reference, next);
      await reader.close();
    });

    it('resumes after Last-Event-ID with what happened while away, without losing or repeating one', async () => {
      const first = await open(key);
      await newPayment();
      const seen = await nextEnvelope(first);
      await first.close();

      const whileAway = [await newPayment(), await newPayment()];
      const resumed = await open(key, '', { 'last-event-id': seen.id });
      const caughtUp = [await nextEnvelope(resumed), await nextEnvelope(resumed)];
      assert.deepEqual(
        caughtUp.map((e) => e.data.object.reference),
        whileAway,
      );
      const later = await newPayment();
      assert.equal((await nextEnvelope(resumed)).data.object.reference, later, 'the next message is the new event, not a repeat');

      const byQuery = await open(key, `?after=${caughtUp[0]!.id}`);
      assert.equal((await nextEnvelope(byQuery)).id, caughtUp[1]!.id);
      await Promise.all([resumed.close(), byQuery.close()]);
    });

    it('sends only the types asked for, with the subscription syntax', async () => {
      const reader = await open(key, '?types=payout.*');
      await newPayment();
      const payout = await t.app.inject({
        method: 'POST',
        url: '/api/v1/payout/mobile-money/',
        headers: { authorization: `Bearer ${key}`, 'idempotency-key': newId() },
        payload: { reference: `STREAM-PAYOUT-${newId().slice(-8)}`, amount: 100000, phone: '0197000000', country: 'BJ', operator: 'mtn_bj' },
      });
      assert.equal(payout.statusCode, 201, payout.body);
      const envelope = await nextEnvelope(reader);
      assert.match(envelope.type, /^payout\./);
      await reader.close();
    });

    it("never sends another merchant's events", async () => {
      const other = await t.newMerchant({ name: 'Other' });
      const reader = await open(other.testKey);
      await newPayment(key);
      const own = await newPayment(other.testKey);
      const envelope = await nextEnvelope(reader);
      assert.equal(envelope.merchant_id, other.merchantId);
      assert.equal(envelope.data.object.reference, own);
      await reader.close();
    });

    it('refuses a bad key (401), an unknown type and a malformed Last-Event-ID (400)', async () => {
      const badKey = await fetch(`${baseUrl}/api/v1/events/stream`, { headers: { authorization: 'Bearer ak_test_not_a_real_key_0123456789' } });
      assert.equal(badKey.status, 401);
      const badType = await fetch(`${baseUrl}/api/v1/events/stream?types=payout.nope`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(badType.status, 400);
      assert.equal(((await badType.json()) as { error: { code: string } }).error.code, 'validation_error');
      const badId = await fetch(`${baseUrl}/api/v1/events/stream`, { headers: { authorization: `Bearer ${key}`, 'last-event-id': "1' or 1=1" } });
      assert.equal(badId.status, 400);
    });
  });
}
