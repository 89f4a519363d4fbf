/**
 * Orange Côte d'Ivoire live, end to end on each database: our checkout -> the Orange Money Web
 * Payment connector -> the Orange mock (OAuth token, webpayment, the payment page the test
 * approves) -> Orange's notification to our notif_url, authenticated by its notif_token -> the
 * transactionstatus query that alone decides. Refunds and payouts, which this route does not
 * offer, are refused before anything is written.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { newId } from '../../src/core/shared/ids.js';
import { createLogger } from '../../src/logging.js';
import { startOperatorMocks, type OperatorMocks } from '../../src/operators/mocks/operator-mocks.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { freePort } from '../support/child-process.js';
import { assertReturnNeedsProof, eventually, operatorsFileFor } from '../support/live-operators.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const target of testDatabases()) {
  describe(`live Orange Money Web Payment on ${target.name}`, { skip: target.skip }, () => {
    let mocks: OperatorMocks;
    let db: OpenTestDatabase;
    let running: RunningServer;
    let operatorsFile: string;
    let dataDir: string;
    let liveKey: string;
    let merchantId: string;

    const api = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${running.url}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${liveKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(method === 'POST' ? { 'idempotency-key': newId() } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Wire };
    };
    const orange = () => mocks.orange.orange_ci;
    const scope = () => ({ merchantId, environment: 'live' as const });
    const notify = (id: string, body: unknown) =>
      fetch(`${running.url}/api/v1/operators/orange-money/notifications/${id}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    /** A hosted payment whose customer chose Orange on the checkout page. */
    const paidWithOrange = async () => {
      const created = await api('POST', '/collect/payments', {
        reference: `OR-${newId()}`,
        amount: 5000,
        currency: 'XOF',
        country: 'CI',
        mode: 'hosted',
        description: 'Abonnement',
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const stored = await running.services.payments.get(scope(), created.body.id);
      const paying = await running.services.payments.payCheckout(stored, { phone: '0707000000', operator: 'orange_ci' });
      return { created: created.body, paying };
    };

    before(async () => {
      mocks = await startOperatorMocks({ mtn: { decisionDelayMs: 100 } });
      // Orange's own route alone: pawaPay, its second route, would take the payouts and refunds.
      operatorsFile = operatorsFileFor(mocks, 2_000, { without: ['pawapay'] });
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-orange-'));
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
        PAYMENT_CHECK_MIN_INTERVAL_MS: '60000',
        RATE_LIMIT_CREATE_PER_MINUTE: '100000',
        RATE_LIMIT_READ_PER_MINUTE: '100000',
        RATE_LIMIT_PAYOUT_PER_MINUTE: '100000',
        RATE_LIMIT_REFUND_PER_MINUTE: '100000',
      });
      running = await startServer(config, { logger: createLogger({ level: 'silent' }), announce: () => undefined });
      const { merchant } = await running.services.merchants.createMerchant({ name: 'Boutique Abidjan', kycStatus: 'validated', keyEnvironments: [] });
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

    it('collects on Orange’s page: webpayment, notification by notif_token, transactionstatus decides', async () => {
      const { created, paying } = await paidWithOrange();
      assert.equal(paying.status, 'processing');
      assert.equal(paying.route, 'orange-money');
      const opened = orange().payment(created.id)!;
      assert.ok(opened, 'Orange received a web payment with our payment id as order id');
      assert.equal(opened.body['amount'], 5000);
      assert.equal(opened.body['currency'], 'XOF');
      assert.equal(opened.body['notif_url'], `${running.url}/api/v1/operators/orange-money/notifications/${created.id}`);
      assert.match(paying.operatorRedirectUrl ?? '', new RegExp(`/orange-ci/pay/${opened.payToken}$`), 'the customer is sent to Orange’s page');
      assert.equal(JSON.stringify(await running.services.payments.get(scope(), created.id)).includes(opened.notifToken), false, 'the notif_token is kept as a hash only');

      // The customer approves on Orange's page; Orange notifies us and sends the customer back.
      const back = await fetch(`${mocks.url}/orange-ci/pay/${opened.payToken}/approve`, { method: 'POST', redirect: 'manual' });
      assert.equal(back.status, 303);
      const returnUrl = back.headers.get('location') ?? '';
      assert.ok(returnUrl.startsWith(`${running.url}/api/v1/operators/orange-money/return/${created.id}/`), returnUrl);
      // Knowing the payment id is not enough: no checkout token without the proof.
      await assertReturnNeedsProof(returnUrl, created.checkout_url);
      const completed = await eventually(async () => {
        const current = (await api('GET', `/collect/payments/${created.reference}`)).body;
        return current.status === 'completed' ? current : undefined;
      }, 'the Orange payment to complete');
      assert.equal(completed.psp_reference, orange().payment(created.id)!.txnid);
      assert.equal(opened.notificationsSent, 1);
      assert.ok(orange().callsFor(created.id) >= 2, 'webpayment, then transactionstatus');
      assert.equal('route' in completed, false, 'the contract’s shapes are unchanged');
    });

    it('refuses a notification with a forged notif_token, and changes nothing', async () => {
      const { created } = await paidWithOrange();
      const before = orange().callsFor(created.id);
      const forged = await notify(created.id, { status: 'SUCCESS', notif_token: 'f'.repeat(32), txnid: 'MP0000.FORGED' });
      assert.equal(forged.status, 401);
      assert.equal(((await forged.json()) as Wire).error.code, 'unauthenticated');
      assert.equal(orange().callsFor(created.id), before, 'Orange was not even asked');
      assert.equal((await api('GET', `/collect/payments/${created.reference}`)).body.status, 'processing');
      // Another payment's genuine token does not open this one either.
      const other = await paidWithOrange();
      const borrowed = await notify(created.id, { status: 'SUCCESS', notif_token: orange().payment(other.created.id)!.notifToken });
      assert.equal(borrowed.status, 401);
      const garbage = await notify(created.id, { hello: 'world' });
      assert.equal(garbage.status, 400);
      // The genuine token is believed only as far as transactionstatus agrees: Orange still says pending.
      const early = await notify(created.id, { status: 'SUCCESS', notif_token: orange().payment(created.id)!.notifToken });
      assert.equal(early.status, 200);
      assert.equal((await api('GET', `/collect/payments/${created.reference}`)).body.status, 'processing');
    });

    it('fails the payment when the customer fails on Orange’s page', async () => {
      const { created } = await paidWithOrange();
      const opened = orange().payment(created.id)!;
      await fetch(`${mocks.url}/orange-ci/pay/${opened.payToken}/fail`, { method: 'POST', redirect: 'manual' });
      const failed = await eventually(async () => {
        const current = (await api('GET', `/collect/payments/${created.reference}`)).body;
        return current.status === 'failed' ? current : undefined;
      }, 'the Orange payment to fail');
      assert.equal(failed.failure_code, 'payer_declined');
    });

    it('refuses a refund and a payout on the Orange route before writing anything', async () => {
      const { created } = await paidWithOrange();
      orange().decide(orange().payment(created.id)!, 'SUCCESS');
      await eventually(async () => {
        const current = (await api('GET', `/collect/payments/${created.reference}`)).body;
        return current.status === 'completed' ? current : undefined;
      }, 'the Orange payment to complete');
      const refund = await api('POST', `/collect/payments/${created.reference}/refunds`, { amount: 1000 });
      assert.equal(refund.status, 400, JSON.stringify(refund.body));
      assert.equal(refund.body.error.code, 'refund_not_supported');
      assert.deepEqual((await api('GET', `/collect/payments/${created.reference}/refunds`)).body.data, []);
      assert.equal((await api('GET', `/collect/payments/${created.reference}`)).body.status, 'completed');

      const reference = `ORP-${newId()}`;
      const payout = await api('POST', '/payout/mobile-money/', { reference, amount: 100_000, phone: '0707000001', country: 'CI', operator: 'orange_ci' });
      assert.equal(payout.status, 400, JSON.stringify(payout.body));
      assert.equal(payout.body.error.code, 'invalid_operator');
      assert.equal((await api('GET', `/payout/mobile-money/${reference}/`)).status, 404, 'nothing written');

      const directReference = `ORD-${newId()}`;
      const direct = await api('POST', '/collect/payments', {
        reference: directReference,
        amount: 3000,
        currency: 'XOF',
        country: 'CI',
        mode: 'direct',
        operator: 'orange_ci',
        customer: { phone: '0707000002' },
      });
      assert.equal(direct.status, 400, JSON.stringify(direct.body));
      assert.equal(direct.body.error.code, 'invalid_operator');
      assert.equal((await api('GET', `/collect/payments/${directReference}`)).status, 404);
    });
  });
}
