/**
 * Webhook delivery at scale, on every database, with real receivers: wake-up on commit (in one
 * process and across processes), in-flight bounds per endpoint, back-off, isolation of a slow
 * receiver and of a busy merchant, order of one payment's events, batched results.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { pino } from 'pino';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { newId } from '../../src/core/shared/ids.js';
import { createServices, type Services } from '../../src/services.js';
import { openDatabase } from '../../src/storage/database.js';
import { WebhookDeliveryJob, type DeliveryJobOptions } from '../../src/webhooks/webhook-delivery-job.js';
import { renderDelivery } from '../../src/http/contracts/index.js';
import { webhookSenders } from '../../src/webhooks/webhook-senders.js';
import { eventFanoutJob } from '../../src/workers/event-fanout-job.js';
import { bridgeWorkSignals } from '../../src/workers/signal-bridge.js';
import { WorkerPool } from '../../src/workers/worker-pool.js';
import { collectClient, direct } from '../support/collect-client.js';
import { FakeClock } from '../support/fake-clock.js';
import { buildTestApp, TEST_SERVER_SECRET, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await sleep(10);
  }
}

for (const target of testDatabases()) {
  describe(`webhook delivery at scale on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let receiver: WebhookReceiver;
    let merchant: Awaited<ReturnType<TestApp['newMerchant']>>;
    let api: ReturnType<typeof collectClient>;
    const clock = new FakeClock(new Date());
    const jobs: WebhookDeliveryJob[] = [];

    const makeJob = (options: DeliveryJobOptions = {}, services: Services = t.services) => {
      const job = new WebhookDeliveryJob(
        {
          store: services.webhookStore,
          webhooks: services.webhooks,
          senderFor: webhookSenders({ dev: true }),
          clock,
          newId,
          publicUrl: 'http://localhost:8080',
          render: renderDelivery,
          onSlotFree: () => services.signals.wakeLocal('deliveries'),
        },
        { timeoutMs: 5_000, random: () => 0.5, ...options },
      );
      jobs.push(job);
      return job;
    };

    async function endpoint(url: string, extra: Record<string, unknown> = {}, key = merchant.testKey): Promise<{ id: string }> {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/webhook-endpoints',
        headers: { authorization: `Bearer ${key}` },
        payload: { url, events: ['collect.payment.created'], ...extra },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.json();
    }

    const fanOutAll = async () => {
      while ((await t.services.webhooks.fanOut()) > 0);
    };
    const waiting = (r: WebhookReceiver, path?: string) => r.requests.filter((q) => q.state === 'waiting' && (path === undefined || q.url === path)).length;

    before(async () => {
      t = await buildTestApp(target, { clock });
    });
    after(() => t.close());
    beforeEach(async () => {
      receiver = await startWebhookReceiver();
      merchant = await t.newMerchant();
      api = collectClient(t.app, merchant.testKey);
    });
    afterEach(async () => {
      await receiver.close();
      await Promise.all(jobs.splice(0).map((job) => job.drain()));
    });

    it('wakes the workers when a payment commits, without waiting for the polling pause', async () => {
      await endpoint(`${receiver.origin}/wake`);
      const fanout = eventFanoutJob(t.services.webhooks, { idleDelayMs: 60_000 });
      const pool = new WorkerPool([fanout, makeJob({ idleDelayMs: 60_000 })], pino({ level: 'silent' }), t.services.signals);
      pool.start();
      try {
        await sleep(100); // both loops are now in their one-minute pause
        await api.createOk(direct());
        await until(() => receiver.requests.length === 1, 10_000, 'the webhook (polling alone would take a minute)');
      } finally {
        await pool.stop();
      }
    });

    it('wakes another process’s workers through the database (LISTEN/NOTIFY)', { skip: target.name !== 'postgres' && 'one process per SQLite database' }, async () => {
      const schema = new URL(t.db.url).searchParams.get('options')!.split('=')[1];
      const otherDb = openDatabase(t.db.target, { postgresSchema: schema });
      const other = createServices({ database: otherDb, catalog: loadDefaultCatalog(), clock, serverSecret: () => TEST_SERVER_SECRET });
      const here = await bridgeWorkSignals(t.services.signals, t.services.database.notifications!);
      const there = await bridgeWorkSignals(other.signals, otherDb.notifications!);
      try {
        let woken = 0;
        other.signals.subscribe('events', () => (woken += 1));
        await api.createOk(direct());
        await until(() => woken > 0, 5_000, 'the other process to be told');
      } finally {
        await here.close();
        await there.close();
        await otherDb.close();
      }
    });

    it('keeps 10 deliveries in flight per endpoint by default, or the endpoint’s own max_in_flight', async () => {
      receiver.answerWith({ status: 200, delayMs: 800 });
      await endpoint(`${receiver.origin}/default`);
      await endpoint(`${receiver.origin}/three`, { max_in_flight: 3 });
      for (let i = 0; i < 14; i++) await api.createOk(direct());
      await fanOutAll();
      const job = makeJob();
      await job.runOnce();
      await until(() => waiting(receiver) === 13, 3_000, '13 requests in flight');
      assert.equal(waiting(receiver, '/default'), 10);
      assert.equal(waiting(receiver, '/three'), 3);
      await job.runOnce();
      await sleep(100);
      assert.equal(waiting(receiver), 13, 'no more while the bound is reached');
    });

    it('backs off a receiver that answers 503: one in flight, then one more per quick success', async () => {
      let first = true;
      receiver.answerWith(() => {
        if (first) {
          first = false;
          return { status: 503 };
        }
        return { status: 200, delayMs: 300 };
      });
      await endpoint(`${receiver.origin}/busy`);
      const job = makeJob();
      await api.createOk(direct());
      await fanOutAll();
      await job.runOnce();
      await job.drain();
      assert.equal(receiver.requests.length, 1);

      for (let i = 0; i < 8; i++) await api.createOk(direct());
      await fanOutAll();
      await job.runOnce();
      await until(() => receiver.requests.length === 2, 3_000, 'the next request');
      await job.runOnce();
      await sleep(100);
      assert.equal(waiting(receiver), 1, 'halved to one in flight');
      await job.drain();
      await job.runOnce();
      await until(() => waiting(receiver) === 2, 3_000, 'two in flight after a success');
    });

    it('keeps a timing-out receiver and a busy merchant from holding every slot', async () => {
      const slow = await startWebhookReceiver({ answer: { status: 200, delayMs: 3_000 } });
      try {
        const noisy = await t.newMerchant({ name: 'Noisy' });
        for (let i = 0; i < 3; i++) await endpoint(`${slow.origin}/slow-${i}`, {}, noisy.testKey);
        const noisyApi = collectClient(t.app, noisy.testKey);
        for (let i = 0; i < 10; i++) await noisyApi.createOk(direct());
        await endpoint(`${receiver.origin}/quiet`);
        for (let i = 0; i < 5; i++) await api.createOk(direct());
        await fanOutAll();
        // Six slots; without a merchant budget the noisy merchant's streams would take all six.
        const job = makeJob({ maxInFlight: 6, timeoutMs: 2_000, budgets: { perStream: 2, perMerchant: 4 } });
        const started = Date.now();
        for (let pass = 0; pass < 100 && receiver.requests.length < 5; pass++) {
          await job.runOnce();
          await sleep(20);
        }
        assert.equal(receiver.requests.length, 5);
        assert.ok(Date.now() - started < 2_000, 'the quiet merchant did not wait for the slow receiver');
        assert.equal(waiting(slow), 4, 'the noisy merchant holds at most its budget');
      } finally {
        await slow.close();
      }
    });

    it('delivers one payment’s events to a receiver in order, one at a time', async () => {
      receiver.answerWith({ status: 200, delayMs: 150 });
      await endpoint(`${receiver.origin}/ordered`, { events: ['*'] });
      await api.createOk(direct());
      await fanOutAll();
      const job = makeJob();
      let mostAtOnce = 0;
      for (let pass = 0; pass < 200 && receiver.requests.length < 3; pass++) {
        await job.runOnce();
        mostAtOnce = Math.max(mostAtOnce, waiting(receiver));
        await sleep(10);
      }
      await job.drain();
      assert.deepEqual(
        receiver.requests.map((r) => JSON.parse(r.body).type),
        ['collect.payment.created', 'collect.payment.processing', 'collect.payment.completed'],
      );
      assert.equal(mostAtOnce, 1);
    });

    it('records every try of batched results: thirty sends, thirty attempt rows', async () => {
      await endpoint(`${receiver.origin}/batch`);
      for (let i = 0; i < 30; i++) await api.createOk(direct());
      await fanOutAll();
      const job = makeJob();
      while ((await job.runOnce()) > 0) await job.drain();
      await job.drain();
      const rows = await t.services.database.db
        .selectFrom('webhook_deliveries')
        .leftJoin('webhook_attempts', 'webhook_attempts.delivery_id', 'webhook_deliveries.id')
        .select(['webhook_deliveries.status', 'webhook_deliveries.attempts', 'webhook_attempts.status_code'])
        .where('webhook_deliveries.merchant_id', '=', merchant.merchantId)
        .execute();
      assert.equal(rows.length, 30);
      assert.ok(rows.every((r) => r.status === 'succeeded' && r.attempts === 1 && r.status_code === 200));
    });
  });
}
