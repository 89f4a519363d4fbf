/**
 * What orders one object's events (docs/webhooks.md "Ordering events"), on every database: the
 * snapshots of one change share `updated_at` (and often `created_at`), so receivers are told to
 * order by the event id, a UUIDv7. This proves that advice: sorted by id, a payment's events come
 * in the order its statuses changed, and the events list (newest first) agrees.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectClient, direct } from '../support/collect-client.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

interface WireEvent {
  id: string;
  type: string;
  created_at: string;
  data: { object: { status: string; updated_at: string } };
}

const byId = (events: WireEvent[]) => [...events].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

for (const target of testDatabases()) {
  describe(`event order on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;
    let api: ReturnType<typeof collectClient>;

    before(async () => {
      t = await buildTestApp(target);
      key = (await t.newMerchant()).testKey;
      api = collectClient(t.app, key);
    });
    after(() => t.close());

    async function eventsAbout(reference: string): Promise<WireEvent[]> {
      const res = await t.app.inject({ url: `/api/v1/events?reference=${encodeURIComponent(reference)}&limit=100`, headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.statusCode, 200, res.body);
      return (res.json() as { data: WireEvent[] }).data;
    }

    it('orders the events of one request by id, where their updated_at cannot', async () => {
      const payment = await api.createOk(direct());
      const events = await eventsAbout(payment.reference);
      assert.deepEqual(
        byId(events).map((event) => event.type),
        ['collect.payment.created', 'collect.payment.processing', 'collect.payment.completed'],
      );
      // The reason for the advice: one request's snapshots share one updated_at.
      assert.equal(new Set(events.map((event) => event.data.object.updated_at)).size, 1);
      assert.deepEqual(events, [...byId(events)].reverse(), 'the list is newest first by id');
    });

    it('orders the events of successive requests by id, in the order the statuses changed', async () => {
      const payment = await api.createOk(direct({ country: 'CI', operator: 'orange_ci', customer: { phone: '0700000000' } }));
      assert.equal(payment.status, 'awaiting_otp');
      const stillPending = await api.post(payment.reference, 'confirm', { otp: '111111' });
      assert.equal(stillPending.json().status, 'pending', stillPending.body);
      const cancelled = await api.post(payment.reference, 'cancel');
      assert.equal(cancelled.json().status, 'cancelled', cancelled.body);

      const events = byId(await eventsAbout(payment.reference));
      assert.deepEqual(
        events.map((event) => [event.type, event.data.object.status]),
        [
          ['collect.payment.created', 'pending'],
          ['collect.payment.awaiting_otp', 'awaiting_otp'],
          ['collect.payment.pending', 'pending'],
          ['collect.payment.cancelled', 'cancelled'],
        ],
      );
      const times = events.map((event) => event.created_at);
      assert.deepEqual(times, [...times].sort(), 'created_at never contradicts the id order');
    });
  });
}
