/**
 * Prometheus metrics on every database: after some traffic (a payment, a payout, refused requests,
 * a webhook endpoint with deliveries) one scrape shows the requests by route pattern, payments and
 * payouts by status as the API reported them, the operator calls, the webhook queue as stored,
 * delivery outcomes, the jobs' counts and the pool.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import type { WebhookDeliveryJob } from '../../src/webhooks/webhook-delivery-job.js';
import { createJobs } from '../../src/workers/jobs.js';
import type { WorkerJob } from '../../src/workers/worker-pool.js';
import { collectClient, direct } from '../support/collect-client.js';
import { parseSamples, sampleValue, type Sample } from '../support/prometheus-text.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const target of testDatabases()) {
  describe(`metrics on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let receiver: WebhookReceiver;
    let jobs: WorkerJob[];
    let key: string;
    let payment: Wire;
    let payout: Wire;
    let samples: Sample[];

    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${key}`, ...(method === 'POST' ? { 'idempotency-key': newId() } : {}) },
        ...(payload ? { payload } : {}),
      });
    const job = (name: string) => jobs.find((candidate) => candidate.name === name)!;
    const scrape = async () => parseSamples((await t.services.metrics.scrape()).body);

    before(async () => {
      t = await buildTestApp(target, { env: { SANDBOX_FLOAT: '1000000' } });
      receiver = await startWebhookReceiver();
      jobs = createJobs(t.services, t.config);
      key = (await t.newMerchant()).testKey;

      const hook = await call('POST', '/webhook-endpoints', { url: `${receiver.origin}/hooks` });
      assert.equal(hook.statusCode, 201, hook.body);
      payment = await collectClient(t.app, key).createOk(direct());
      const created = await call('POST', '/payout/mobile-money/', { amount: 500_000, phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: `PAY-${newId()}` });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal((await job('payout-handoff').runOnce()) > 0, true, 'the hand-off job took the payout');
      payout = (await call('GET', `/payout/mobile-money/${created.json().reference}/`)).json();

      // Refused requests: an unknown payment (its id must not become a label), a bad body, no route.
      assert.equal((await collectClient(t.app, key).get('pay_does_not_exist_123')).statusCode, 404);
      assert.equal((await call('POST', '/collect/payments', { amount: 'lots' })).statusCode, 400);
      assert.equal((await call('GET', '/no/such/route/abc-987')).statusCode, 404);

      // The first deliveries: fanned out, one sent to the receiver (its try recorded), the rest queued.
      await job('event-fanout').runOnce();
      samples = await scrape();
    });
    after(async () => {
      await Promise.all(jobs.map((each) => each.stop?.()));
      await receiver.close();
      await t.close();
    });

    it('counts requests by route pattern, method and status, with their latency', () => {
      assert.equal(sampleValue(samples, 'akwe_http_requests_total', { route: '/api/v1/collect/payments', method: 'POST', status_code: '201' }), 1);
      assert.equal(sampleValue(samples, 'akwe_http_requests_total', { route: '/api/v1/collect/payments', method: 'POST', status_code: '400' }), 1);
      assert.equal(sampleValue(samples, 'akwe_http_requests_total', { route: '/api/v1/collect/payments/:reference_or_id', method: 'GET', status_code: '404' }), 1);
      assert.equal(sampleValue(samples, 'akwe_http_requests_total', { route: 'unmatched', method: 'GET', status_code: '404' }), 1);
      assert.equal(sampleValue(samples, 'akwe_http_request_duration_seconds_count', { route: '/api/v1/collect/payments', method: 'POST' }), 2);
      const routes = samples.filter((s) => s.name === 'akwe_http_requests_total').map((s) => s.labels.route!);
      assert.ok(
        !routes.some((route) => route.includes('pay_does_not_exist_123') || route.includes('abc-987') || route.includes(payment.id as string)),
        `a raw URL became a label: ${routes.join(', ')}`,
      );
    });

    it('reports payments and payouts by environment and status as the API reports them', () => {
      assert.equal(sampleValue(samples, 'akwe_payments', { environment: 'test', status: payment.status as string }), 1);
      const otherPayments = samples.filter((s) => s.name === 'akwe_payments' && s.labels.status !== payment.status);
      assert.ok(otherPayments.length > 0 && otherPayments.every((s) => s.value === 0), 'every other status is there, at 0');
      assert.equal(sampleValue(samples, 'akwe_payouts', { environment: 'test', status: (payout.status as string).toLowerCase() }), 1);
      assert.equal(sampleValue(samples, 'akwe_payouts', { environment: 'live', status: 'pending' }), 0);
      assert.equal(sampleValue(samples, 'akwe_database_up'), 1);
    });

    it('counts operator calls by connector, operator, operation and outcome, with their latency', () => {
      assert.equal(sampleValue(samples, 'akwe_operator_calls_total', { connector: 'sandbox', operator: 'MTN_BJ', operation: 'startCollection', outcome: 'answered' }), 1);
      assert.equal(sampleValue(samples, 'akwe_operator_calls_total', { connector: 'sandbox', operator: 'MTN_BJ', operation: 'sendPayout', outcome: 'answered' }), 1);
      assert.equal(sampleValue(samples, 'akwe_operator_call_duration_seconds_count', { connector: 'sandbox', operator: 'MTN_BJ', operation: 'startCollection' }), 1);
    });

    it('shows the webhook queue as stored, then counts the delivery outcomes', async () => {
      const queued = await t.services.database.db.selectFrom('webhook_deliveries').select(['status', 'created_at']).execute();
      assert.ok(queued.length > 0 && queued.every((row) => row.status === 'pending'), 'the fan-out queued deliveries');
      assert.equal(sampleValue(samples, 'akwe_webhook_queue_depth'), queued.length);
      const oldestAge = sampleValue(samples, 'akwe_webhook_queue_oldest_age_seconds')!;
      assert.ok(oldestAge >= 0 && oldestAge < 600, `oldest age ${oldestAge}`);
      assert.equal(sampleValue(samples, 'akwe_webhook_delivery_attempts_total', { outcome: 'succeeded' }), 0);

      const delivery = job('webhook-delivery') as WebhookDeliveryJob;
      while ((await delivery.runOnce()) > 0) await delivery.drain();
      await delivery.drain();
      const later = await scrape();
      assert.equal(sampleValue(later, 'akwe_webhook_delivery_attempts_total', { outcome: 'succeeded' }), receiver.requests.length);
      assert.ok(receiver.requests.length > 0);
      assert.equal(sampleValue(later, 'akwe_webhook_queue_depth'), queued.length - receiver.requests.length);
    });

    it('counts what the jobs handled, recovery and reconciliation included, and shows the discrepancy counter', () => {
      assert.equal(sampleValue(samples, 'akwe_worker_items_total', { job: 'payout-handoff' }), 1);
      assert.ok(sampleValue(samples, 'akwe_worker_items_total', { job: 'event-fanout' })! > 0);
      for (const name of ['request-recovery', 'payment-reconcile', 'payout-check']) assert.equal(sampleValue(samples, 'akwe_worker_items_total', { job: name }), 0, name);
      assert.equal(sampleValue(samples, 'akwe_operator_discrepancies_total', { resource: 'payment' }), 0);
    });

    it('reports the database connections', () => {
      const max = sampleValue(samples, 'akwe_database_connections_max')!;
      const total = sampleValue(samples, 'akwe_database_connections', { state: 'total' })!;
      assert.ok(total >= 1 && total <= max, `total ${total} of ${max}`);
      if (target.name === 'postgres') assert.notEqual(sampleValue(samples, 'akwe_database_connections', { state: 'idle' }), undefined);
      else assert.equal(max, 1);
    });

    it('is not served on the API port', async () => {
      const res = await t.app.inject({ url: '/metrics' });
      assert.equal(res.statusCode, 404);
      assert.doesNotMatch(res.body, /akwe_http_requests_total/);
    });
  });
}
