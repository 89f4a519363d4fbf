/**
 * Live mode end to end, on each database: a live key -> the MTN MoMo connector -> the MTN mock
 * (a real HTTP server following MTN's API) -> MTN's callback back to our server -> the status query
 * it triggers -> the merchant's webhook event. The server is started as `akwe serve` starts it
 * (OPERATORS_FILE written by the mocks, workers running), and everything goes through sockets.
 * Live webhook endpoints must be public https on 443 or 8443, which a test cannot listen on, so
 * the webhook events are read where the delivery worker takes them from (GET /events); their
 * delivery is the same code as in test mode, covered by the webhook suites.
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
import { DEFAULT_WAVE_MOCK_WEBHOOK_SECRET } from '../../src/operators/wave/mock/wave-mock.js';
import { signWaveWebhook } from '../../src/operators/wave/wave-webhooks.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { freePort, runAkweJson } from '../support/child-process.js';
import { eventually, operatorsFileFor } from '../support/live-operators.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const target of testDatabases()) {
  describe(`live operators (MTN MoMo) on ${target.name}`, { skip: target.skip }, () => {
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
    const direct = (overrides: Wire = {}) => ({
      reference: `LIVE-${newId()}`,
      amount: 3000,
      currency: 'XOF',
      country: 'BJ',
      mode: 'direct',
      operator: 'mtn_bj',
      customer: { phone: '0197000000' },
      ...overrides,
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
    const mtn = () => mocks.mtn.mtn_bj;

    before(async () => {
      mocks = await startOperatorMocks({ mtn: { decisionDelayMs: 100 } });
      operatorsFile = operatorsFileFor(mocks, 1_000, { without: ['pawapay', 'fedapay'] });
      // The server's own files (its development secret) go to a folder of this test, never the checkout.
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-live-'));
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
        OPERATOR_BREAKER_FAILURES: '3',
        OPERATOR_BREAKER_HALF_OPEN_MS: '2000',
        RATE_LIMIT_CREATE_PER_MINUTE: '100000',
        RATE_LIMIT_READ_PER_MINUTE: '100000',
        RATE_LIMIT_PAYOUT_PER_MINUTE: '100000',
        RATE_LIMIT_REFUND_PER_MINUTE: '100000',
        RATE_LIMIT_MANAGE_PER_MINUTE: '100000',
      });
      running = await startServer(config, { logger: createLogger({ level: 'silent' }), announce: () => undefined });
      mocks.sendCallbacksTo(running.url);
      const { merchant } = await running.services.merchants.createMerchant({ name: 'Boutique Live', kycStatus: 'validated', keyEnvironments: [] });
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

    it('collects a live push payment: MTN callback, status query, completed, merchant webhook; MTN asked once', async () => {
      const created = await api('POST', '/collect/payments', direct({ amount: 200_000 }));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.status, 'processing');
      assert.equal(created.body.environment, 'live');
      const completed = await statusOf(() => payment(created.body.reference), 'completed', 'the payment to complete');
      assert.match(completed.psp_reference, /^\d+$/, 'MTN’s financial transaction id');
      await webhookOf('collect.payment.completed', created.body.reference);
      assert.equal(mtn().postsFor('requesttopay', created.body.id), 1);
      assert.equal(mtn().transaction('requesttopay', created.body.id)?.callbacksSent, 1);
      assert.deepEqual(mtn().transaction('requesttopay', created.body.id)?.body['payer'], { partyIdType: 'MSISDN', partyId: '2290197000000' });
      const balance = (await api('GET', '/balances')).body.balances.find((b: Wire) => b.currency === 'XOF');
      assert.ok(balance.available_minor > 0, 'the collection reached the live balance');
    });

    it('collects a live hosted payment paid on the checkout page through MTN', async () => {
      const created = await api('POST', '/collect/payments', {
        reference: `CHK-${newId()}`,
        amount: 5000,
        currency: 'XOF',
        country: 'BJ',
        mode: 'hosted',
        description: 'Abonnement',
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      // What the checkout page's pay action calls once the customer chose MTN and typed the number.
      const stored = await running.services.payments.get({ merchantId, environment: 'live' }, created.body.id);
      const paid = await running.services.payments.payCheckout(stored, { phone: '0197000000', operator: 'mtn_bj' });
      assert.equal(paid.status, 'processing');
      await statusOf(() => payment(created.body.reference), 'completed', 'the hosted payment to complete');
      await webhookOf('collect.payment.completed', created.body.reference);
      assert.equal(mtn().postsFor('requesttopay', created.body.id), 1);
    });

    it('pays out live through MTN disbursement: COMPLETED with its webhook, the balance settled', async () => {
      const before = (await api('GET', '/balances')).body.balances.find((b: Wire) => b.currency === 'XOF');
      const created = await api('POST', '/payout/mobile-money/', { reference: `PO-${newId()}`, amount: 100_000, phone: '0197000001', country: 'BJ', operator: 'mtn_bj' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const done = await statusOf(() => payout(created.body.reference), 'COMPLETED', 'the payout to complete');
      await webhookOf('payout.completed', created.body.reference);
      assert.equal(mtn().postsFor('transfer', created.body.id), 1);
      assert.equal(mtn().transaction('transfer', created.body.id)?.body['amount'], '1000');
      const afterwards = (await api('GET', '/balances')).body.balances.find((b: Wire) => b.currency === 'XOF');
      assert.equal(afterwards.available_minor, before.available_minor - 100_000 - done.fee_minor);
      assert.equal(afterwards.reserved_minor, 0);
    });

    it('runs a live bulk batch: each line a transfer, a payee MTN does not know fails its line alone', async () => {
      const line = (phone: string) => ({ beneficiary_name: 'Afi Mensah', phone, amount: 50_000, currency: 'XOF', reference: `L-${newId()}`, country: 'BJ', operator: 'mtn_bj' });
      const lines = [line('0197000002'), line('0197000450')];
      const created = await api('POST', '/bulk-payments/', { name: 'Primes', items: lines });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const validated = await api('POST', `/bulk-payments/${created.body.id}/validate/`);
      assert.equal(validated.status, 200, JSON.stringify(validated.body));
      const finished = await eventually(async () => {
        const batch = (await api('GET', `/bulk-payments/${created.body.id}/`)).body;
        return ['completed', 'partially_completed', 'failed'].includes(batch.status) ? batch : undefined;
      }, 'the batch to finish');
      assert.equal(finished.status, 'partially_completed');
      const items = (await api('GET', `/bulk-payments/${created.body.id}/items/?limit=10`)).body.data as Wire[];
      const byPhone = new Map(items.map((item) => [item.phone, item]));
      assert.equal(byPhone.get('+2290197000002')?.status, 'completed', JSON.stringify(items));
      assert.equal(byPhone.get('+2290197000450')?.status, 'failed', JSON.stringify(items));
      assert.equal(byPhone.get('+2290197000450')?.failure_code, 'payer_not_found');
      for (const item of items) assert.equal(mtn().postsFor('transfer', item.payout_id), 1, 'each line one transfer');
      const paid = byPhone.get('+2290197000002')!;
      assert.equal((await api('GET', `/payout/mobile-money/${paid.reference}/`)).body.fee_minor, paid.fee_minor, 'the payout charged the fee the draft showed');
      await webhookOf('bulk_payment.partially_completed', created.body.id);
    });

    it('refunds a live payment through MTN: pending, then completed on MTN’s callback', async () => {
      const created = await api('POST', '/collect/payments', direct());
      await statusOf(() => payment(created.body.reference), 'completed', 'the payment to complete');
      const refund = await api('POST', `/collect/payments/${created.body.reference}/refunds`, { amount: 1000 });
      assert.equal(refund.status, 201, JSON.stringify(refund.body));
      assert.equal(refund.body.status, 'pending');
      await eventually(async () => {
        const listed = (await api('GET', `/collect/payments/${created.body.reference}/refunds`)).body.data as Wire[];
        return listed[0]?.status === 'completed' ? listed[0] : undefined;
      }, 'the refund to complete');
      await webhookOf('collect.refund.completed', created.body.reference);
      assert.equal(mtn().postsFor('refund', refund.body.id), 1);
      assert.equal(mtn().transaction('refund', refund.body.id)?.body['referenceIdToRefund'], created.body.id);
    });

    it('answers 503 operator_unavailable with Retry-After for an operator with no live connector, writing nothing', async () => {
      const body = direct({ operator: 'celtiis_bj' });
      const refused = await api('POST', '/collect/payments', body);
      assert.equal(refused.status, 503, JSON.stringify(refused.body));
      assert.equal(refused.body.error.code, 'operator_unavailable');
      assert.ok(Number(refused.headers.get('retry-after')) > 0);
      assert.equal((await api('GET', `/collect/payments/${body.reference}`)).status, 404);
      const payoutRefused = await api('POST', '/payout/mobile-money/', { reference: `PO-${newId()}`, amount: 100_000, phone: '0197000001', country: 'BJ', operator: 'celtiis_bj' });
      assert.equal(payoutRefused.status, 503);
    });

    it('fetches a new token when MTN expires the old one mid-run, and the payment goes through', async () => {
      const issued = mtn().tokensIssued;
      mtn().expireTokens();
      const created = await api('POST', '/collect/payments', direct());
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await statusOf(() => payment(created.body.reference), 'completed', 'the payment to complete');
      assert.equal(mtn().tokensIssued, issued + 1, 'one new collection token');
      assert.equal(mtn().postsFor('requesttopay', created.body.id), 1, 'the refused try was not a request-to-pay');
    });

    it('finds the outcome by polling when MTN’s callback is lost', async () => {
      mtn().setFaults({ dropCallbacks: true });
      try {
        const created = await api('POST', '/collect/payments', direct());
        await statusOf(() => payment(created.body.reference), 'completed', 'reconciliation to find the outcome');
        assert.equal(mtn().transaction('requesttopay', created.body.id)?.callbacksSent, 0);
      } finally {
        mtn().setFaults({ dropCallbacks: false });
      }
    });

    it('changes nothing on a forged callback: the status query decides', async () => {
      const created = await api('POST', '/collect/payments', direct({ customer: { phone: '0197000453' } }));
      assert.equal(created.body.status, 'processing');
      const forged = await fetch(`${running.url}/api/v1/operators/mtn-momo/callbacks/requesttopay/${created.body.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ externalId: created.body.id, amount: '3000', currency: 'XOF', status: 'SUCCESSFUL', financialTransactionId: '1' }),
      });
      assert.equal(forged.status, 200);
      assert.equal((await payment(created.body.reference)).status, 'processing', 'MTN still says PENDING');
      const garbage = await fetch(`${running.url}/api/v1/operators/mtn-momo/callbacks/requesttopay/${created.body.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"hello":"world"}',
      });
      assert.equal(garbage.status, 400);
      assert.equal(((await garbage.json()) as Wire).error.code, 'validation_error');
      const unknown = await fetch(`${running.url}/api/v1/operators/mtn-momo/callbacks/transfer/${newId()}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 'FAILED' }),
      });
      assert.equal(unknown.status, 200, 'acknowledged: MTN would only retry');
      // When MTN does decide, its callback is believed because the query agrees.
      mtn().settle('requesttopay', created.body.id, 'FAILED', 'APPROVAL_REJECTED');
      const failed = await statusOf(() => payment(created.body.reference), 'failed', 'the real outcome');
      assert.equal(failed.failure_code, 'payer_declined');
    });

    it('maps MTN’s magic payers to our failure codes', async () => {
      for (const [phone, code] of [
        ['0197000450', 'payer_not_found'],
        ['0197000451', 'payer_declined'],
        ['0197000452', 'timeout'],
        ['0197000455', 'insufficient_funds'],
      ] as const) {
        const created = await api('POST', '/collect/payments', direct({ customer: { phone } }));
        const failed = await statusOf(() => payment(created.body.reference), 'failed', `${phone} to fail`);
        assert.equal(failed.failure_code, code, phone);
      }
    });

    it('survives an MTN 500 and an MTN that never answers: the retry asks first, MTN is asked to charge once', async () => {
      mtn().setFaults({ failNext: 1 });
      const body = direct();
      const key = newId();
      const failed = await api('POST', '/collect/payments', body, key);
      assert.equal(failed.status, 502, JSON.stringify(failed.body));
      assert.equal(failed.body.error.code, 'operator_outcome_unknown');
      const retried = await api('POST', '/collect/payments', body, key);
      assert.equal(retried.status, 201, JSON.stringify(retried.body));
      await statusOf(() => payment(body.reference), 'completed', 'the retried payment to complete');
      assert.equal(mtn().postsFor('requesttopay', retried.body.id), 1);

      mtn().setFaults({ acceptThenHang: true });
      const hanging = direct();
      const hangKey = newId();
      try {
        const timedOut = await api('POST', '/collect/payments', hanging, hangKey);
        assert.equal(timedOut.status, 502, JSON.stringify(timedOut.body));
      } finally {
        mtn().setFaults({ acceptThenHang: false });
      }
      const again = await api('POST', '/collect/payments', hanging, hangKey);
      assert.ok([200, 201].includes(again.status), JSON.stringify(again.body));
      await statusOf(() => payment(hanging.reference), 'completed', 'the payment MTN took silently to complete');
      assert.equal(mtn().postsFor('requesttopay', again.body.id), 1, 'the retry found it at MTN instead of sending it again');
    });

    it('opens MTN Côte d’Ivoire’s breaker after failures in a row: fails fast with 503, shows unavailable, recovers by a probe; MTN Bénin unaffected', async () => {
      const ivory = mocks.mtn.mtn_ci;
      const body = () => direct({ country: 'CI', operator: 'mtn_ci', customer: { phone: '0701020304' } });
      const statusIn = async (slug: string) => {
        const catalog = (await api('GET', '/collect/payments/operators/')).body;
        return catalog.countries.flatMap((c: Wire) => c.operators).find((o: Wire) => o.slug === slug).status as string;
      };
      assert.equal(await statusIn('mtn_ci'), 'available');
      ivory.setFaults({ failNext: 1_000 });
      try {
        // Failures in a row open it: the creations' own, and the workers' status queries of the
        // payments left unknown (they count too), so it may open before the third creation.
        let failed = 0;
        while ((await api('POST', '/collect/payments', body())).status === 502) {
          failed += 1;
          assert.ok(failed <= 3, 'the breaker opens after 3 failures in a row');
        }
        assert.ok(failed >= 1);
        assert.equal(await statusIn('mtn_ci'), 'unavailable');
        const untouched = ivory.faults.failNext;
        const fast = body();
        const refused = await api('POST', '/collect/payments', fast);
        assert.equal(refused.status, 503, JSON.stringify(refused.body));
        assert.equal(refused.body.error.code, 'operator_unavailable');
        assert.ok(Number(refused.headers.get('retry-after')) > 0);
        assert.equal(ivory.faults.failNext, untouched, 'MTN was not called');
        assert.equal((await api('GET', `/collect/payments/${fast.reference}`)).status, 404, 'nothing written');
        assert.equal(await statusIn('mtn_bj'), 'available', 'each company has its own breaker');
      } finally {
        ivory.setFaults({ failNext: 0 });
      }
      await new Promise((resolve) => setTimeout(resolve, 2_100));
      // One call probes the half-open breaker: a worker's status query may be that one, and a
      // creation racing it is turned away (502, nothing sent); the next goes through.
      const probe = await eventually(async () => {
        const res = await api('POST', '/collect/payments', body());
        return res.status === 201 ? res : undefined;
      }, 'a creation through the closed breaker');
      assert.equal(probe.status, 201, JSON.stringify(probe.body));
      await statusOf(() => payment(probe.body.reference), 'completed', 'the probe payment to complete');
      assert.equal(await statusIn('mtn_ci'), 'available');
    });

    it('keeps an operator answer our records refuse as a discrepancy: the payment stays expired, listed and resolved by the CLI', async () => {
      const created = await api('POST', '/collect/payments', direct({ customer: { phone: '0197000454' } }));
      assert.equal(created.body.status, 'processing');
      // Our side gives up first: the payment expires while MTN still waits for the customer.
      await running.services.database.db
        .updateTable('payments')
        .set({ expires_at: new Date(Date.now() - 1_000).toISOString() })
        .where('id', '=', created.body.id)
        .execute();
      // MTN still holds it as pending, so it first gets its grace (PAYMENT_EXPIRY_GRACE_SECONDS): end that too.
      await eventually(async () => {
        await running.services.database.db
          .updateTable('payments')
          .set({ expiry_grace_until: new Date(Date.now() - 1_000).toISOString() })
          .where('id', '=', created.body.id)
          .where('expiry_grace_until', 'is not', null)
          .execute();
        return (await payment(created.body.reference)).status === 'expired' ? true : undefined;
      }, 'the payment to expire');
      // Then the customer approves: MTN calls back SUCCESSFUL, and its status query agrees.
      mtn().settle('requesttopay', created.body.id, 'SUCCESSFUL');
      const found = await eventually(async () => {
        const all = await running.services.discrepancies.list({ unresolvedOnly: true, limit: 100 });
        return all.find((d) => d.resourceId === created.body.id);
      }, 'the discrepancy to be kept');
      assert.deepEqual([found.resourceType, found.ourStatus, found.operatorStatus, found.reference], ['payment', 'expired', 'completed', created.body.reference]);
      assert.equal((await payment(created.body.reference)).status, 'expired', 'the payment keeps its status');
      // The same callback again is no second discrepancy.
      const again = await fetch(`${running.url}/api/v1/operators/mtn-momo/callbacks/requesttopay/${created.body.id}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(mtn().statusBody(mtn().transaction('requesttopay', created.body.id)!)),
      });
      assert.equal(again.status, 200);
      assert.equal((await running.services.discrepancies.list({ unresolvedOnly: false, limit: 1000 })).filter((d) => d.resourceId === created.body.id).length, 1);

      const env = { DATABASE_URL: db.url, AKWE_DEV: 'true', LOG_LEVEL: 'silent' };
      const listed = await runAkweJson<Wire>(['reconcile', 'discrepancies', '--json'], { env });
      assert.ok(listed.data.some((d: Wire) => d.id === found.id && d.operator_status === 'completed' && d.our_status === 'expired'));
      const resolved = await runAkweJson<Wire>(['reconcile', 'resolve', found.id, '--note', 'accepted: order shipped', '--json'], { env });
      assert.equal(resolved.resolution, 'accepted: order shipped');
      const open = await runAkweJson<Wire>(['reconcile', 'discrepancies', '--json'], { env });
      assert.ok(!open.data.some((d: Wire) => d.id === found.id), 'resolved ones leave the default list');
      const all = await runAkweJson<Wire>(['reconcile', 'discrepancies', '--all', '--json'], { env });
      assert.ok(all.data.some((d: Wire) => d.id === found.id && d.resolved_at !== null));
    });

    describe('Wave (Côte d’Ivoire)', () => {
      const wave = () => mocks.wave.wave_ci;
      const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? assert.fail('no form token on the page');
      const form = (fields: Record<string, string>) => ({
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
        redirect: 'manual' as const,
      });

      /** A hosted live payment paid with Wave on our checkout page, up to Wave's page; returns the payment and where Wave sent the customer. */
      async function payWithWave(amount = 5000) {
        const created = await api('POST', '/collect/payments', { reference: `WAVE-${newId()}`, amount, currency: 'XOF', country: 'CI', mode: 'hosted', description: 'Panier' });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const page = await fetch(created.body.checkout_url);
        const html = await page.text();
        assert.match(html, /Wave/, 'Wave is offered on the checkout page');
        const chosen = await fetch(`${created.body.checkout_url}/pay`, form({ csrf: csrfOf(html), operator: 'wave_ci', phone: '0701020304', lang: 'fr' }));
        assert.equal(chosen.status, 303, await chosen.text());
        const launch = chosen.headers.get('location')!;
        assert.ok(launch.startsWith(`${mocks.url}/wave-ci/`), `the customer goes to Wave: ${launch}`);
        assert.equal(wave().postsFor('checkout', created.body.id), 1, 'one checkout session, keyed by our payment id');
        return { created: created.body, launch };
      }

      it('collects a hosted live payment on Wave’s page: signed webhook, status from Wave, back to our checkout page', async () => {
        const { created, launch } = await payWithWave();
        const waiting = await (await fetch(created.checkout_url)).text();
        assert.match(waiting, /Payer avec Wave/, 'the waiting page leads back to Wave');
        // The customer pays on Wave's page; Wave signs its webhook and sends the customer back.
        const paid = await fetch(launch, form({ outcome: 'succeeded' }));
        assert.equal(paid.status, 303);
        const back = await fetch(paid.headers.get('location')!, { redirect: 'manual' });
        assert.equal(back.status, 303);
        assert.equal(back.headers.get('location'), created.checkout_url, 'back on our checkout page');
        const completed = await statusOf(() => payment(created.reference), 'completed', 'the Wave payment to complete');
        assert.match(completed.psp_reference, /.+/);
        await webhookOf('collect.payment.completed', created.reference);
        assert.match(await (await fetch(created.checkout_url)).text(), /data-state="paid"/, 'the checkout page shows it paid');
      });

      it('gives the checkout page only to a return URL carrying the payment’s proof (the one Wave was given)', async () => {
        const { created } = await payWithWave();
        const [session] = wave().sessionsByReference(created.id);
        assert.ok(session, 'Wave holds the session');
        const returnBase = `${running.url}/api/v1/operators/wave/checkout-return/${created.id}`;
        assert.ok(session.successUrl.startsWith(`${returnBase}/success/`), `Wave was given a return URL with a proof: ${session.successUrl}`);
        const proof = session.successUrl.slice(`${returnBase}/success/`.length);
        assert.ok(session.errorUrl.endsWith(`/error/${proof}`));
        const token = created.checkout_url.split('/checkout/')[1] as string;

        const withProof = await fetch(session.successUrl, { redirect: 'manual' });
        assert.equal(withProof.status, 303);
        assert.equal(withProof.headers.get('location'), created.checkout_url);

        // Someone who knows the payment id only: no proof, a wrong one, another payment's.
        const other = await payWithWave();
        const otherProof = wave().sessionsByReference(other.created.id)[0]!.successUrl.split('/').at(-1)!;
        for (const url of [`${returnBase}/success/${otherProof}`, `${returnBase}/error/${'A'.repeat(43)}`, `${returnBase}/success/x`]) {
          const refused = await fetch(url, { redirect: 'manual' });
          const body = await refused.text();
          assert.equal(refused.status, 404, url);
          assert.match(refused.headers.get('content-type') ?? '', /^text\/html/, 'a page for the customer, not JSON');
          assert.equal(refused.headers.get('location'), null);
          assert.ok(!body.includes(token), 'never the checkout token');
        }
        // A return URL of a session made before the proof existed: a page that tells nothing.
        for (const url of [`${returnBase}/success`, `${running.url}/api/v1/operators/wave/checkout-return/${newId()}/error`]) {
          const legacy = await fetch(url, { redirect: 'manual', headers: { 'accept-language': 'en' } });
          const body = await legacy.text();
          assert.equal(legacy.status, 200, url);
          assert.equal(legacy.headers.get('location'), null);
          assert.match(body, /Payment being processed/);
          assert.ok(!body.includes(token) && !body.includes('/checkout/'.concat(token)), 'never the checkout token');
        }
      });

      it('refunds a Wave payment in full (Wave refunds whole payments only), and refuses a partial refund cleanly', async () => {
        const { created, launch } = await payWithWave(2000);
        await fetch(launch, form({ outcome: 'succeeded' }));
        await statusOf(() => payment(created.reference), 'completed', 'the Wave payment to complete');
        const partial = await api('POST', `/collect/payments/${created.reference}/refunds`, { amount: 500 });
        assert.equal(partial.status, 201, JSON.stringify(partial.body));
        assert.equal(partial.body.status, 'failed', 'Wave cannot refund part of a payment; the amount is released');
        const whole = await api('POST', `/collect/payments/${created.reference}/refunds`, {});
        assert.equal(whole.body.status, 'completed', JSON.stringify(whole.body));
        assert.equal((await payment(created.reference)).status, 'refunded');
      });

      it('refuses a forged or stale Wave webhook, and changes nothing', async () => {
        const { created } = await payWithWave();
        const body = JSON.stringify({
          id: 'AE_forged',
          type: 'checkout.session.completed',
          data: { id: 'cos-x', client_reference: created.id, payment_status: 'succeeded', checkout_status: 'complete' },
        });
        const url = `${running.url}/api/v1/operators/wave/webhooks`;
        const unsigned = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        assert.equal(unsigned.status, 401);
        const wrongSecret = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'wave-signature': signWaveWebhook(body, 'not-the-secret', Math.floor(Date.now() / 1000)) },
          body,
        });
        assert.equal(wrongSecret.status, 401);
        const stale = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'wave-signature': signWaveWebhook(body, DEFAULT_WAVE_MOCK_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600) },
          body,
        });
        assert.equal(stale.status, 401);
        // Even correctly signed, the event only names the payment: Wave's own status (open) decides.
        const signed = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'wave-signature': signWaveWebhook(body, DEFAULT_WAVE_MOCK_WEBHOOK_SECRET, Math.floor(Date.now() / 1000)) },
          body,
        });
        assert.equal(signed.status, 200);
        assert.equal((await payment(created.reference)).status, 'processing');
      });

      it('pays out live through Wave, and a recipient Wave refuses fails alone', async () => {
        const done = await api('POST', '/payout/mobile-money/', { reference: `WPO-${newId()}`, amount: 100_000, phone: '0701020305', country: 'CI', operator: 'wave_ci' });
        assert.equal(done.status, 201, JSON.stringify(done.body));
        await statusOf(() => payout(done.body.reference), 'COMPLETED', 'the Wave payout to complete');
        assert.equal(wave().postsFor('payout', done.body.id), 1, 'our payout id is the Idempotency-Key, sent once');
        const refused = await api('POST', '/payout/mobile-money/', { reference: `WPO-${newId()}`, amount: 100_000, phone: '0701020450', country: 'CI', operator: 'wave_ci' });
        const failed = await statusOf(() => payout(refused.body.reference), 'FAILED', 'the refused Wave payout to fail');
        assert.equal(failed.failure_code, 'payer_not_found');
      });

      it('shows Wave as hosted only in the live catalog, and refuses a direct Wave payment before writing anything', async () => {
        const catalog = (await api('GET', '/collect/payments/operators/')).body;
        const waveCi = catalog.countries.flatMap((c: Wire) => c.operators).find((o: Wire) => o.slug === 'wave_ci');
        assert.deepEqual([waveCi.status, waveCi.supports], ['available', { direct: false, hosted: true, refunds: true }]);
        const body = direct({ country: 'CI', operator: 'wave_ci', customer: { phone: '0701020304' } });
        const refused = await api('POST', '/collect/payments', body);
        assert.equal(refused.status, 400, JSON.stringify(refused.body));
        assert.equal(refused.body.error.code, 'invalid_operator');
        assert.equal((await api('GET', `/collect/payments/${body.reference}`)).status, 404);
      });
    });
  });
}
