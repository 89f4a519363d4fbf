/**
 * The bar for the pawaPay mock: a public pawaPay v2 client library from npm (`pawapay-sdk`, used as
 * published; only its per-call request options point it at the mock instead of pawaPay's sandbox)
 * drives a deposit, its status, a payout, a refund, availability and the rest against the mock, and
 * the mock's signed callbacks verify under the public key it serves.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPawaPayClient } from 'pawapay-sdk';
import { DEFAULT_PAWAPAY_MOCK_API_TOKEN, startPawapayMock, type RunningPawapayMock } from '../../../src/operators/pawapay/mock/pawapay-mock.js';
import { parseStatusCheck, parseTransaction } from '../../../src/operators/pawapay/pawapay-responses.js';
import { verifyPawapaySignature } from '../../../src/operators/pawapay/pawapay-signatures.js';

interface Received {
  path: string;
  host: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

async function startReceiver(): Promise<{ url: string; next(): Promise<Received>; close(): Promise<void> }> {
  const queue: Received[] = [];
  const waiting: ((r: Received) => void)[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delivery = { path: request.url ?? '', host: request.headers.host ?? '', headers: request.headers, body: Buffer.concat(chunks) };
      const waiter = waiting.shift();
      if (waiter) waiter(delivery);
      else queue.push(delivery);
      response.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callbacks`,
    next: () => (queue.length > 0 ? Promise.resolve(queue.shift()!) : new Promise((resolve) => waiting.push(resolve))),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('the pawaPay mock, driven by the npm client library pawapay-sdk (v2)', () => {
  let mock: RunningPawapayMock;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let options: { options: { baseURL: string } };
  const client = createPawaPayClient(DEFAULT_PAWAPAY_MOCK_API_TOKEN, { apiVersion: 'v2', environment: 'sandbox' });

  before(async () => {
    receiver = await startReceiver();
    mock = await startPawapayMock({ signCallbacks: true, decisionDelayMs: 50, callbackBaseUrl: receiver.url });
    // The library's own per-call request options (passed to its HTTP client) aim it at the mock.
    options = { options: { baseURL: `${mock.url}/v2` } };
  });
  after(async () => {
    await mock.close();
    await receiver.close();
  });

  it('takes a deposit, answers its status, and calls back signed with the completed deposit', async () => {
    const depositId = randomUUID();
    const created = await client.requestDeposit(
      { depositId, payer: { type: 'MMO', accountDetails: { phoneNumber: '22890345789', provider: 'MOOV_TGO' } }, amount: '1500', currency: 'XOF', metadata: [] },
      options as never,
    );
    assert.equal(created.success, true);
    assert.deepEqual({ id: (created.data as { depositId: string }).depositId, status: (created.data as { status: string }).status }, { id: depositId, status: 'ACCEPTED' });

    const again = await client.requestDeposit(
      { depositId, payer: { type: 'MMO', accountDetails: { phoneNumber: '22890345789', provider: 'MOOV_TGO' } }, amount: '1500', currency: 'XOF', metadata: [] },
      options as never,
    );
    assert.equal((again.data as { status: string }).status, 'DUPLICATE_IGNORED');
    assert.equal(mock.state.postsFor('deposits', depositId), 2);

    const callback = await receiver.next();
    assert.equal(callback.path, '/callbacks/deposits');
    const publicKeys = await client.getPublicKeys(options as never);
    const key = (publicKeys.data as unknown as Array<{ key: string }>)[0]!.key;
    const check = verifyPawapaySignature(
      { method: 'POST', authority: callback.host, path: callback.path, headers: callback.headers, rawBody: callback.body },
      key,
      Math.floor(Date.now() / 1000),
    );
    assert.deepEqual(check.ok, true);
    assert.equal(parseTransaction(JSON.parse(callback.body.toString('utf8'))).state, 'completed');

    const status = await client.checkDepositStatus(depositId, options as never);
    const tx = parseStatusCheck(status.data);
    assert.equal(tx?.status, 'COMPLETED');
    assert.ok(tx?.providerTransactionId);

    const unknown = await client.checkDepositStatus(randomUUID(), options as never);
    assert.equal(parseStatusCheck(unknown.data), undefined);
  });

  it('refuses a wrong token as pawaPay does (403 AUTHENTICATION_ERROR)', async () => {
    const stranger = createPawaPayClient('not-the-token', { apiVersion: 'v2', environment: 'sandbox' });
    const answer = await stranger.getWalletBalances(options as never);
    assert.equal(answer.success, false);
    assert.equal(answer.status, 403);
    assert.equal((answer.error as { failureReason?: { failureCode?: string } }).failureReason?.failureCode, 'AUTHENTICATION_ERROR');
  });

  it('rejects a deposit the sandbox rules refuse, and fails one by its test number', async () => {
    const rejected = await client.requestDeposit(
      { depositId: randomUUID(), payer: { type: 'MMO', accountDetails: { phoneNumber: '22951345789', provider: 'MTN_MOMO_BEN' } }, amount: '10.5', currency: 'XOF', metadata: [] },
      options as never,
    );
    assert.equal((rejected.data as { status: string }).status, 'REJECTED');
    assert.equal((rejected.data as { failureReason: { failureCode: string } }).failureReason.failureCode, 'INVALID_AMOUNT');

    const depositId = randomUUID();
    await client.requestDeposit(
      { depositId, payer: { type: 'MMO', accountDetails: { phoneNumber: '22951345029', provider: 'MTN_MOMO_BEN' } }, amount: '100', currency: 'XOF', metadata: [] },
      options as never,
    );
    const callback = await receiver.next();
    const failed = parseTransaction(JSON.parse(callback.body.toString('utf8')));
    assert.deepEqual([failed.id, failed.state, failed.failure?.code], [depositId, 'failed', 'PAYER_NOT_FOUND']);
  });

  it('sends a payout and answers its status', async () => {
    const payoutId = randomUUID();
    const sent = await client.requestPayout(
      { payoutId, recipient: { type: 'MMO', accountDetails: { phoneNumber: '2250503456789', provider: 'MTN_MOMO_CIV' } }, amount: '2000', currency: 'XOF' } as never,
      options as never,
    );
    assert.equal((sent.data as { status: string }).status, 'ACCEPTED');
    const callback = await receiver.next();
    assert.equal(callback.path, '/callbacks/payouts');
    const status = await client.checkPayoutStatus(payoutId, options as never);
    assert.equal(parseStatusCheck(status.data)?.status, 'COMPLETED');
  });

  it('refunds a completed deposit, once and no more than was paid', async () => {
    const depositId = randomUUID();
    await client.requestDeposit(
      { depositId, payer: { type: 'MMO', accountDetails: { phoneNumber: '2250703456789', provider: 'MOOV_CIV' } }, amount: '3000', currency: 'XOF', metadata: [] },
      options as never,
    );
    await receiver.next();
    const refundId = randomUUID();
    const refund = await client.initiateRefund({ refundId, depositId, amount: '1000', currency: 'XOF' } as never, options as never);
    assert.equal((refund.data as { status: string }).status, 'ACCEPTED');
    const callback = await receiver.next();
    assert.equal(callback.path, '/callbacks/refunds');
    assert.equal(parseStatusCheck((await client.checkRefundStatus(refundId, options as never)).data)?.status, 'COMPLETED');
    const tooMuch = await client.initiateRefund({ refundId: randomUUID(), depositId, amount: '2500', currency: 'XOF' } as never, options as never);
    assert.equal((tooMuch.data as { failureReason: { failureCode: string } }).failureReason.failureCode, 'AMOUNT_OUT_OF_BOUNDS');
  });

  it('answers availability, active configuration, wallet balances and provider prediction', async () => {
    mock.state.setAvailability('MOOV_BEN', 'DEPOSIT', 'CLOSED');
    const availability = await client.getProviderAvailability(options as never);
    const benin = (
      availability.data as unknown as Array<{ country: string; providers: Array<{ provider: string; operationTypes: Array<{ operationType: string; status: string }> }> }>
    ).find((c) => c.country === 'BEN')!;
    const moov = benin.providers.find((p) => p.provider === 'MOOV_BEN')!;
    assert.equal(moov.operationTypes.find((o) => o.operationType === 'DEPOSIT')?.status, 'CLOSED');

    const conf = await client.getActiveConfiguration(options as never);
    const orange = (
      conf.data as unknown as {
        countries: Array<{ country: string; providers: Array<{ provider: string; currencies: Array<{ operationTypes: { DEPOSIT: { authType: string } } }> }> }>;
      }
    ).countries
      .find((c) => c.country === 'CIV')!
      .providers.find((p) => p.provider === 'ORANGE_CIV')!;
    assert.equal(orange.currencies[0]!.operationTypes.DEPOSIT.authType, 'PREAUTH');

    const balances = await client.getWalletBalances(options as never);
    assert.ok((balances.data as unknown as { balances: unknown[] }).balances.length >= 3);

    const prediction = await client.getProviderPrediction('+228 90 34 57 89', options as never);
    assert.equal((prediction.data as unknown as { country: string }).country, 'TGO');
  });
});
