/**
 * "Send a test event" from the dashboard, on every database: a sample event of a type the endpoint
 * receives, marked as a test, rendered in the endpoint's api_version, signed and delivered by the
 * normal pipeline to a real receiver — and to no other endpoint — then listed in its deliveries.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { legacySignature, verifySignature } from '../../src/core/webhooks/webhook-signature.js';
import { renderDelivery } from '../../src/http/contracts/index.js';
import { WebhookDeliveryJob } from '../../src/webhooks/webhook-delivery-job.js';
import { webhookSenders } from '../../src/webhooks/webhook-senders.js';
import { dashboardCall, mailedToken, newOwner, PASSWORD, signIn, uniqueEmail } from '../support/dashboard.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

for (const target of testDatabases()) {
  describe(`dashboard test events on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dataDir: string;
    let receiver: WebhookReceiver;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-testevent-'));
      t = await buildTestApp(target, { env: { AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' } });
    });
    after(async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    beforeEach(async () => {
      receiver = await startWebhookReceiver();
    });
    afterEach(() => receiver.close());

    const call = dashboardCall(() => t);
    /** The real delivery worker, run until nothing is left to send. */
    const deliverAll = async () => {
      const job = new WebhookDeliveryJob(
        {
          store: t.services.webhookStore,
          webhooks: t.services.webhooks,
          senderFor: webhookSenders({ dev: true }),
          clock: t.services.clock,
          newId,
          publicUrl: 'http://localhost:8080',
          render: renderDelivery,
        },
        { timeoutMs: 2_000, random: () => 0.5 },
      );
      while ((await t.services.webhooks.fanOut()) > 0);
      while ((await job.runOnce()) > 0) await job.drain();
      await job.drain();
    };
    const createEndpoint = async (owner: { access: string; merchantId: string }, body: object) => {
      const created = await call('POST', `/merchants/${owner.merchantId}/webhook-endpoints`, owner.access, body);
      assert.equal(created.statusCode, 201, created.body);
      return created.json() as { id: string; secret: string };
    };
    const sendTest = (owner: { access: string; merchantId: string }, endpointId: string, body?: object) =>
      call('POST', `/merchants/${owner.merchantId}/webhook-endpoints/${endpointId}/test-event`, owner.access, body ?? {});

    it('delivers a signed, clearly marked sample payment event to that endpoint only, listed in its deliveries and in the audit log', async () => {
      const owner = await newOwner(call, dataDir);
      const endpoint = await createEndpoint(owner, { url: `${receiver.origin}/hooks`, events: ['collect.payment.*'] });
      const bystander = await createEndpoint(owner, { url: `${receiver.origin}/other`, events: ['*'] });

      const sent = await sendTest(owner, endpoint.id);
      assert.equal(sent.statusCode, 202, sent.body);
      const delivery = sent.json();
      assert.equal(delivery.endpoint_id, endpoint.id);
      assert.equal(delivery.status, 'pending');
      await deliverAll();

      assert.equal(receiver.requests.filter((r) => r.url === '/other').length, 0, 'no other endpoint gets it');
      const received = receiver.requests.filter((r) => r.url === '/hooks');
      assert.equal(received.length, 1);
      const [request] = received;
      const header = request!.headers['x-service-signature'];
      assert.equal(typeof header, 'string');
      assert.deepEqual(verifySignature(request!.body, header as string, endpoint.secret).ok, true, 'signed with the endpoint’s secret');
      assert.equal(verifySignature(request!.body, header as string, bystander.secret).ok, false);
      const event = JSON.parse(request!.body);
      assert.equal(event.id, delivery.event_id);
      assert.equal(event.type, 'collect.payment.completed');
      assert.equal(event.environment, 'test');
      assert.equal(event.merchant_id, owner.merchantId);
      const payment = event.data.object;
      assert.match(payment.id, /^00000000-7e57-/);
      assert.match(payment.reference, /^akwe_test_event_/);
      assert.equal(payment.status, 'completed');
      assert.deepEqual(payment.metadata, { akwe_test_event: 'true' });

      const deliveries = await call('GET', `/merchants/${owner.merchantId}/webhook-endpoints/${endpoint.id}/deliveries`, owner.access);
      assert.equal(deliveries.statusCode, 200, deliveries.body);
      const [listed] = deliveries.json().data;
      assert.equal(listed.event_id, event.id);
      assert.equal(listed.status, 'succeeded');
      assert.equal(listed.attempts_log[0].status_code, 200);

      const audit = await call('GET', `/merchants/${owner.merchantId}/audit-log`, owner.access);
      const row = audit.json().data.find((a: { action: string }) => a.action === 'webhook_endpoint.test_event_sent');
      assert.ok(row, 'audited');
      assert.ok(row.target.startsWith(endpoint.id) && row.target.includes(event.id));
    });

    it('sends the type asked for, and refuses one the endpoint does not receive', async () => {
      const owner = await newOwner(call, dataDir);
      const endpoint = await createEndpoint(owner, { url: `${receiver.origin}/payouts`, events: ['payout.*'] });
      const refused = await sendTest(owner, endpoint.id, { type: 'collect.payment.completed' });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.equal(refused.json().error.field, 'type');
      const unknown = await sendTest(owner, endpoint.id, { type: 'payout.exploded' });
      assert.equal(unknown.statusCode, 400, unknown.body);

      // Absent: the first type it receives.
      assert.equal((await sendTest(owner, endpoint.id)).statusCode, 202);
      assert.equal((await sendTest(owner, endpoint.id, { type: 'payout.failed' })).statusCode, 202);
      await deliverAll();
      const events = receiver.requests.filter((r) => r.url === '/payouts').map((r) => JSON.parse(r.body));
      assert.deepEqual(events.map((e) => [e.type, e.data.object.status]).sort(), [
        ['payout.failed', 'FAILED'],
        ['payout.initiated', 'PENDING'],
      ]);
      for (const e of events) assert.match(e.data.object.reference, /^akwe_test_event_/);
    });

    it('renders it in the endpoint’s api_version: a legacy endpoint gets the earlier payment event and signature', async () => {
      const owner = await newOwner(call, dataDir);
      const endpoint = await createEndpoint(owner, { url: `${receiver.origin}/legacy`, api_version: 'legacy' });
      assert.equal((await sendTest(owner, endpoint.id, { type: 'payout.completed' })).statusCode, 400, 'legacy endpoints receive payment events only');
      assert.equal((await sendTest(owner, endpoint.id)).statusCode, 202);
      await deliverAll();
      const [request] = receiver.requests.filter((r) => r.url === '/legacy');
      assert.ok(request);
      const event = JSON.parse(request.body);
      assert.equal(event.type, 'collect.completed');
      assert.equal(request.headers['x-service-signature'], legacySignature(request.body, endpoint.secret));
    });

    it('refuses a viewer, another merchant, the other environment and a disabled endpoint, and sends nothing', async () => {
      const owner = await newOwner(call, dataDir);
      const other = await newOwner(call, dataDir);
      const endpoint = await createEndpoint(owner, { url: `${receiver.origin}/refused` });
      const email = uniqueEmail('viewer');
      await call('POST', `/merchants/${owner.merchantId}/invitations`, owner.access, { email, role: 'viewer' });
      await call('POST', '/auth/invitations/accept', undefined, { token: mailedToken(dataDir, email, 'accept-invitation'), name: 'V', password: PASSWORD });
      const viewer = await signIn(call, email);
      assert.equal((await sendTest({ access: viewer, merchantId: owner.merchantId }, endpoint.id)).statusCode, 403);
      assert.equal((await sendTest(other, endpoint.id)).statusCode, 404);
      const inLive = await call('POST', `/merchants/${owner.merchantId}/webhook-endpoints/${endpoint.id}/test-event`, owner.access, {}, 'live');
      assert.equal(inLive.statusCode, 404);
      assert.equal((await call('PATCH', `/merchants/${owner.merchantId}/webhook-endpoints/${endpoint.id}`, owner.access, { enabled: false })).statusCode, 200);
      const disabled = await sendTest(owner, endpoint.id);
      assert.equal(disabled.statusCode, 400, disabled.body);
      await deliverAll();
      assert.equal(receiver.requests.filter((r) => r.url === '/refused').length, 0);
    });
  });
}
