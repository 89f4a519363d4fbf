// A small shop that takes Mobile Money payments through @akwe/sdk:
//   POST /buy           creates a hosted payment and answers 303 to Akwe's checkout page
//   POST /webhooks      verifies the signature on the raw body, then records the event
//   GET  /orders/:ref   the order as the shop knows it (from verified webhooks only)
// Orders live in memory: a real shop keeps them in its database.
// Run: see README.md. The test packages/sdk/test/example-shop.test.ts drives it against a real server.
import { randomUUID } from 'node:crypto';
import { fileURLToPath, URLSearchParams } from 'node:url';
import Fastify from 'fastify';

/** What a verified event means for the order it names. */
const ORDER_STATUS_BY_EVENT = {
  'collect.payment.completed': 'paid',
  'collect.payment.failed': 'failed',
  'collect.payment.cancelled': 'cancelled',
  'collect.payment.expired': 'expired',
};

/**
 * @param {object} options
 * @param {import('@akwe/sdk').Akwe} options.akwe a client made with the shop's secret key
 * @param {typeof import('@akwe/sdk').Akwe.webhooks.constructEvent} options.constructEvent the SDK's verifier
 * @param {string} [options.webhookSecret] the endpoint's `whsec_…`; without it, registerWebhookEndpoint() makes one
 */
export function createShop({ akwe, constructEvent, webhookSecret, logger = false }) {
  const app = Fastify({ logger });
  /** reference -> { reference, amount, status, paymentId } */
  const orders = new Map();
  /** Every verified event, in arrival order; deliveries can repeat, so ids are deduplicated. */
  const events = [];
  const seenEventIds = new Set();
  let secret = webhookSecret;

  // Signatures are computed over the exact bytes sent: keep the body as text, parse it only after
  // verifying. (The shop's own form posts are URL-encoded; no plugin needed for that either.)
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body))));

  app.post('/buy', async (request, reply) => {
    const form = typeof request.body === 'object' && request.body !== null ? request.body : {};
    const amount = Number(form.amount ?? 5000);
    if (!Number.isInteger(amount) || amount <= 0) return reply.code(400).send({ error: 'amount must be a positive whole number of FCFA' });
    const reference = `order-${randomUUID()}`;
    const payment = await akwe.payments.create({
      reference,
      amount,
      currency: 'XOF',
      country: 'BJ',
      mode: 'hosted',
      description: form.description ?? 'Shop order',
    });
    orders.set(reference, { reference, amount, status: 'awaiting_payment', paymentId: payment.id });
    // POST/redirect/GET: the browser follows to the checkout page with a GET.
    return reply.code(303).header('location', payment.checkout_url).header('x-order-reference', reference).send();
  });

  app.post('/webhooks', async (request, reply) => {
    if (secret === undefined) return reply.code(503).send({ error: 'no webhook secret yet' });
    let event;
    try {
      event = await constructEvent(typeof request.body === 'string' ? request.body : '', request.headers['x-service-signature'], secret);
    } catch (error) {
      // A SignatureVerificationError: not from Akwe, altered, or too old. Nothing is recorded.
      request.log.warn({ code: error.code }, 'webhook refused');
      return reply.code(400).send({ error: error.code ?? 'invalid_signature' });
    }
    if (!seenEventIds.has(event.id)) {
      seenEventIds.add(event.id);
      events.push(event);
      const reference = event.data?.object?.reference;
      const status = ORDER_STATUS_BY_EVENT[event.type];
      const order = reference === undefined ? undefined : orders.get(reference);
      // Only live payments fulfil for real; a sandbox one still moves the order here, to show the flow.
      if (order !== undefined && status !== undefined) order.status = status;
    }
    return reply.code(200).send({ received: true });
  });

  app.get('/orders/:reference', async (request, reply) => {
    const order = orders.get(request.params.reference);
    if (order === undefined) return reply.code(404).send({ error: 'no such order' });
    return order;
  });

  return {
    app,
    orders,
    events,
    /** Registers `<shopUrl>/webhooks` with Akwe and keeps the secret that create() answers once. */
    async registerWebhookEndpoint(shopUrl) {
      const endpoint = await akwe.webhookEndpoints.create({ url: `${shopUrl}/webhooks`, events: ['collect.payment.*'] });
      secret = endpoint.secret;
      return endpoint;
    },
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  // Imported here, not at the top: the test hands createShop the SDK's sources instead of its build.
  const { Akwe } = await import('@akwe/sdk');
  const apiKey = process.env.AKWE_API_KEY;
  if (!apiKey) throw new Error('Set AKWE_API_KEY to the test key `npm start` printed (ak_test_…)');
  const port = Number(process.env.PORT ?? 3000);
  const shopUrl = process.env.SHOP_URL ?? `http://127.0.0.1:${port}`;
  const akwe = new Akwe(apiKey, { baseUrl: process.env.AKWE_BASE_URL ?? 'http://localhost:8080/api/v1' });
  const shop = createShop({ akwe, constructEvent: Akwe.webhooks.constructEvent, webhookSecret: process.env.AKWE_WEBHOOK_SECRET, logger: true });
  await shop.app.listen({ host: '127.0.0.1', port });
  if (process.env.AKWE_WEBHOOK_SECRET === undefined) {
    const endpoint = await shop.registerWebhookEndpoint(shopUrl);
    console.log(`registered ${endpoint.url} (${endpoint.id}); set AKWE_WEBHOOK_SECRET=${endpoint.secret} to reuse it next time`);
  }
}
