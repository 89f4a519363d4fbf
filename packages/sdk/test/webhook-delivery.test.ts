/**
 * A delivery the server really sent: an endpoint registered through the SDK, a payment made, the
 * server's delivery job sending its events over HTTP to a local receiver, and constructEvent
 * checking what arrived with the secret the SDK got at registration (current and legacy endpoints).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startWebhookReceiver, type WebhookReceiver } from '../../server/test/support/webhook-receiver.js';
import { Akwe, SignatureVerificationError, type LegacyWebhookEvent, type WebhookEvent } from '../src/index.js';
import { deliverWebhooks, startRealServer, type RealServer } from './support/real-server.js';

describe('verifying deliveries the server sent', () => {
  let server: RealServer;
  let receiver: WebhookReceiver;
  let akwe: Akwe;

  before(async () => {
    server = await startRealServer();
    receiver = await startWebhookReceiver();
    const merchant = await server.testApp.newMerchant();
    akwe = new Akwe(merchant.testKey, { baseUrl: server.baseUrl });
  });
  after(async () => {
    await receiver.close();
    await server.close();
  });

  const deliverEverything = () => deliverWebhooks(server);

  it('verifies each current-contract event with the endpoint’s secret, and refuses it with another', async () => {
    const endpoint = await akwe.webhookEndpoints.create({ url: `${receiver.origin}/current`, events: ['collect.payment.*'] });
    const secret = endpoint.secret;
    assert.ok(secret !== undefined && secret.startsWith('whsec_'), 'create answers the secret');
    const reference = `sdk-hook-${Date.now()}`;
    await akwe.payments.create({ reference, amount: 1500, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '+2290197000000' } });
    await deliverEverything();

    const received = receiver.requests.filter((request) => request.url === '/current');
    assert.ok(received.length >= 2, `received ${received.length} deliveries`);
    const types: string[] = [];
    for (const request of received) {
      const header = String(request.headers['x-service-signature']);
      assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
      const event: WebhookEvent = await Akwe.webhooks.constructEvent<WebhookEvent>(request.rawBody, header, secret);
      assert.equal(event.id, request.headers['x-service-event-id']);
      if (event.type.startsWith('collect.payment.') && 'reference' in event.data.object) assert.equal(event.data.object.reference, reference);
      types.push(event.type);
      await assert.rejects(Akwe.webhooks.constructEvent(request.body, header, 'whsec_not_the_secret'), SignatureVerificationError);
    }
    assert.ok(types.includes('collect.payment.completed'), types.join(', '));
  });

  it('verifies what a legacy endpoint receives (base64 signature over the sorted JSON body)', async () => {
    const endpoint = await akwe.webhookEndpoints.create({ url: `${receiver.origin}/legacy`, events: ['collect.payment.*'], api_version: 'legacy' });
    const secret = endpoint.secret;
    assert.ok(secret !== undefined, 'create answers the secret');
    await akwe.payments.create({
      reference: `sdk-legacy-${Date.now()}`,
      amount: 1500,
      currency: 'XOF',
      country: 'BJ',
      mode: 'direct',
      operator: 'mtn_bj',
      customer: { phone: '+2290197000000' },
    });
    await deliverEverything();

    const received = receiver.requests.filter((request) => request.url === '/legacy');
    assert.ok(received.length >= 1);
    for (const request of received) {
      const header = String(request.headers['x-service-signature']);
      assert.doesNotMatch(header, /^t=/);
      const event: LegacyWebhookEvent = await Akwe.webhooks.constructEvent<LegacyWebhookEvent>(request.body, header, secret);
      assert.match(event.type, /^collect\.[a-z_]+$/);
      await assert.rejects(Akwe.webhooks.constructEvent(request.body.replace('"data"', '"data" '), header, secret), SignatureVerificationError);
    }
  });
});
