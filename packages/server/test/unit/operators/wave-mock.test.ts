/** The Wave mock through real sockets: auth, checkout sessions, the pay page and its signed webhook, payouts. */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { DEFAULT_WAVE_MOCK_API_KEY, startWaveMock, waveMockPlugin, waveMockState, type RunningWaveMock } from '../../../src/operators/wave/mock/wave-mock.js';
import { parseCheckoutSession, parsePayout, payoutAnswer, sessionAnswer, sessionsFromSearch } from '../../../src/operators/wave/wave-responses.js';
import { parseWaveEvent, verifyWaveSignature, waveWebhookSubject } from '../../../src/operators/wave/wave-webhooks.js';

const WEBHOOK_SECRET = 'wave_ci_test_webhook_secret';
const paymentId = '01a21189-6b76-74aa-b6b6-dcd3c1dbfbc0';
const paidPaymentId = '01a21189-6b76-74aa-b6b6-dcd3c1dbfbc1';

interface Received {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A webhook receiver on its own port: every POST it gets, raw, in order. */
async function startReceiver(): Promise<{ url: string; received: Received[]; next(): Promise<Received>; close(): Promise<void> }> {
  const received: Received[] = [];
  const waiting: ((r: Received) => void)[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delivery = { headers: request.headers, body: Buffer.concat(chunks) };
      received.push(delivery);
      waiting.shift()?.(delivery);
      response.writeHead(200).end('OK');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  let seen = 0;
  return {
    url: `http://127.0.0.1:${port}/webhooks/wave`,
    received,
    next: () => {
      const index = seen++;
      if (received[index]) return Promise.resolve(received[index]);
      return new Promise<Received>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no webhook arrived')), 5000);
        waiting.push((r) => {
          clearTimeout(timer);
          resolve(r);
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function sessionBody(overrides: Record<string, unknown> = {}) {
  return {
    amount: '1500',
    currency: 'XOF',
    success_url: 'https://shop.example/ok',
    error_url: 'https://shop.example/ko',
    client_reference: paymentId,
    ...overrides,
  };
}

describe('Wave mock', () => {
  let mock: RunningWaveMock;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  const api = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string>; key?: string | null; signal?: AbortSignal } = {}) =>
    fetch(`${mock.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.key === null ? {} : { authorization: `Bearer ${init.key ?? DEFAULT_WAVE_MOCK_API_KEY}` }),
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      redirect: 'manual',
      ...(init.signal ? { signal: init.signal } : {}),
    });

  before(async () => {
    receiver = await startReceiver();
    mock = await startWaveMock({ webhookSecret: WEBHOOK_SECRET });
    mock.state.webhookUrl = receiver.url;
  });

  after(async () => {
    await mock.close();
    await receiver.close();
  });

  it('refuses calls without the right bearer key, with Wave’s codes', async () => {
    const cases: [string | null, Record<string, string>, string][] = [
      [null, {}, 'missing-auth-header'],
      [null, { authorization: `Basic ${DEFAULT_WAVE_MOCK_API_KEY}` }, 'invalid-auth'],
      [null, { authorization: 'Bearer ' }, 'api-key-not-provided'],
      ['wave_ci_prod_wrong', {}, 'no-matching-api-key'],
    ];
    for (const [key, headers, code] of cases) {
      const response = await api('/v1/checkout/sessions', { body: sessionBody(), key, headers });
      assert.equal(response.status, 401, code);
      assert.equal(((await response.json()) as { code: string }).code, code);
    }
    assert.equal(mock.state.sessions.size, 0, 'nothing was created');
  });

  it('creates a session once per Idempotency-Key, refuses the key with another body, and finds it by client_reference', async () => {
    const headers = { 'idempotency-key': paymentId };
    const first = await api('/v1/checkout/sessions', { body: sessionBody(), headers });
    assert.equal(first.status, 200);
    const created = parseCheckoutSession(await first.json());
    assert.deepEqual([created.checkoutStatus, created.paymentStatus, created.amount, created.clientReference], ['open', 'processing', '1500', paymentId]);
    assert.match(created.id, /^cos-[a-z0-9]{13}$/);
    assert.equal(created.launchUrl, `${mock.url}/pay/${created.id}`);
    assert.deepEqual(sessionAnswer(created).path, ['processing']);

    const repeat = await api('/v1/checkout/sessions', { body: { ...sessionBody() }, headers });
    assert.equal(repeat.status, 200);
    assert.equal(parseCheckoutSession(await repeat.json()).id, created.id);
    assert.equal(mock.state.sessions.size, 1, 'the repeat created nothing');

    const mismatch = await api('/v1/checkout/sessions', { body: sessionBody({ amount: '2000' }), headers });
    assert.equal(mismatch.status, 409);
    assert.equal(((await mismatch.json()) as { code: string }).code, 'idempotency-mismatch');
    assert.equal(mock.state.postsFor('checkout', paymentId), 3);

    const found = await api(`/v1/checkout/sessions/search?client_reference=${paymentId}`);
    assert.deepEqual(
      sessionsFromSearch(await found.json()).map((s) => s.id),
      [created.id],
    );
    const none = await api('/v1/checkout/sessions/search?client_reference=nobody');
    assert.deepEqual(await none.json(), { result: [] });
    const byId = await api(`/v1/checkout/sessions/${created.id}`);
    assert.equal(parseCheckoutSession(await byId.json()).id, created.id);
    const missing = await api('/v1/checkout/sessions/cos-nope');
    assert.deepEqual([missing.status, ((await missing.json()) as { code: string }).code], [404, 'checkout-session-not-found']);
  });

  it('refuses invalid sessions with request-validation-error, and keeps no idempotency answer for them', async () => {
    const key = { 'idempotency-key': 'invalid-then-fixed' };
    for (const body of [
      sessionBody({ amount: '15.50' }),
      sessionBody({ amount: 1500 }),
      sessionBody({ currency: 'EUR' }),
      sessionBody({ success_url: 'nope' }),
      sessionBody({ restrict_payer_mobile: '0701020304' }),
    ]) {
      const response = await api('/v1/checkout/sessions', { body, headers: key });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(((await response.json()) as { code: string }).code, 'request-validation-error');
    }
    const fixed = await api('/v1/checkout/sessions', { body: sessionBody({ client_reference: 'fixed' }), headers: key });
    assert.equal(fixed.status, 200);
  });

  it('lets the customer pay on the launch page: the session completes, the browser goes to success_url and a signed webhook arrives', async () => {
    const created = parseCheckoutSession(await (await api('/v1/checkout/sessions', { body: sessionBody({ client_reference: paidPaymentId }) })).json());
    const page = await fetch(created.launchUrl!);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<form method="post">/);

    const paid = await fetch(created.launchUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=succeeded',
      redirect: 'manual',
    });
    assert.equal(paid.status, 303);
    assert.equal(paid.headers.get('location'), 'https://shop.example/ok');

    const delivery = await receiver.next();
    const now = Math.floor(Date.now() / 1000);
    assert.deepEqual(verifyWaveSignature(delivery.body, delivery.headers['wave-signature'] as string, WEBHOOK_SECRET, now), { ok: true });
    assert.equal(verifyWaveSignature(delivery.body, delivery.headers['wave-signature'] as string, 'not-the-secret', now).ok, false);
    const event = parseWaveEvent(delivery.body);
    assert.equal(event.type, 'checkout.session.completed');
    assert.deepEqual(waveWebhookSubject(event), { resource: 'payment', id: paidPaymentId });

    const after = parseCheckoutSession(await (await api(`/v1/checkout/sessions/${created.id}`)).json());
    const answer = sessionAnswer(after);
    assert.deepEqual(answer.path, ['processing', 'completed']);
    assert.ok(after.transactionId);
    assert.equal(answer.pspReference, after.transactionId);
    assert.equal(parseCheckoutSession(event.data).transactionId, after.transactionId);

    const again = await fetch(created.launchUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=succeeded',
      redirect: 'manual',
    });
    assert.equal(again.status, 409, 'a paid session cannot be paid twice');
  });

  it('keeps a session open after a failed attempt (webhook payment_failed, error_url), and ends it when abandoned', async () => {
    const created = parseCheckoutSession(await (await api('/v1/checkout/sessions', { body: sessionBody({ client_reference: 'failing' }) })).json());
    const failed = await fetch(created.launchUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=failed',
      redirect: 'manual',
    });
    assert.deepEqual([failed.status, failed.headers.get('location')], [303, 'https://shop.example/ko']);
    const delivery = await receiver.next();
    const event = parseWaveEvent(delivery.body);
    assert.equal(event.type, 'checkout.session.payment_failed');
    assert.equal(verifyWaveSignature(delivery.body, delivery.headers['wave-signature'] as string, WEBHOOK_SECRET, Math.floor(Date.now() / 1000)).ok, true);
    const retrying = parseCheckoutSession(event.data);
    assert.deepEqual([retrying.checkoutStatus, retrying.lastPaymentError?.code], ['open', 'insufficient-funds']);

    const abandoned = await fetch(created.launchUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'outcome=cancelled',
      redirect: 'manual',
    });
    assert.deepEqual([abandoned.status, abandoned.headers.get('location')], [303, 'https://shop.example/ko']);
    const ended = sessionAnswer(parseCheckoutSession(await (await api(`/v1/checkout/sessions/${created.id}`)).json()));
    assert.deepEqual([ended.path, ended.failureCode], [['processing', 'failed'], 'insufficient_funds']);
  });

  it('expires an open session and refunds a paid one in full, once', async () => {
    const open = parseCheckoutSession(await (await api('/v1/checkout/sessions', { body: sessionBody({ client_reference: 'to-expire' }) })).json());
    assert.equal((await api(`/v1/checkout/sessions/${open.id}/expire`, { method: 'POST' })).status, 200);
    assert.equal(sessionAnswer(parseCheckoutSession(await (await api(`/v1/checkout/sessions/${open.id}`)).json())).failureCode, 'expired');
    assert.equal((await api(`/v1/checkout/sessions/${open.id}/expire`, { method: 'POST' })).status, 409);
    const notPaid = await api(`/v1/checkout/sessions/${open.id}/refund`, { method: 'POST' });
    assert.deepEqual([notPaid.status, ((await notPaid.json()) as { code: string }).code], [400, 'checkout-refund-failed']);

    const paid = parseCheckoutSession(await (await api('/v1/checkout/sessions', { body: sessionBody({ client_reference: 'to-refund' }) })).json());
    mock.state.completeSession(paid.id, 'succeeded');
    await receiver.next();
    for (let i = 0; i < 2; i++) {
      const refund = await api(`/v1/checkout/sessions/${paid.id}/refund`, { method: 'POST' });
      assert.equal(refund.status, 200);
      assert.equal(await refund.text(), '');
    }
    assert.deepEqual([mock.state.sessions.get(paid.id)?.refundPosts, mock.state.sessions.get(paid.id)?.refunded], [2, true]);
  });

  it('sends payouts once per Idempotency-Key, finds them, and decides by the number’s ending', async () => {
    const payoutId = '01a21189-8491-751b-8782-c9c39fb702fe';
    const body = { currency: 'XOF', receive_amount: '500', mobile: '+2250701020304', name: 'Awa Koné', client_reference: payoutId };
    const noKey = await api('/v1/payout', { body });
    assert.deepEqual([noKey.status, ((await noKey.json()) as { code: string }).code], [400, 'request-validation-error']);

    const headers = { 'idempotency-key': payoutId };
    const sent = parsePayout(await (await api('/v1/payout', { body, headers })).json());
    assert.match(sent.id, /^pt-[a-z0-9]{13}$/);
    assert.deepEqual([sent.status, sent.fee, sent.clientReference], ['succeeded', '5', payoutId]);
    assert.equal(payoutAnswer(sent).status, 'COMPLETED');
    assert.equal(parsePayout(await (await api('/v1/payout', { body, headers })).json()).id, sent.id);
    assert.equal(mock.state.payouts.size, 1);
    const mismatch = await api('/v1/payout', { body: { ...body, receive_amount: '5000' }, headers });
    assert.deepEqual([mismatch.status, ((await mismatch.json()) as { code: string }).code], [409, 'idempotency-mismatch']);
    assert.equal(mock.state.postsFor('payout', payoutId), 3);

    assert.equal(parsePayout(await (await api(`/v1/payout/${sent.id}`)).json()).id, sent.id);
    const found = (await (await api(`/v1/payouts/search?client_reference=${payoutId}`)).json()) as { result: unknown[] };
    assert.deepEqual(
      found.result.map((p) => parsePayout(p).id),
      [sent.id],
    );
    const missing = await api('/v1/payout/pt-nope');
    assert.deepEqual([missing.status, ((await missing.json()) as { code: string }).code], [404, 'payout-not-found']);

    const send = async (mobile: string) => api('/v1/payout', { body: { ...body, mobile, client_reference: mobile }, headers: { 'idempotency-key': `key-${mobile}` } });
    const expected: [string, string, string | undefined][] = [
      ['+2250701020450', 'FAILED', 'payer_not_found'],
      ['+2250701020451', 'FAILED', 'operator_declined'],
      ['+2250701020452', 'FAILED', 'payer_limit_reached'],
      ['+2250701020453', 'PROCESSING', undefined],
    ];
    for (const [mobile, status, failureCode] of expected) {
      const answer = payoutAnswer(parsePayout(await (await send(mobile)).json()));
      assert.deepEqual([answer.status, answer.failureCode], [status, failureCode], mobile);
    }
    const short = await send('+2250701020455');
    assert.deepEqual([short.status, ((await short.json()) as { code: string }).code], [422, 'insufficient-funds']);
    const searchShort = (await (await api('/v1/payouts/search?client_reference=%2B2250701020455')).json()) as { result: unknown[] };
    assert.deepEqual(searchShort.result, [], 'a refused payout is not created');

    // The one that stays processing is settled through the control route.
    const pending = mock.state.payoutsByReference('+2250701020453')[0]!;
    const settled = await fetch(`${mock.url}/_mock/payouts/${pending.id}/settle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'succeeded' }),
    });
    assert.equal(payoutAnswer(parsePayout(await settled.json())).status, 'COMPLETED');
  });

  it('applies faults to the API only, and still acts when told to hang', async () => {
    await fetch(`${mock.url}/_mock/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ fail_next: 1, fail_status: 503 }) });
    assert.equal((await fetch(`${mock.url}/_mock/stats`)).status, 200, 'control routes are spared');
    const failed = await api('/v1/payout/pt-any');
    assert.deepEqual([failed.status, ((await failed.json()) as { code: string }).code], [503, 'service-unavailable']);
    assert.equal((await api('/v1/payout/pt-any')).status, 404, 'only the next call failed');

    mock.state.setFaults({ acceptThenHang: true });
    const hung = await api('/v1/payout', {
      body: { currency: 'XOF', receive_amount: '700', mobile: '+2250701020304', client_reference: 'hang' },
      headers: { 'idempotency-key': 'hang' },
      signal: AbortSignal.timeout(300),
    }).then(
      () => 'answered',
      (error: Error) => error.name,
    );
    assert.equal(hung, 'TimeoutError', 'the answer never came');
    mock.state.setFaults({ acceptThenHang: false });
    assert.equal(mock.state.payoutsByReference('hang').length, 1, 'the payout was made');
    const stats = (await (await fetch(`${mock.url}/_mock/stats`)).json()) as { posts: Record<string, number> };
    assert.equal(stats.posts['payout:hang'], 1);
  });
});

describe('Wave mock under a prefix', () => {
  it('serves its API and its pay page under the prefix, and ends a session when its time is up', async () => {
    const state = waveMockState({ apiKey: 'prefixed-key', sessionTtlMs: 60 });
    const app = Fastify({ logger: false, forceCloseConnections: true });
    await app.register(waveMockPlugin(state), { prefix: '/wave-ci' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const { port } = app.server.address() as AddressInfo;
      const base = `http://127.0.0.1:${port}/wave-ci`;
      const auth = { authorization: 'Bearer prefixed-key', 'content-type': 'application/json' };
      const created = parseCheckoutSession(await (await fetch(`${base}/v1/checkout/sessions`, { method: 'POST', headers: auth, body: JSON.stringify(sessionBody()) })).json());
      assert.equal(created.launchUrl, `${base}/pay/${created.id}`);
      assert.equal((await fetch(created.launchUrl!)).status, 200);
      await new Promise((resolve) => setTimeout(resolve, 120));
      const later = sessionAnswer(parseCheckoutSession(await (await fetch(`${base}/v1/checkout/sessions/${created.id}`, { headers: auth })).json()));
      assert.deepEqual([later.path, later.failureCode], [['processing', 'failed'], 'expired']);
      assert.equal((await fetch(`http://127.0.0.1:${port}/v1/checkout/sessions/${created.id}`, { headers: auth })).status, 404, 'nothing outside the prefix');
    } finally {
      state.stopTimers();
      await app.close();
    }
  });
});
