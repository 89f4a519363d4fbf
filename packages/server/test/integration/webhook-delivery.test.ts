/**
 * Webhook delivery end to end on every database, with a real HTTP receiver whose answers the test
 * controls and a clock the test moves (retries are checked without sleeping).
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { newId } from '../../src/core/shared/ids.js';
import { retryDelaysSeconds } from '../../src/core/webhooks/retry-schedule.js';
import { defaultDeliveryBudgets } from '../../src/core/webhooks/delivery-budgets.js';
import { createServices } from '../../src/services.js';
import { openDatabase } from '../../src/storage/database.js';
import { WebhookDeliveryJob } from '../../src/webhooks/webhook-delivery-job.js';
import { renderDelivery } from '../../src/http/contracts/index.js';
import { webhookSenders } from '../../src/webhooks/webhook-senders.js';
import { collectClient, direct, hosted } from '../support/collect-client.js';
import { FakeClock } from '../support/fake-clock.js';
import { buildTestApp, TEST_SERVER_SECRET, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

/** The documented scheme, computed here independently of the project's signing code. */
function expectedV1(secret: string, timestamp: string, rawBody: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex');
}

function parseSignature(header: string): { t: string; v1: string[] } {
  const parts = header.split(',').map((p) => p.split('='));
  return { t: parts.find(([k]) => k === 't')![1]!, v1: parts.filter(([k]) => k === 'v1').map(([, v]) => v!) };
}

for (const target of testDatabases()) {
  describe(`webhook delivery on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let clock: FakeClock;
    let receiver: WebhookReceiver;
    let merchant: Awaited<ReturnType<TestApp['newMerchant']>>;
    let api: ReturnType<typeof collectClient>;
    let job: WebhookDeliveryJob;

    const makeJob = (services = t.services, options: ConstructorParameters<typeof WebhookDeliveryJob>[1] = {}) =>
      new WebhookDeliveryJob(
        {
          store: services.webhookStore,
          webhooks: services.webhooks,
          senderFor: webhookSenders({ dev: true }),
          clock,
          newId,
          publicUrl: 'http://localhost:8080',
          render: renderDelivery,
        },
        { timeoutMs: 2_000, random: () => 0.5, ...options },
      );

    /** Fan out new events, then deliver everything due now, waiting for the sends. */
    async function pump(deliveryJob = job): Promise<void> {
      while ((await t.services.webhooks.fanOut()) > 0);
      while ((await deliveryJob.runOnce()) > 0) await deliveryJob.drain();
      await deliveryJob.drain();
    }

    const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, key = merchant.testKey) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}` }, ...(payload !== undefined ? { payload: payload as object } : {}) });

    async function endpoint(path: string, extra: Record<string, unknown> = {}, key = merchant.testKey) {
      const res = await call('POST', '/webhook-endpoints', { url: `${receiver.origin}${path}`, ...extra }, key);
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as { id: string; secret: string };
    }

    const requestsTo = (path: string) => receiver.requests.filter((r) => r.url === path);

    /** What a worker's claim at `now` passes: ten at most, a 90 s lease, the default budgets. */
    const claimAt = (now: Date, claimToken = newId()) => ({
      now: now.toISOString(),
      limit: 10,
      leaseUntil: new Date(now.getTime() + 90_000).toISOString(),
      claimToken,
      budgets: defaultDeliveryBudgets,
    });

    before(async () => {
      clock = new FakeClock(new Date());
      t = await buildTestApp(target, { clock });
    });
    after(() => t.close());
    beforeEach(async () => {
      receiver = await startWebhookReceiver();
      merchant = await t.newMerchant();
      api = collectClient(t.app, merchant.testKey);
      job = makeJob();
    });
    afterEach(async () => {
      await job.drain();
      await receiver.close();
    });

    it('POSTs each event, signed exactly as documented, with its event id and our user agent', async () => {
      const hook = await endpoint('/hooks');
      const payment = await api.createOk(direct());
      await pump();
      const received = requestsTo('/hooks');
      assert.equal(received.length, 3);
      const types = received.map((r) => JSON.parse(r.body).type).sort();
      assert.deepEqual(types, ['collect.payment.completed', 'collect.payment.created', 'collect.payment.processing']);
      for (const request of received) {
        assert.equal(request.method, 'POST');
        assert.match(String(request.headers['content-type']), /^application\/json/);
        assert.match(String(request.headers['user-agent']), /Akwe/);
        const envelope = JSON.parse(request.body);
        assert.equal(request.headers['x-service-event-id'], envelope.id);
        assert.equal(envelope.event_version, '2026-06');
        assert.equal(envelope.environment, 'test');
        assert.equal(envelope.merchant_id, merchant.merchantId);
        assert.equal(envelope.data.object.reference, payment.reference);
        assert.equal(envelope.data.object.sandbox, true);
        const { t: timestamp, v1 } = parseSignature(String(request.headers['x-service-signature']));
        assert.equal(Number(timestamp), Math.floor(clock.now().getTime() / 1000));
        assert.deepEqual(v1, [expectedV1(hook.secret, timestamp, request.body)]);
      }
      const deliveries = (await call('GET', `/webhook-endpoints/${hook.id}/deliveries`)).json();
      assert.deepEqual(
        deliveries.data.map((d: { status: string }) => d.status),
        ['succeeded', 'succeeded', 'succeeded'],
      );
      assert.equal(deliveries.data[0].attempts_log[0].status_code, 200);
    });

    it('retries a failing receiver on the schedule, then marks the delivery exhausted', async () => {
      receiver.answerWith({ status: 500, body: 'boom' });
      const hook = await endpoint('/retry', { events: ['collect.payment.created'] });
      await api.createOk(direct());
      await pump();
      assert.equal(requestsTo('/retry').length, 1);
      for (const [index, delay] of retryDelaysSeconds.entries()) {
        clock.advance(delay * 1000 - 1_000);
        await pump();
        assert.equal(requestsTo('/retry').length, index + 1, `not before the ${delay} s wait`);
        clock.advance(1_000);
        await pump();
        assert.equal(requestsTo('/retry').length, index + 2, `after the ${delay} s wait`);
      }
      clock.advance(400 * 86_400_000);
      await pump();
      assert.equal(requestsTo('/retry').length, 11);
      const [delivery] = (await call('GET', `/webhook-endpoints/${hook.id}/deliveries`)).json().data;
      assert.equal(delivery.status, 'exhausted');
      assert.equal(delivery.attempts, 11);
      assert.equal(delivery.attempts_log.length, 11);
      assert.equal(delivery.attempts_log[0].response_excerpt, 'boom');
      assert.equal(delivery.last_status_code, 500);
    });

    it('stores an answer holding NUL characters (PostgreSQL refuses them in text) without failing the results recorded with it', async () => {
      receiver.answerWith((request) => (request.url.startsWith('/nul') ? { status: 200, body: 'ok\u0000\u0000done' } : { status: 200, body: 'fine' }));
      const nul = await endpoint('/nul', { events: ['collect.payment.created'] });
      const other = await endpoint('/plain', { events: ['collect.payment.created'] });
      await api.createOk(direct());
      await pump();
      const [sent] = (await call('GET', `/webhook-endpoints/${nul.id}/deliveries`)).json().data;
      assert.equal(sent.status, 'succeeded');
      assert.equal(sent.attempts_log[0].response_excerpt, 'ok\ufffd\ufffddone');
      const [beside] = (await call('GET', `/webhook-endpoints/${other.id}/deliveries`)).json().data;
      assert.equal(beside.status, 'succeeded');
    });

    it("sends what still waits to the endpoint's new URL once it changes", async () => {
      receiver.answerWith((request) => (request.url === '/moving-old' ? { status: 500 } : { status: 200 }));
      const hook = await endpoint('/moving-old', { events: ['collect.payment.created'] });
      await api.createOk(direct());
      await pump();
      assert.equal(requestsTo('/moving-old').length, 1);
      const patched = await call('PATCH', `/webhook-endpoints/${hook.id}`, { url: `${receiver.origin}/moving-new` });
      assert.equal(patched.statusCode, 200, patched.body);
      clock.advance(retryDelaysSeconds[0]! * 1000 + 1_000);
      await pump();
      assert.equal(requestsTo('/moving-old').length, 1, 'the old URL gets no retry');
      assert.equal(requestsTo('/moving-new').length, 1);
      const [delivery] = (await call('GET', `/webhook-endpoints/${hook.id}/deliveries`)).json().data;
      assert.equal(delivery.status, 'succeeded');
    });

    it('spreads retries with jitter of ±10 % around the schedule', async () => {
      const jittery = makeJob(t.services, { random: () => 0 });
      receiver.answerWith({ status: 503 });
      const hook = await endpoint('/jitter', { events: ['collect.payment.created'] });
      await api.createOk(direct());
      const started = clock.now().getTime();
      await pump(jittery);
      const [delivery] = (await call('GET', `/webhook-endpoints/${hook.id}/deliveries`)).json().data;
      assert.equal(Date.parse(delivery.next_attempt_at) - started, 4_500);
    });

    it('honours Retry-After when the receiver asks for longer than the schedule', async () => {
      receiver.answerWith({ status: 503, headers: { 'Retry-After': '120' } });
      const hook = await endpoint('/later', { events: ['collect.payment.created'] });
      await api.createOk(direct());
      const started = clock.now().getTime();
      await pump();
      const [delivery] = (await call('GET', `/webhook-endpoints/${hook.id}/deliveries`)).json().data;
      assert.equal(Date.parse(delivery.next_attempt_at) - started, 120_000);
      clock.advance(60_000);
      await pump();
      assert.equal(requestsTo('/later').length, 1);
    });

    it('disables the endpoint on 410 Gone and sends it nothing more', async () => {
      receiver.answerWith({ status: 410 });
      const hook = await endpoint('/gone', { events: ['collect.payment.created', 'collect.payment.failed'] });
      await api.createOk(direct());
      await pump();
      assert.equal(requestsTo('/gone').length, 1);
      const state = (await call('GET', `/webhook-endpoints/${hook.id}`)).json();
      assert.equal(state.enabled, false);
      assert.match(state.disabled_reason, /410/);
      const statuses = (await call('GET', `/webhook-endpoints/${hook.id}/deliveries`)).json().data.map((d: { status: string }) => d.status);
      assert.deepEqual(statuses, ['cancelled']);
      await api.createOk(direct({ customer: { phone: '0197000001' } }));
      clock.advance(3_600_000);
      await pump();
      assert.equal(requestsTo('/gone').length, 1);
    });

    it('never follows a redirect', async () => {
      receiver.answerWith({ status: 301, headers: { Location: `${'http://127.0.0.1:1'}/elsewhere` } });
      const hook = await endpoint('/moved', { events: ['collect.payment.created'] });
      await api.createOk(direct());
      await pump();
      assert.equal(receiver.requests.length, 1);
      const [delivery] = (await call('GET', `/webhook-endpoints/${hook.id}/deliveries`)).json().data;
      assert.equal(delivery.status, 'retrying');
      assert.equal(delivery.last_status_code, 301);
    });

    it('gives up on a receiver slower than the timeout (30 s by default) and retries later', async () => {
      assert.equal(new WebhookDeliveryJob({} as never)['options'].timeoutMs, 30_000);
      const impatient = makeJob(t.services, { timeoutMs: 200 });
      receiver.answerWith({ status: 200, delayMs: 5_000 });
      const hook = await endpoint('/slow', { events: ['collect.payment.created'] });
      await api.createOk(direct());
      await pump(impatient);
      const [delivery] = (await call('GET', `/webhook-endpoints/${hook.id}/deliveries`)).json().data;
      assert.equal(delivery.status, 'retrying');
      assert.match(delivery.attempts_log[0].error, /timeout/i);
    });

    it('delivers after a crash mid-delivery, once the dead worker’s lease runs out', async () => {
      await endpoint('/crash', { events: ['collect.payment.created'] });
      await api.createOk(direct());
      while ((await t.services.webhooks.fanOut()) > 0);
      // A worker claims the delivery and dies before answering: exactly the state it leaves behind.
      const now = clock.now();
      const deadToken = newId();
      const claimed = await t.services.webhookStore.claimDue(claimAt(now, deadToken));
      assert.equal(claimed.length, 1);
      await pump();
      assert.equal(requestsTo('/crash').length, 0, 'a live lease is respected');
      clock.advance(91_000);
      await pump();
      assert.equal(requestsTo('/crash').length, 1);
      const late = await t.services.webhookStore.recordTries([
        {
          delivery: claimed[0]!,
          claimToken: deadToken,
          attempt: {
            id: newId(),
            deliveryId: claimed[0]!.id,
            attemptNumber: 1,
            attemptedAt: now.toISOString(),
            statusCode: 500,
            durationMs: 1,
            responseExcerpt: null,
            error: null,
          },
          update: { status: 'retrying', nextAttemptAt: now.toISOString(), lastStatusCode: 500, lastError: 'late', succeededAt: null },
        },
      ]);
      assert.deepEqual(late, [false], 'the dead worker cannot overwrite the result');
      const row = await t.services.database.db.selectFrom('webhook_deliveries').select(['status']).where('id', '=', claimed[0]!.id).executeTakeFirstOrThrow();
      assert.equal(row.status, 'succeeded');
    });

    it('records a batch of tries in one write: each only while its claim holds, with its own values', async () => {
      await endpoint('/batch', { events: ['collect.payment.created'] });
      await api.createOk(direct());
      await api.createOk(direct());
      while ((await t.services.webhooks.fanOut()) > 0);
      const now = clock.now();
      const token = newId();
      const claimed = await t.services.webhookStore.claimDue(claimAt(now, token));
      assert.equal(claimed.length, 2);
      const [kept, lost] = claimed as [(typeof claimed)[number], (typeof claimed)[number]];
      // Another worker took `lost` over after our lease: our result for it must not count.
      await t.services.database.db.updateTable('webhook_deliveries').set({ claim_token: newId() }).where('id', '=', lost.id).execute();
      const tryOf = (delivery: typeof kept, statusCode: number, status: 'succeeded' | 'retrying') => ({
        delivery,
        claimToken: token,
        attempt: { id: newId(), deliveryId: delivery.id, attemptNumber: 1, attemptedAt: now.toISOString(), statusCode, durationMs: 3, responseExcerpt: 'ok', error: null },
        update: {
          status,
          nextAttemptAt: now.toISOString(),
          lastStatusCode: statusCode,
          lastError: status === 'succeeded' ? null : `HTTP ${statusCode}`,
          succeededAt: status === 'succeeded' ? now.toISOString() : null,
        },
      });
      assert.deepEqual(await t.services.webhookStore.recordTries([tryOf(lost, 500, 'retrying'), tryOf(kept, 200, 'succeeded')]), [false, true]);
      const rows = await t.services.database.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'status', 'attempts', 'last_status_code', 'last_error', 'succeeded_at', 'claim_token', 'locked_until'])
        .where('id', 'in', [kept.id, lost.id])
        .execute();
      const byId = new Map(rows.map((row) => [row.id, row]));
      assert.deepEqual(
        { ...byId.get(kept.id), last_status_code: Number(byId.get(kept.id)!.last_status_code), attempts: Number(byId.get(kept.id)!.attempts) },
        { id: kept.id, status: 'succeeded', attempts: 1, last_status_code: 200, last_error: null, succeeded_at: now.toISOString(), claim_token: null, locked_until: null },
      );
      assert.equal(byId.get(lost.id)!.status, 'delivering', 'the taken-over delivery is left to its new holder');
      const attempts = await t.services.database.db.selectFrom('webhook_attempts').select(['delivery_id']).where('delivery_id', 'in', [kept.id, lost.id]).execute();
      assert.deepEqual(
        attempts.map((a) => a.delivery_id),
        [kept.id],
      );
      // The other "worker" never comes back: ended here, so its lease running out sends nothing in later tests.
      await t.services.database.db.updateTable('webhook_deliveries').set({ status: 'cancelled', claim_token: null, locked_until: null }).where('id', '=', lost.id).execute();
    });

    it('reads a whole claim’s events and endpoints at once, each delivery with its own; an endpoint deleted after the claim reads as gone', async () => {
      const kept = await endpoint('/kept', { events: ['collect.payment.created'] });
      const doomed = await endpoint('/doomed', { events: ['collect.payment.created'] });
      const payments = [(await api.createOk(direct())) as { reference: string }, (await api.createOk(direct())) as { reference: string }];
      while ((await t.services.webhooks.fanOut()) > 0);
      const now = clock.now();
      const claimed = await t.services.webhookStore.claimDue(claimAt(now));
      assert.equal(claimed.length, 4, 'two payments, two endpoints');
      assert.deepEqual(
        claimed.map((d) => d.status),
        ['delivering', 'delivering', 'delivering', 'delivering'],
        'claimed rows come back in their new state',
      );
      const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/webhook-endpoints/${doomed.id}`, headers: { authorization: `Bearer ${merchant.testKey}` } });
      assert.equal(deleted.statusCode, 200, deleted.body);

      const loaded = await t.services.webhookStore.loadForSending(claimed);
      assert.equal(loaded.size, 4);
      for (const delivery of claimed) {
        const context = loaded.get(delivery.id)!;
        assert.equal(context.event.id, delivery.eventId);
        const reference = (context.event.subject as { payment?: { reference: string } }).payment?.reference;
        assert.ok(
          payments.some((p) => p.reference === reference),
          'the event is the delivery’s own payment’s',
        );
        if (delivery.destination === kept.id) assert.equal(context.endpoint?.id, kept.id);
        else assert.equal(context.endpoint, undefined, 'the deleted endpoint is not read back');
      }
    });

    it('a claim for sending comes with each delivery’s event and endpoint', async () => {
      const hook = await endpoint('/with-context', { events: ['collect.payment.created'] });
      const payment = (await api.createOk(direct())) as { reference: string };
      while ((await t.services.webhooks.fanOut()) > 0);
      const now = clock.now();
      const { claimed, loading } = await t.services.webhookStore.claimForSending(claimAt(now));
      assert.equal(claimed.length, 1);
      const context = (await loading).get(claimed[0]!.id)!;
      assert.equal(context.event.id, claimed[0]!.eventId);
      assert.equal((context.event.subject as { payment?: { reference: string } }).payment?.reference, payment.reference);
      assert.equal(context.endpoint?.id, hook.id);
      await t.services.database.db.updateTable('webhook_deliveries').set({ status: 'cancelled', claim_token: null, locked_until: null }).where('id', '=', claimed[0]!.id).execute();
    });

    it('a send its receiver has answered frees its slot for the next claim while its result is written', async () => {
      await endpoint('/one-at-a-time', { events: ['collect.payment.created'] });
      await api.createOk(direct());
      await api.createOk(direct());
      while ((await t.services.webhooks.fanOut()) > 0);
      const now = clock.now();
      const claim = (answered?: ReadonlySet<string>) =>
        t.services.webhookStore.claimDue({ ...claimAt(now), budgets: { ...defaultDeliveryBudgets, perStream: 1 }, ...(answered ? { answered } : {}) });
      const first = await claim();
      assert.equal(first.length, 1, 'one in flight for the stream');
      assert.equal((await claim()).length, 0, 'the stream is full while the first send is in flight');
      const second = await claim(new Set([first[0]!.id]));
      assert.equal(second.length, 1, 'answered, the first no longer counts');
      assert.notEqual(second[0]!.id, first[0]!.id, 'and is not claimed again');
      await t.services.database.db
        .updateTable('webhook_deliveries')
        .set({ status: 'cancelled', claim_token: null, locked_until: null })
        .where('id', 'in', [first[0]!.id, second[0]!.id])
        .execute();
    });

    it('a claim whose events cannot be read sends nothing, and is delivered once after its lease', async () => {
      await endpoint('/unreadable', { events: ['collect.payment.created'] });
      await api.createOk(direct());
      while ((await t.services.webhooks.fanOut()) > 0);
      // The real store's claim, except that reading for sending fails (a database gone for a moment).
      const store = t.services.webhookStore;
      const failingStore = Object.create(store) as typeof store;
      failingStore.claimForSending = async (options) => ({ claimed: await store.claimDue(options), loading: Promise.reject(new Error('database unavailable')) });
      const failing = makeJob({ ...t.services, webhookStore: failingStore });
      assert.equal(await failing.runOnce(), 1, 'the delivery was claimed');
      await failing.drain();
      await pump();
      assert.equal(requestsTo('/unreadable').length, 0, 'nothing sent, and the claim is still held');
      clock.advance(91_000);
      await pump();
      assert.equal(requestsTo('/unreadable').length, 1, 'sent once, after the lease ran out');
    });

    it('never lets two workers both deliver the same event', async () => {
      await endpoint('/race', { events: ['collect.payment.created'] });
      for (let i = 0; i < 12; i++) await api.createOk(direct());
      while ((await t.services.webhooks.fanOut()) > 0);
      const separatePool = t.services.database.capabilities.concurrentWriters;
      const otherDb = separatePool ? openDatabase(t.db.target, { postgresSchema: new URL(t.db.url).searchParams.get('options')!.split('=')[1] }) : undefined;
      const otherServices = otherDb ? createServices({ database: otherDb, catalog: loadDefaultCatalog(), clock, serverSecret: () => TEST_SERVER_SECRET }) : t.services;
      const a = makeJob(t.services, { budgets: { perStream: 20 } });
      const b = makeJob(otherServices, { budgets: { perStream: 20 } });
      try {
        for (let round = 0; round < 10; round++) {
          await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
          await Promise.all([a.drain(), b.drain()]);
        }
      } finally {
        await otherDb?.close();
      }
      const ids = requestsTo('/race').map((r) => r.headers['x-service-event-id']);
      assert.equal(ids.length, 12);
      assert.equal(new Set(ids).size, 12);
      const successes = await t.services.database.db
        .selectFrom('webhook_attempts')
        .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
        .select('webhook_deliveries.event_id')
        .where('webhook_deliveries.merchant_id', '=', merchant.merchantId)
        .where('webhook_attempts.status_code', '=', 200)
        .execute();
      assert.equal(successes.length, 12);
    });

    it('keeps test and live apart: an event reaches only its own environment’s endpoints', async () => {
      await endpoint('/test-env');
      await endpoint('/live-env', {}, merchant.liveKey).catch(() => undefined);
      // Live endpoints must be HTTPS; register one directly through the service to watch it stay silent.
      await t.services.webhooks.createEndpoint({ merchantId: merchant.merchantId, environment: 'live' }, { url: `https://127.0.0.1:${receiver.port}/live-env` });
      await api.createOk(direct());
      await collectClient(t.app, merchant.liveKey).createOk(hosted());
      await pump();
      const testTypes = requestsTo('/test-env').map((r) => JSON.parse(r.body));
      assert.deepEqual(
        testTypes.map((e) => e.environment),
        ['test', 'test', 'test'],
      );
      assert.equal(requestsTo('/live-env').length, 0);
      const liveDeliveries = await t.services.database.db
        .selectFrom('webhook_deliveries')
        .select(['environment', 'target_url'])
        .where('merchant_id', '=', merchant.merchantId)
        .where('environment', '=', 'live')
        .execute();
      assert.equal(liveDeliveries.length, 1);
      assert.match(liveDeliveries[0]!.target_url, /live-env/);
    });

    it('sends an endpoint only the event types it subscribed to', async () => {
      await endpoint('/completed-only', { events: ['collect.payment.completed'] });
      await endpoint('/refunds', { events: ['collect.refund.*'] });
      const payment = await api.createOk(direct());
      await api.post(payment.reference, 'refunds', { amount: 1000 });
      await pump();
      assert.deepEqual(
        requestsTo('/completed-only').map((r) => JSON.parse(r.body).type),
        ['collect.payment.completed'],
      );
      assert.deepEqual(
        requestsTo('/refunds')
          .map((r) => JSON.parse(r.body).type)
          .sort(),
        ['collect.refund.completed', 'collect.refund.created'],
      );
    });

    it('POSTs a payment’s events to its callback_url, signed with the callback secret', async () => {
      const payment = await api.createOk(direct({ callback_url: `${receiver.origin}/callback` }));
      await pump();
      const received = requestsTo('/callback');
      // Sends run side by side, so arrival order is not guaranteed (receivers go by status, not order).
      assert.deepEqual(received.map((r) => JSON.parse(r.body).type).sort(), ['collect.payment.completed', 'collect.payment.created', 'collect.payment.processing']);
      const secret = (await call('GET', '/account/callback-secret')).json().secret;
      for (const request of received) {
        const { t: timestamp, v1 } = parseSignature(String(request.headers['x-service-signature']));
        assert.deepEqual(v1, [expectedV1(secret, timestamp, request.body)]);
        assert.equal(JSON.parse(request.body).data.object.id, payment.id);
      }
    });

    it('refuses private and loopback receivers for live endpoints, before any connection', async () => {
      await t.services.webhooks.createEndpoint({ merchantId: merchant.merchantId, environment: 'live' }, { url: `https://127.0.0.1:${receiver.port}/ssrf` });
      await collectClient(t.app, merchant.liveKey).createOk(hosted());
      await pump();
      assert.equal(receiver.requests.length, 0);
      const [row] = await t.services.database.db
        .selectFrom('webhook_attempts')
        .innerJoin('webhook_deliveries', 'webhook_deliveries.id', 'webhook_attempts.delivery_id')
        .select(['webhook_attempts.error'])
        .where('webhook_deliveries.merchant_id', '=', merchant.merchantId)
        .execute();
      assert.match(String(row!.error), /refused|private|loopback/i);
    });

    it('resends a delivered event on request', async () => {
      await endpoint('/again', { events: ['collect.payment.created'] });
      await api.createOk(direct());
      await pump();
      const [first] = requestsTo('/again');
      const eventId = String(first!.headers['x-service-event-id']);
      const res = await call('POST', `/events/${eventId}/resend`, {});
      assert.equal(res.statusCode, 202);
      await pump();
      const again = requestsTo('/again');
      assert.equal(again.length, 2);
      assert.equal(again[1]!.headers['x-service-event-id'], eventId);
    });

    it('signs with both secrets during a rotation overlap, and with the new one after', async () => {
      const hook = await endpoint('/rotate', { events: ['collect.payment.created'] });
      const rotated = (await call('POST', `/webhook-endpoints/${hook.id}/rotate-secret`, { overlap_seconds: 600 })).json();
      await api.createOk(direct());
      await pump();
      const during = requestsTo('/rotate')[0]!;
      const signed = parseSignature(String(during.headers['x-service-signature']));
      assert.deepEqual(signed.v1, [expectedV1(rotated.secret, signed.t, during.body), expectedV1(hook.secret, signed.t, during.body)]);
      clock.advance(601_000);
      await api.createOk(direct());
      await pump();
      const later = requestsTo('/rotate')[1]!;
      const afterOverlap = parseSignature(String(later.headers['x-service-signature']));
      assert.deepEqual(afterOverlap.v1, [expectedV1(rotated.secret, afterOverlap.t, later.body)]);
    });

    it('sends the earlier contract’s events to a legacy endpoint, base64-signed over key-sorted JSON', async () => {
      const hook = await endpoint('/legacy', { api_version: 'legacy', events: ['collect.payment.completed'] });
      const payment = await api.createOk(direct({ amount: 3000 }));
      await pump();
      const [request] = requestsTo('/legacy');
      assert.ok(request);
      const body = JSON.parse(request.body);
      assert.equal(body.type, 'collect.completed');
      assert.equal(body.data.status, 'COMPLETED');
      assert.equal(body.data.amount, 300_000);
      assert.equal(body.data.phone, payment.customer.phone);
      const sortedKeys = (value: unknown): unknown =>
        Array.isArray(value)
          ? value.map(sortedKeys)
          : value && typeof value === 'object'
            ? Object.fromEntries(
                Object.keys(value)
                  .sort()
                  .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
              )
            : value;
      assert.equal(request.body, JSON.stringify(sortedKeys(body)));
      assert.equal(request.headers['x-service-signature'], createHmac('sha256', hook.secret).update(request.body).digest('base64'));
    });

    it('deleting an endpoint while its delivery is in flight: the try is recorded, nothing is retried or sent elsewhere', async () => {
      receiver.answerWith({ status: 500, delayMs: 600 });
      const hook = await endpoint('/held', { events: ['collect.payment.created'] });
      await api.createOk(direct());
      while ((await t.services.webhooks.fanOut()) > 0);
      await job.runOnce();
      for (let i = 0; i < 100 && requestsTo('/held').length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(requestsTo('/held').length, 1, 'the try is in flight');
      const deleted = await t.app.inject({ method: 'DELETE', url: `/api/v1/webhook-endpoints/${hook.id}`, headers: { authorization: `Bearer ${merchant.testKey}` } });
      assert.equal(deleted.statusCode, 200, deleted.body);
      await job.drain();

      const rows = await t.services.database.db.selectFrom('webhook_deliveries').selectAll().where('destination', '=', hook.id).execute();
      assert.deepEqual(
        rows.map((r) => [r.status, r.attempts]),
        [['cancelled', 1]],
      );
      for (const delay of retryDelaysSeconds.slice(0, 3)) {
        clock.advance(delay * 1000 + 1_000);
        await pump();
      }
      assert.equal(receiver.requests.length, 1, 'no retry, and never redirected to another destination');
    });

    it('disabling an endpoint cancels its waiting deliveries', async () => {
      receiver.answerWith({ status: 503 });
      const hook = await endpoint('/disabled', { events: ['collect.payment.created'] });
      await api.createOk(direct());
      await api.createOk(direct());
      await pump();
      assert.equal(requestsTo('/disabled').length, 2);
      const patched = await call('PATCH', `/webhook-endpoints/${hook.id}`, { enabled: false });
      assert.equal(patched.statusCode, 200, patched.body);
      const rows = await t.services.database.db.selectFrom('webhook_deliveries').select('status').where('destination', '=', hook.id).execute();
      assert.deepEqual(
        rows.map((r) => r.status),
        ['cancelled', 'cancelled'],
      );
      clock.advance(3_600_000);
      await pump();
      assert.equal(requestsTo('/disabled').length, 2, 'nothing more is sent');
    });

    it('keeps a slow receiver from holding up the others (bounded sends per receiver)', async () => {
      const slow = await startWebhookReceiver({ answer: { status: 200, delayMs: 1_500 } });
      try {
        await t.services.webhooks.createEndpoint({ merchantId: merchant.merchantId, environment: 'test' }, { url: `${slow.origin}/slow`, eventTypes: ['collect.payment.created'] });
        await endpoint('/fast', { events: ['collect.payment.created'] });
        for (let i = 0; i < 5; i++) await api.createOk(direct());
        while ((await t.services.webhooks.fanOut()) > 0);
        const bounded = makeJob(t.services, { budgets: { perStream: 2 }, maxInFlight: 16 });
        // Keep passing while the slow receiver sits on its two: the fast one still gets all five.
        for (let pass = 0; pass < 40 && requestsTo('/fast').length < 5; pass++) {
          await bounded.runOnce();
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        assert.equal(requestsTo('/fast').length, 5);
        assert.equal(slow.requests.length, 2);
        await bounded.drain();
      } finally {
        await slow.close();
      }
    });
  });
}
