/**
 * Live mode through pawaPay, end to end, on each database: a live key -> the pawaPay connector ->
 * the pawaPay mock (a real HTTP server following pawaPay's v2 API, signing its callbacks as pawaPay
 * does when signed callbacks are on) -> pawaPay's signed callback to our server -> its signature
 * checked, then the status check it triggers -> the merchant's webhook event. Togo (Flooz), Bénin
 * (Moov) and Côte d'Ivoire (Orange, pre-authorised: the OTP flow). The webhook events are read
 * where the delivery worker takes them from (GET /events), as in the other live suites.
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
import { signPawapayCallback } from '../../src/operators/pawapay/pawapay-signatures.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { freePort } from '../support/child-process.js';
import { seedLiveBalance } from '../support/live-balance.js';
import { eventually, operatorsFileFor } from '../support/live-operators.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const target of testDatabases()) {
  describe(`live operators through pawaPay on ${target.name}`, { skip: target.skip }, () => {
    let mocks: OperatorMocks;
    let db: OpenTestDatabase;
    let running: RunningServer;
    let operatorsFile: string;
    let dataDir: string;
    let liveKey: string;

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
    const direct = (operator: string, country: string, phone: string, overrides: Wire = {}) => ({
      reference: `PP-${newId()}`,
      amount: 3000,
      currency: 'XOF',
      country,
      mode: 'direct',
      operator,
      customer: { phone },
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
    const pawapay = () => mocks.pawapay;

    before(async () => {
      mocks = await startOperatorMocks({ pawapay: { decisionDelayMs: 100, signCallbacks: true } });
      operatorsFile = operatorsFileFor(mocks, 2_000, { first: 'pawapay', without: ['fedapay'] });
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-live-pawapay-'));
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
        RATE_LIMIT_CREATE_PER_MINUTE: '100000',
        RATE_LIMIT_READ_PER_MINUTE: '100000',
        RATE_LIMIT_PAYOUT_PER_MINUTE: '100000',
        RATE_LIMIT_REFUND_PER_MINUTE: '100000',
        RATE_LIMIT_MANAGE_PER_MINUTE: '100000',
      });
      running = await startServer(config, { logger: createLogger({ level: 'silent' }), announce: () => undefined });
      mocks.sendCallbacksTo(running.url);
      const { merchant } = await running.services.merchants.createMerchant({ name: 'Boutique pawaPay', kycStatus: 'validated', keyEnvironments: [] });
      liveKey = (await running.services.merchants.createKey({ merchantId: merchant.id, environment: 'live' })).secret;
      await seedLiveBalance(running.services.database, merchant.id, 5_000_000);
    });

    after(async () => {
      await running?.shutdown();
      await mocks?.close();
      await db?.close();
      if (operatorsFile) rmSync(join(operatorsFile, '..'), { recursive: true, force: true });
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('collects a live push payment in Togo (Flooz): signed callback, status check, completed, webhook; pawaPay asked once', async () => {
      const created = await api('POST', '/collect/payments', direct('flooz_tg', 'TG', '99345789'));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.status, 'processing');
      const completed = await statusOf(() => payment(created.body.reference), 'completed', 'the Flooz payment to complete');
      assert.match(completed.psp_reference, /^PP\d+$/, 'pawaPay’s providerTransactionId');
      await webhookOf('collect.payment.completed', created.body.reference);
      assert.equal(pawapay().postsFor('deposits', created.body.id), 1);
      assert.equal(pawapay().transaction('deposits', created.body.id)?.callbacksSent, 1);
      assert.deepEqual(pawapay().transaction('deposits', created.body.id)?.body['payer'], {
        type: 'MMO',
        accountDetails: { phoneNumber: '22899345789', provider: 'MOOV_TGO' },
      });
      assert.equal(pawapay().transaction('deposits', created.body.id)?.body['amount'], '3000', 'major units, as a string');
    });

    it('collects a live push payment in Bénin (Moov) and pays out in Bénin and in Togo, each with its webhook', async () => {
      const created = await api('POST', '/collect/payments', direct('moov_bj', 'BJ', '0195345789'));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await statusOf(() => payment(created.body.reference), 'completed', 'the Moov Bénin payment to complete');
      await webhookOf('collect.payment.completed', created.body.reference);

      for (const [operator, country, phone] of [
        ['moov_bj', 'BJ', '0195345789'],
        ['flooz_tg', 'TG', '99345789'],
      ] as const) {
        const sent = await api('POST', '/payout/mobile-money/', { reference: `PPO-${newId()}`, amount: 100_000, phone, country, operator });
        assert.equal(sent.status, 201, JSON.stringify(sent.body));
        const done = await statusOf(() => payout(sent.body.reference), 'COMPLETED', `the ${operator} payout to complete`);
        assert.ok(done.psp_reference);
        await webhookOf('payout.completed', sent.body.reference);
        assert.equal(pawapay().postsFor('payouts', sent.body.id), 1);
        assert.equal(pawapay().transaction('payouts', sent.body.id)?.body['amount'], '1000', 'centimes to major units');
      }
    });

    it('runs Orange Côte d’Ivoire’s pre-authorisation through the OTP flow: awaiting_otp without calling pawaPay, then the code starts the deposit', async () => {
      const created = await api('POST', '/collect/payments', direct('orange_ci', 'CI', '0703456789'));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.status, 'awaiting_otp');
      assert.equal(pawapay().postsFor('deposits', created.body.id), 0, 'nothing sent before the code');
      const confirmed = await api('POST', `/collect/payments/${created.body.reference}/confirm`, { otp: '482913' });
      assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
      assert.equal(pawapay().transaction('deposits', created.body.id)?.body['preAuthorisationCode'], '482913');
      assert.equal((pawapay().transaction('deposits', created.body.id)?.body['payer'] as Wire | undefined)?.accountDetails?.provider, 'ORANGE_CIV');
      await statusOf(() => payment(created.body.reference), 'completed', 'the Orange payment to complete');
      await webhookOf('collect.payment.completed', created.body.reference);

      const refused = await api('POST', '/collect/payments', direct('orange_ci', 'CI', '0703456789'));
      await api('POST', `/collect/payments/${refused.body.reference}/confirm`, { otp: '000000' });
      const failed = await statusOf(() => payment(refused.body.reference), 'failed', 'the refused code to fail the payment');
      assert.equal(failed.failure_code, 'otp_failed');
    });

    it('refunds a live payment through pawaPay: pending, then completed on the refund callback', async () => {
      const created = await api('POST', '/collect/payments', direct('flooz_tg', 'TG', '99345789'));
      await statusOf(() => payment(created.body.reference), 'completed', 'the payment to complete');
      const refund = await api('POST', `/collect/payments/${created.body.reference}/refunds`, { amount: 1000 });
      assert.equal(refund.status, 201, JSON.stringify(refund.body));
      await eventually(async () => {
        const listed = (await api('GET', `/collect/payments/${created.body.reference}/refunds`)).body.data as Wire[];
        return listed.find((r) => r.status === 'completed');
      }, 'the refund to complete');
      await webhookOf('collect.refund.completed', created.body.reference);
      const sent = pawapay().transaction('refunds', refund.body.id);
      assert.deepEqual([sent?.body['depositId'], sent?.body['amount']], [created.body.id, '1000']);
      assert.equal(pawapay().postsFor('refunds', refund.body.id), 1);
    });

    it('maps pawaPay’s failure codes: INSUFFICIENT_BALANCE to insufficient_funds, RECIPIENT_NOT_FOUND to payer_not_found', async () => {
      const created = await api('POST', '/collect/payments', direct('moov_bj', 'BJ', '0195345049'));
      const failed = await statusOf(() => payment(created.body.reference), 'failed', 'the payment to fail');
      assert.equal(failed.failure_code, 'insufficient_funds');
      await webhookOf('collect.payment.failed', created.body.reference);
      const sent = await api('POST', '/payout/mobile-money/', { reference: `PPO-${newId()}`, amount: 100_000, phone: '99345089', country: 'TG', operator: 'flooz_tg' });
      const refused = await statusOf(() => payout(sent.body.reference), 'FAILED', 'the payout to fail');
      assert.equal(refused.failure_code, 'payer_not_found');
    });

    it('refuses an unsigned or forged callback, and a signed one changes only what pawaPay’s status says', async () => {
      // A number pawaPay's sandbox keeps processing: no callback comes by itself.
      const created = await api('POST', '/collect/payments', direct('flooz_tg', 'TG', '99345129'));
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const url = new URL(`${running.url}/api/v1/operators/pawapay/callbacks/deposits`);
      const rawBody = Buffer.from(JSON.stringify({ depositId: created.body.id, status: 'COMPLETED', amount: '3000', currency: 'XOF', providerTransactionId: 'FORGED' }));
      const unsigned = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: rawBody });
      assert.equal(unsigned.status, 401);
      const signedHeaders = signPawapayCallback({ method: 'POST', authority: url.host, path: url.pathname, rawBody }, pawapay().signing!.privateKeyPem, {
        keyId: 'k',
        nowSeconds: Math.floor(Date.now() / 1000),
      });
      const tampered = await fetch(url, { method: 'POST', headers: signedHeaders, body: Buffer.from(rawBody.toString().replace('3000', '30')) });
      assert.equal(tampered.status, 401, 'a body that is not the signed one');
      const expired = signPawapayCallback({ method: 'POST', authority: url.host, path: url.pathname, rawBody }, pawapay().signing!.privateKeyPem, {
        keyId: 'k',
        nowSeconds: Math.floor(Date.now() / 1000) - 3600,
      });
      assert.equal((await fetch(url, { method: 'POST', headers: expired, body: rawBody })).status, 401, 'an expired signature');
      // Signed by pawaPay's key, yet pawaPay's own status check says PROCESSING: nothing moves.
      const signed = await fetch(url, { method: 'POST', headers: signedHeaders, body: rawBody });
      assert.equal(signed.status, 200);
      const current = await payment(created.body.reference);
      assert.equal(current.status, 'processing');
      assert.notEqual(current.psp_reference, 'FORGED');
      pawapay().settle('deposits', created.body.id, 'COMPLETED');
      await statusOf(() => payment(created.body.reference), 'completed', 'the payment once pawaPay completes it');
    });

    it('shows a provider pawaPay reports closed as unavailable, and refuses new payments through it', async () => {
      pawapay().setAvailability('MOOV_BEN', 'DEPOSIT', 'CLOSED');
      try {
        const catalogStatus = async () => {
          const live = (await api('GET', '/collect/payments/operators/')).body;
          return live.countries.find((c: Wire) => c.code === 'BJ').operators.find((o: Wire) => o.slug === 'moov_bj').status as string;
        };
        await eventually(async () => ((await catalogStatus()) === 'unavailable' ? true : undefined), 'moov_bj to show unavailable', 20_000);
        const refused = await api('POST', '/collect/payments', direct('moov_bj', 'BJ', '0195345789'));
        assert.equal(refused.status, 503, JSON.stringify(refused.body));
        assert.equal(refused.body.error.code, 'operator_unavailable');
      } finally {
        pawapay().setAvailability('MOOV_BEN', 'DEPOSIT', 'OPERATIONAL');
      }
    });
  });
}
