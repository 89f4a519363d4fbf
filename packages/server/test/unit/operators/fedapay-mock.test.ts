/**
 * The FedaPay mock through real sockets, driven by FedaPay's official Node library (`fedapay` on
 * npm) unchanged: if the library can create, tokenise, send and read transactions, create and
 * start payouts and verify the mock's webhooks, the mock speaks FedaPay's API as FedaPay's own
 * client expects it (its paths, its envelope, its signature). Then what the library does not
 * cover: auth refusals, duplicate references, sends repeated, faults and the call counter.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { FedaPay, Payout, Transaction, Webhook } from 'fedapay';
import { DEFAULT_FEDAPAY_MOCK_API_KEY, DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET, startFedaPayMock, type RunningFedaPayMock } from '../../../src/operators/fedapay/mock/fedapay-mock.js';
import { verifyFedaPaySignature } from '../../../src/operators/fedapay/fedapay-webhooks.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end('OK');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/fedapay`, received, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function until<T>(probe: () => T | undefined, what: string): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('FedaPay mock', () => {
  let mock: RunningFedaPayMock;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  const api = (method: string, path: string, body?: unknown, key = DEFAULT_FEDAPAY_MOCK_API_KEY) =>
    fetch(`${mock.url}/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as Record<string, any> })); // eslint-disable-line @typescript-eslint/no-explicit-any

  before(async () => {
    receiver = await startReceiver();
    mock = await startFedaPayMock({ webhookUrl: receiver.url });
    FedaPay.setApiKey(DEFAULT_FEDAPAY_MOCK_API_KEY);
    FedaPay.setEnvironment('sandbox');
    FedaPay.setApiBase(mock.url);
  });
  after(async () => {
    await mock.close();
    await receiver.close();
  });

  it('serves FedaPay’s Node library unchanged: create, token, send without redirect, retrieve, and a webhook it verifies', async () => {
    const reference = '01a21189-6b76-74aa-b6b6-dcd3c1dbfb01';
    const transaction = await Transaction.create({
      description: 'Commande 42',
      amount: 2500,
      currency: { iso: 'XOF' },
      callback_url: 'https://shop.example/return',
      merchant_reference: reference,
      customer: { firstname: 'Afi', phone_number: { number: '+2290164000001', country: 'bj' } },
    });
    assert.equal(transaction.status, 'pending');
    assert.equal(transaction.amount, 2500);
    assert.equal(transaction.merchant_reference, reference);
    assert.ok(transaction instanceof Transaction, 'the library recognised the envelope’s class');
    const token = await transaction.generateToken();
    assert.match(token.url, new RegExp(`^${mock.url}/pay/`));
    await transaction.sendNowWithToken('moov', token.token);
    const read = await Transaction.retrieve(transaction.id);
    assert.equal(read.status, 'approved');
    assert.equal(read.mode, 'moov');
    assert.equal(read.wasPaid(), true);

    const delivery = await until(() => receiver.received.find((r) => r.body.includes(reference)), 'the approval webhook');
    const event = Webhook.constructEvent(delivery.body, delivery.headers['x-fedapay-signature'], DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET);
    assert.equal(event.name, 'transaction.approved');
    assert.equal(event.entity.id, transaction.id);
    assert.throws(
      () => Webhook.constructEvent(delivery.body, delivery.headers['x-fedapay-signature'], 'wh_not_the_secret'),
      (error: { message: string }) => /No signatures found/.test(error.message),
    );
    assert.equal(mock.state.callsFor('create_transaction', reference), 1);
    assert.equal(mock.state.callsFor('send', reference), 1);
  });

  it('serves the library’s payouts: create, then sendNow (PUT /payouts/start), sent with its webhook', async () => {
    const reference = '01a21189-6b76-74aa-b6b6-dcd3c1dbfb02';
    const payout = await Payout.create({
      amount: 1000,
      currency: { iso: 'XOF' },
      mode: 'togocel',
      merchant_reference: reference,
      customer: { firstname: 'Kofi', phone_number: { number: '+22890112233', country: 'tg' } },
    });
    assert.equal(payout.status, 'pending');
    const started = await payout.sendNow();
    assert.equal(started.id, payout.id);
    assert.equal(started.status, 'sent', 'decided at once by this mock (no decision delay)');
    assert.equal((await Payout.retrieve(payout.id)).status, 'sent');
    const delivery = await until(() => receiver.received.find((r) => r.body.includes(reference)), 'the payout webhook');
    assert.equal(Webhook.constructEvent(delivery.body, delivery.headers['x-fedapay-signature'], DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET).name, 'payout.sent');
  });

  it('decides by the mock’s test-number endings: declined with a reason, canceled, stays pending', async () => {
    const outcomes: Array<[string, string, string | null]> = [
      ['+2290164000450', 'declined', 'invalid_phone_number'],
      ['+2290164000451', 'canceled', 'rejected_by_customer'],
      ['+2290164000453', 'pending', null],
      ['+2290164000455', 'declined', 'insufficient_funds'],
    ];
    for (const [number, status, code] of outcomes) {
      const transaction = await Transaction.create({ description: 'x', amount: 100, currency: { iso: 'XOF' }, customer: { phone_number: { number, country: 'bj' } } });
      await transaction.sendNow('sbin');
      const read = await Transaction.retrieve(transaction.id);
      assert.deepEqual([read.status, read.last_error_code], [status, code], number);
    }
  });

  it('refuses a wrong or missing secret key with 401, and a duplicate merchant_reference with 400 naming the field', async () => {
    assert.equal((await api('GET', '/balances', undefined, 'sk_sandbox_wrong')).status, 401);
    const bare = await fetch(`${mock.url}/v1/balances`);
    assert.equal(bare.status, 401);
    const body = { description: 'd', amount: 100, currency: { iso: 'XOF' }, merchant_reference: '01a21189-6b76-74aa-b6b6-dcd3c1dbfb03' };
    assert.equal((await api('POST', '/transactions', body)).status, 200);
    const again = await api('POST', '/transactions', body);
    assert.equal(again.status, 400);
    assert.ok(again.body.errors.merchant_reference, JSON.stringify(again.body));
    assert.equal(mock.state.callsFor('create_transaction', body.merchant_reference), 2, 'both asks counted');
    const found = await api('GET', `/transactions/merchant/${body.merchant_reference}`);
    assert.equal(found.body['v1/transaction'].merchant_reference, body.merchant_reference);
    assert.equal((await api('GET', '/transactions/merchant/01a21189-6b76-74aa-b6b6-dcd3c1dbfbff')).status, 404);
  });

  it('sends a transaction once: a repeated send is refused and changes nothing', async () => {
    const reference = '01a21189-6b76-74aa-b6b6-dcd3c1dbfb04';
    const created = await api('POST', '/transactions', {
      description: 'd',
      amount: 100,
      currency: { iso: 'XOF' },
      merchant_reference: reference,
      customer: { phone_number: { number: '+22890000453', country: 'tg' } },
    });
    const id = created.body['v1/transaction'].id as number;
    const { token } = (await api('POST', `/transactions/${id}/token`)).body;
    assert.equal((await api('POST', '/transactions/moov_tg', { token })).status, 200);
    const repeat = await api('POST', '/transactions/moov_tg', { token });
    assert.equal(repeat.status, 400);
    assert.equal(mock.state.callsFor('send', reference), 2);
    assert.equal((await api('GET', `/transactions/${id}`)).body['v1/transaction'].status, 'pending', 'the 453 ending stays pending');
  });

  it('injects faults: a 500 that does nothing, then an accepted call that never answers', async () => {
    mock.state.setFaults({ failNext: 1 });
    const reference = '01a21189-6b76-74aa-b6b6-dcd3c1dbfb05';
    const body = { description: 'd', amount: 100, currency: { iso: 'XOF' }, merchant_reference: reference };
    assert.equal((await api('POST', '/transactions', body)).status, 500);
    assert.equal(mock.state.transactionByReference(reference), undefined, 'the failed call created nothing');
    mock.state.setFaults({ acceptThenHang: true });
    try {
      await assert.rejects(
        fetch(`${mock.url}/v1/transactions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${DEFAULT_FEDAPAY_MOCK_API_KEY}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(300),
        }),
      );
    } finally {
      mock.state.setFaults({ acceptThenHang: false });
    }
    assert.equal(mock.state.transactionByReference(reference)?.status, 'pending', 'taken, though never answered');
  });

  it('signs its webhooks as our verifier expects, and drops them when told to', async () => {
    const delivery = receiver.received[0]!;
    const header = delivery.headers['x-fedapay-signature'] as string;
    const now = Math.floor(Date.now() / 1000);
    assert.deepEqual(verifyFedaPaySignature(delivery.body, header, ['wh_other', DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET], now), { ok: true });
    const before = receiver.received.length;
    mock.state.setFaults({ dropWebhooks: true });
    try {
      const transaction = await Transaction.create({
        description: 'x',
        amount: 100,
        currency: { iso: 'XOF' },
        customer: { phone_number: { number: '+2290164000001', country: 'bj' } },
      });
      await transaction.sendNow('moov');
      assert.equal((await Transaction.retrieve(transaction.id)).status, 'approved');
      await new Promise((resolve) => setTimeout(resolve, 100));
      assert.equal(receiver.received.length, before, 'no webhook sent');
    } finally {
      mock.state.setFaults({ dropWebhooks: false });
    }
  });
});
