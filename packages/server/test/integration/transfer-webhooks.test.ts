/**
 * Transfer events reach each merchant's own webhook endpoints (docs/transfers.md, docs/webhooks.md):
 * the sender's endpoint gets transfer.sent, the receiver's transfer.received, each signed with its
 * endpoint's secret and rendered from its side, delivered over a real socket on every database.
 */
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { renderDelivery } from '../../src/http/contracts/index.js';
import { WebhookDeliveryJob } from '../../src/webhooks/webhook-delivery-job.js';
import { webhookSenders } from '../../src/webhooks/webhook-senders.js';
import { FakeClock } from '../support/fake-clock.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

for (const target of testDatabases()) {
  describe(`transfer webhooks on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let receiver: WebhookReceiver;
    const clock = new FakeClock(new Date());

    before(async () => {
      t = await buildTestApp(target, { clock });
      receiver = await startWebhookReceiver();
    });
    after(async () => {
      await receiver.close();
      await t.close();
    });

    const call = (key: string, url: string, payload: object, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}`, ...headers }, payload });

    it('delivers transfer.sent to the sender’s endpoints and transfer.received to the receiver’s, each from its side', async () => {
      const sender = await t.newMerchant();
      const payee = await t.newMerchant();
      const hooks = new Map<string, string>();
      for (const [merchant, path] of [
        [sender, '/sender'],
        [payee, '/payee'],
      ] as const) {
        const res = await call(merchant.testKey, '/webhook-endpoints', { url: `${receiver.origin}${path}`, events: ['transfer.*'] });
        assert.equal(res.statusCode, 201, res.body);
        hooks.set(path, res.json().secret);
      }
      const res = await call(
        sender.testKey,
        '/transfers/',
        { receiver: payee.merchantId, amount_minor: 250_000, currency: 'XOF', reference: `TR-${newId()}` },
        { 'idempotency-key': newId() },
      );
      assert.equal(res.statusCode, 201, res.body);

      const job = new WebhookDeliveryJob(
        {
          store: t.services.webhookStore,
          webhooks: t.services.webhooks,
          senderFor: webhookSenders({ dev: true }),
          clock,
          newId,
          publicUrl: 'http://localhost:8080',
          render: renderDelivery,
        },
        { timeoutMs: 2_000, random: () => 0.5 },
      );
      while ((await t.services.webhooks.fanOut()) > 0);
      while ((await job.runOnce()) > 0) await job.drain();
      await job.drain();

      for (const [path, type, merchantId, direction] of [
        ['/sender', 'transfer.sent', sender.merchantId, 'sent'],
        ['/payee', 'transfer.received', payee.merchantId, 'received'],
      ] as const) {
        const received = receiver.requests.filter((request) => request.url === path);
        assert.equal(received.length, 1, path);
        const envelope = JSON.parse(received[0]!.body);
        assert.equal(envelope.type, type);
        assert.equal(envelope.merchant_id, merchantId);
        assert.equal(envelope.event_version, '2026-06');
        assert.equal(envelope.data.object.id, res.json().id);
        assert.equal(envelope.data.object.direction, direction);
        assert.equal(envelope.data.object.amount_minor, 250_000);
        const signature = String(received[0]!.headers['x-service-signature']);
        const timestamp = /t=(\d+)/.exec(signature)![1]!;
        const expected = createHmac('sha256', hooks.get(path)!).update(`${timestamp}.${received[0]!.body}`).digest('hex');
        assert.ok(signature.includes(`v1=${expected}`), `${path} is signed with its own endpoint's secret`);
      }
    });
  });
}
