/**
 * Live mode through FedaPay, end to end, on each database: a live key -> the FedaPay connector ->
 * the FedaPay mock (a real HTTP server following FedaPay's API) -> FedaPay's signed webhook back to
 * our server -> the status read it triggers -> the merchant's event. The server is started as
 * `akwe serve` starts it, with the operators file `akwe mocks` writes, workers running. Live
 * webhook endpoints must be public https, which a test cannot listen on, so the merchant's events
 * are read where the delivery worker takes them from (GET /events).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { newId } from '../../src/core/shared/ids.js';
import { createLogger } from '../../src/logging.js';
import { DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET } from '../../src/operators/fedapay/mock/fedapay-mock.js';
import { signFedaPayWebhook } from '../../src/operators/fedapay/fedapay-webhooks.js';
import { startOperatorMocks, type OperatorMocks } from '../../src/operators/mocks/operator-mocks.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { freePort } from '../support/child-process.js';
import { assertReturnNeedsProof, eventually, operatorsFileFor } from '../support/live-operators.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Each operator FedaPay serves here: its country, a number of its own, and FedaPay's mode for it. */
const operators = [
  { slug: 'moov_bj', country: 'BJ', phone: '0164000001', e164: '+2290164000001', mode: 'moov' },
  { slug: 'celtiis_bj', country: 'BJ', phone: '0140000001', e164: '+2290140000001', mode: 'sbin' },
  { slug: 'tmoney_tg', country: 'TG', phone: '90112233', e164: '+22890112233', mode: 'togocel' },
  { slug: 'flooz_tg', country: 'TG', phone: '99112233', e164: '+22899112233', mode: 'moov_tg' },
] as const;

for (const target of testDatabases()) {
  describe(`live operators through FedaPay on ${target.name}`, { skip: target.skip }, () => {
    let mocks: OperatorMocks;
    let db: OpenTestDatabase;
    let running: RunningServer;
    let operatorsFile: string;
    let dataDir: string;
    let liveKey: string;
    let merchantId: string;

    const api = async (method: string, path: string, body?: unknown, idempotencyKey: string | null = newId()) => {
      const res = await fetch(`${running.url}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${liveKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(method === 'POST' && idempotencyKey !== null ? { 'idempotency-key': idempotencyKey } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as Wire };
    };
    const direct = (operator: (typeof operators)[number], phone: string = operator.phone) => ({
      reference: `FP-${newId()}`,
      amount: 2500,
      currency: 'XOF',
      country: operator.country,
      mode: 'direct',
      operator: operator.slug,
      customer: { phone },
    });
    const payment = async (reference: string) => (await api('GET', `/collect/payments/${reference}`)).body;
    const payout = async (reference: string) => (await api('GET', `/payout/mobile-money/${reference}/`)).body;
    const statusOf = (read: () => Promise<Wire>, wanted: string, what: string) =>
      eventually(async () => {
        const current = await read();
        return current.status === wanted ? current : undefined;
      }, what);
    const webhookOf = (type: string, reference: string) =>
      eventually(async () => {
        const events = (await api('GET', `/events?type=${type}&limit=100`)).body.data as Wire[];
        return events.find((event) => JSON.stringify(event.data).includes(reference));
      }, `the ${type} webhook event of ${reference}`);
    const fedapay = () => mocks.fedapay;
    const webhookUrl = () => `${running.url}/api/v1/operators/fedapay/webhooks`;
    const postWebhook = (body: string, signature?: string) =>
      fetch(webhookUrl(), { method: 'POST', headers: { 'content-type': 'application/json', ...(signature ? { 'x-fedapay-signature': signature } : {}) }, body });
    /** The recovery worker may be resuming a call when a retry comes (409 operator_call_in_progress): retry as a client would. */
    const retryWhileInProgress = (body: Wire, key: string) =>
      eventually(async () => {
        const res = await api('POST', '/collect/payments', body, key);
        return res.status === 409 ? undefined : res;
      }, 'the retry to be answered');
    const eventsOf = async (reference: string) => ((await api('GET', '/events?limit=100')).body.data as Wire[]).filter((e) => JSON.stringify(e.data).includes(reference));

    before(async () => {
      mocks = await startOperatorMocks({ fedapay: { decisionDelayMs: 100 } });
      operatorsFile = operatorsFileFor(mocks, 1_000, { without: ['pawapay'] });
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-live-fedapay-'));
      db = await target.open();
      const port = await freePort();
      const config = loadConfig({
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        AKWE_DEV: 'true',
        AKWE_DATA_DIR: dataDir,
        DATABASE_URL: db.url,
        OPERATORS_FILE: operatorsFile,
        LOG_LEVEL: 'silent',
        PAYOUT_CHECK_INTERVAL_MS: '200',
        PAYMENT_CHECK_MIN_INTERVAL_MS: '200',
        // Short, so that a send left without an answer may be sent again within the test (after two leases).
        IDEMPOTENCY_LEASE_SECONDS: '10',
        RATE_LIMIT_CREATE_PER_MINUTE: '100000',
        RATE_LIMIT_READ_PER_MINUTE: '100000',
        RATE_LIMIT_PAYOUT_PER_MINUTE: '100000',
        RATE_LIMIT_REFUND_PER_MINUTE: '100000',
        RATE_LIMIT_MANAGE_PER_MINUTE: '100000',
      });
      running = await startServer(config, { logger: createLogger({ level: 'silent' }), announce: () => undefined });
      mocks.sendCallbacksTo(running.url);
      const { merchant } = await running.services.merchants.createMerchant({ name: 'Boutique FedaPay', kycStatus: 'validated', keyEnvironments: [] });
      merchantId = merchant.id;
      liveKey = (await running.services.merchants.createKey({ merchantId, environment: 'live' })).secret;
    });

    after(async () => {
      await running?.shutdown();
      await mocks?.close();
      await db?.close();
      if (operatorsFile) rmSync(join(operatorsFile, '..'), { recursive: true, force: true });
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    for (const operator of operators) {
      it(`collects and pays out live through FedaPay for ${operator.slug} (mode ${operator.mode}): signed webhooks, completed, merchant events, FedaPay asked once`, async () => {
        const created = await api('POST', '/collect/payments', direct(operator));
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.equal(created.body.status, 'processing');
        const completed = await statusOf(() => payment(created.body.reference), 'completed', `the ${operator.slug} payment to complete`);
        assert.match(completed.psp_reference, /^trx_/, 'FedaPay’s transaction reference');
        await webhookOf('collect.payment.completed', created.body.reference);
        const transaction = fedapay().transactionByReference(created.body.id)!;
        assert.deepEqual([transaction.mode, transaction.amount, transaction.phone?.number], [operator.mode, 2500, operator.e164]);
        assert.equal(fedapay().callsFor('create_transaction', created.body.id), 1);
        assert.equal(fedapay().callsFor('send', created.body.id), 1);
        assert.ok(
          fedapay().webhooks.some((w) => w.merchantReference === created.body.id && w.name === 'transaction.approved' && w.outcome === 200),
          'FedaPay’s signed webhook was taken',
        );

        const sent = await api('POST', '/payout/mobile-money/', {
          reference: `FPO-${newId()}`,
          amount: 100_000,
          phone: operator.phone,
          country: operator.country,
          operator: operator.slug,
        });
        assert.equal(sent.status, 201, JSON.stringify(sent.body));
        await statusOf(() => payout(sent.body.reference), 'COMPLETED', `the ${operator.slug} payout to complete`);
        await webhookOf('payout.completed', sent.body.reference);
        const fedaPayout = fedapay().payoutByReference(sent.body.id)!;
        assert.deepEqual([fedaPayout.mode, fedaPayout.amount, fedaPayout.status], [operator.mode, 1000, 'sent']);
        assert.equal(fedapay().callsFor('create_payout', sent.body.id), 1);
        assert.equal(fedapay().callsFor('start_payout', sent.body.id), 1);
      });
    }

    it('collects a hosted payment paid on our checkout page through FedaPay, and sends the customer back from FedaPay’s return URL to it', async () => {
      const created = await api('POST', '/collect/payments', {
        reference: `FPH-${newId()}`,
        amount: 5000,
        currency: 'XOF',
        country: 'TG',
        mode: 'hosted',
        description: 'Abonnement',
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const stored = await running.services.payments.get({ merchantId, environment: 'live' }, created.body.id);
      const paid = await running.services.payments.payCheckout(stored, { phone: '90112233', operator: 'tmoney_tg' });
      assert.equal(paid.status, 'processing');
      await statusOf(() => payment(created.body.reference), 'completed', 'the hosted payment to complete');
      assert.equal(fedapay().transactionByReference(created.body.id)?.mode, 'togocel');
      const returnUrl = fedapay().transactionByReference(created.body.id)?.callbackUrl ?? '';
      assert.ok(returnUrl.startsWith(`${running.url}/api/v1/operators/fedapay/checkout-return/${created.body.id}/`), returnUrl);
      // Knowing the payment id is not enough: no checkout token without the proof.
      await assertReturnNeedsProof(returnUrl, String(created.body.checkout_url), [[`${running.url}/api/v1/operators/fedapay/checkout-return/not-an-id`, 404]]);
    });

    it('maps a declined FedaPay transaction to its failure_code, with its webhook', async () => {
      const created = await api('POST', '/collect/payments', direct(operators[0], '0164000455'));
      const failed = await statusOf(() => payment(created.body.reference), 'failed', 'the declined payment to fail');
      assert.equal(failed.failure_code, 'insufficient_funds');
      await webhookOf('collect.payment.failed', created.body.reference);
      const refused = await api('POST', '/collect/payments', direct(operators[3], '99112450'));
      assert.equal((await statusOf(() => payment(refused.body.reference), 'failed', 'the unknown number to fail')).failure_code, 'payer_not_found');
    });

    it('refuses a forged or stale FedaPay webhook with 401, and changes nothing', async () => {
      const created = await api('POST', '/collect/payments', direct(operators[1], '0140000453'));
      assert.equal(created.body.status, 'processing');
      const events = (await eventsOf(created.body.reference)).length;
      const entity = { ...fedapay().transactionBody(fedapay().transactionByReference(created.body.id)!), status: 'approved' };
      const body = JSON.stringify({ name: 'transaction.approved', object: 'transaction', entity });
      const nowSeconds = Math.floor(Date.now() / 1000);
      assert.equal((await postWebhook(body)).status, 401, 'unsigned');
      assert.equal((await postWebhook(body, signFedaPayWebhook(body, 'wh_not_the_secret', nowSeconds))).status, 401, 'wrong secret');
      assert.equal((await postWebhook(body, signFedaPayWebhook(body, DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET, nowSeconds - 3600))).status, 401, 'an hour old');
      const tampered = signFedaPayWebhook(body.replace('approved', 'declined'), DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET, nowSeconds);
      assert.equal((await postWebhook(body, tampered)).status, 401, 'signed over another body');
      assert.equal((await payment(created.body.reference)).status, 'processing');
      assert.equal((await eventsOf(created.body.reference)).length, events, 'no event written');
      // Ends it, so no worker keeps asking FedaPay about it during the fault tests below.
      fedapay().settleTransaction(fedapay().transactionByReference(created.body.id)!.id, { status: 'canceled' });
      await statusOf(() => payment(created.body.reference), 'failed', 'the canceled payment to fail');
    });

    it('believes a genuine webhook only as far as FedaPay’s status read: a signed "approved" for a pending transaction changes nothing', async () => {
      const created = await api('POST', '/collect/payments', direct(operators[2], '90112453'));
      const events = (await eventsOf(created.body.reference)).length;
      const entity = { ...fedapay().transactionBody(fedapay().transactionByReference(created.body.id)!), status: 'approved' };
      const body = JSON.stringify({ name: 'transaction.approved', object: 'transaction', entity });
      const genuine = await postWebhook(body, signFedaPayWebhook(body, DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET, Math.floor(Date.now() / 1000)));
      assert.equal(genuine.status, 200);
      assert.equal((await payment(created.body.reference)).status, 'processing', 'FedaPay still says pending');
      assert.equal((await eventsOf(created.body.reference)).length, events);
      // When FedaPay does decide, its webhook is believed because the read agrees.
      fedapay().settleTransaction(fedapay().transactionByReference(created.body.id)!.id, { status: 'approved' });
      await statusOf(() => payment(created.body.reference), 'completed', 'the settled payment to complete');
    });

    it('refuses a refund before any write: FedaPay’s API takes no refunds', async () => {
      const created = await api('POST', '/collect/payments', direct(operators[0]));
      await statusOf(() => payment(created.body.reference), 'completed', 'the payment to complete');
      const refused = await api('POST', `/collect/payments/${created.body.reference}/refunds`, { amount: 1000 });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.error.code, 'refund_not_supported');
      assert.deepEqual((await api('GET', `/collect/payments/${created.body.reference}/refunds`)).body.data, []);
      const after = await payment(created.body.reference);
      assert.deepEqual([after.status, after.amount_refunded ?? 0], ['completed', 0]);
      const catalog = (await api('GET', '/collect/payments/operators/')).body;
      const moov = catalog.countries.flatMap((c: Wire) => c.operators).find((o: Wire) => o.slug === 'moov_bj');
      assert.deepEqual([moov.status, moov.supports], ['available', { direct: true, hosted: true, refunds: false }]);
    });

    it('survives a FedaPay 500 and a send that never answers: the retry finds the transaction by our reference and sends it once', async () => {
      fedapay().setFaults({ failNext: 1 });
      const body = direct(operators[3]);
      const key = newId();
      const failed = await api('POST', '/collect/payments', body, key);
      assert.equal(failed.status, 502, JSON.stringify(failed.body));
      assert.equal(failed.body.error.code, 'operator_outcome_unknown');
      const retried = await retryWhileInProgress(body, key);
      assert.ok([200, 201].includes(retried.status), JSON.stringify(retried.body));
      await statusOf(() => payment(body.reference), 'completed', 'the retried payment to complete');
      assert.equal(fedapay().callsFor('send', retried.body.id), 1);

      // FedaPay takes the transaction but its answer never comes: the retry finds it by merchant_reference.
      fedapay().setFaults({ acceptThenHang: true });
      const hanging = direct(operators[3]);
      const hangKey = newId();
      try {
        const timedOut = await api('POST', '/collect/payments', hanging, hangKey);
        assert.equal(timedOut.status, 502, JSON.stringify(timedOut.body));
      } finally {
        fedapay().setFaults({ acceptThenHang: false });
      }
      // A send with no answer may still reach FedaPay: nothing is sent again for two leases.
      const atOnce = await api('POST', '/collect/payments', hanging, hangKey);
      assert.equal(atOnce.status, 409, JSON.stringify(atOnce.body));
      assert.equal(atOnce.body.error.code, 'operator_call_in_progress');
      assert.ok(Number(atOnce.headers.get('retry-after')) >= 1);
      const again = await retryWhileInProgress(hanging, hangKey);
      assert.ok([200, 201].includes(again.status), JSON.stringify(again.body));
      await statusOf(() => payment(hanging.reference), 'completed', 'the payment FedaPay took silently to complete');
      const id = again.body.id as string;
      assert.equal(fedapay().callsFor('create_transaction', id), 2, 'asked again, refused as a duplicate reference');
      assert.equal(fedapay().callsFor('send', id), 1, 'sent once');
      assert.equal([...fedapay().transactions.values()].filter((t) => t.merchantReference === id).length, 1, 'one FedaPay transaction');
    });
  });
}
