/**
 * The example shop (examples/shop/server.mjs) against a real Akwe server: a purchase answers 303 to
 * the hosted checkout page, the customer pays (the sandbox's checkout simulation), the server
 * delivers the events over HTTP, and the shop records the verified collect.payment.completed and
 * shows the order paid. A forged delivery is refused and changes nothing.
 */
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
// @ts-expect-error the example is a plain .mjs file without type declarations
import { createShop } from '../../../examples/shop/server.mjs';
import type { FastifyInstance } from 'fastify';
import { Akwe, type WebhookEndpoint, type WebhookEvent } from '../src/index.js';
import { deliverWebhooks, startRealServer, type RealServer } from './support/real-server.js';

/** What the test reads of createShop's answer (the example is untyped JavaScript). */
interface Shop {
  app: FastifyInstance;
  events: WebhookEvent[];
  registerWebhookEndpoint(shopUrl: string): Promise<WebhookEndpoint>;
}

describe('the example shop', () => {
  let server: RealServer;
  let shop: Shop;
  let shopUrl: string;
  let akwe: Akwe;

  before(async () => {
    server = await startRealServer();
    const merchant = await server.testApp.newMerchant();
    akwe = new Akwe(merchant.testKey, { baseUrl: server.baseUrl });
    shop = createShop({ akwe, constructEvent: Akwe.webhooks.constructEvent });
    await shop.app.listen({ host: '127.0.0.1', port: 0 });
    shopUrl = `http://127.0.0.1:${(shop.app.server.address() as AddressInfo).port}`;
    // The shop registers its own /webhooks, as it does when started without AKWE_WEBHOOK_SECRET.
    const endpoint = await shop.registerWebhookEndpoint(shopUrl);
    assert.equal(endpoint.url, `${shopUrl}/webhooks`);
    assert.ok(endpoint.secret?.startsWith('whsec_'));
  });
  after(async () => {
    await shop?.app.close();
    await server?.close();
  });

  it('sends the buyer to the checkout page and marks the order paid once the verified webhook arrives', async () => {
    const bought = await fetch(`${shopUrl}/buy`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ amount: '2500', description: 'Two coffees' }),
      redirect: 'manual',
    });
    assert.equal(bought.status, 303);
    const location = bought.headers.get('location') ?? '';
    const reference = bought.headers.get('x-order-reference') ?? '';
    assert.match(reference, /^order-/);
    const payment = await akwe.payments.retrieve(reference);
    assert.equal(payment.checkout_url, location);
    assert.equal(payment.status, 'awaiting_payment');
    // The redirect leads to a real checkout page (PUBLIC_URL is fixed in tests: ask the listening server).
    const checkoutPath = new URL(location).pathname;
    assert.match(checkoutPath, /^\/checkout\/[A-Za-z0-9_-]{43}$/);
    const page = await fetch(new URL(checkoutPath, server.baseUrl));
    assert.equal(page.status, 200);
    assert.match(await page.text(), /2\s*500/);

    const before = await (await fetch(`${shopUrl}/orders/${reference}`)).json();
    assert.equal(before.status, 'awaiting_payment', 'nothing is paid before the webhook');

    const paid = await akwe.payments.simulateCheckoutPayment(reference, { phone: '+2290197000000', operator: 'mtn_bj' });
    assert.equal(paid.status, 'completed');
    await deliverWebhooks(server);

    const completed = shop.events.filter((event) => event.type === 'collect.payment.completed' && event.data.object.reference === reference);
    assert.equal(completed.length, 1, `events recorded: ${shop.events.map((event) => event.type).join(', ')}`);
    const order = await fetch(`${shopUrl}/orders/${reference}`);
    assert.equal(order.status, 200);
    assert.deepEqual(await order.json(), { reference, amount: 2500, status: 'paid', paymentId: payment.id });
  });

  it('refuses a delivery signed with another secret and records nothing', async () => {
    const recorded = shop.events.length;
    const body = JSON.stringify({ id: 'evt_forged', type: 'collect.payment.completed', data: { object: { reference: 'order-forged' } } });
    const header = await Akwe.webhooks.generateTestHeader({ payload: body, secret: 'whsec_someone_else' });
    const answer = await fetch(`${shopUrl}/webhooks`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-signature': header }, body });
    assert.equal(answer.status, 400);
    assert.deepEqual(await answer.json(), { error: 'signature_mismatch' });
    assert.equal(shop.events.length, recorded);
  });

  it('answers 404 for an order it does not know and 400 for a bad amount', async () => {
    assert.equal((await fetch(`${shopUrl}/orders/order-unknown`)).status, 404);
    const bad = await fetch(`${shopUrl}/buy`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'amount=-3', redirect: 'manual' });
    assert.equal(bad.status, 400);
  });
});
