/**
 * A real `akwe serve` process, configured with OPERATORS_FILE against the pawaPay mock, is
 * SIGKILLed while pawaPay holds a deposit and a payout without answering (pawaPay took both). After
 * a restart, each is resolved by a status check: the payment completes, the payout completes, and
 * pawaPay was asked to charge and to send exactly once. On every database.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { newId } from '../../src/core/shared/ids.js';
import { startOperatorMocks, type OperatorMocks } from '../../src/operators/mocks/operator-mocks.js';
import { createServices } from '../../src/services.js';
import { freePort, startAkwe, waitForUrl, type AkweProcess } from '../support/child-process.js';
import { seedLiveBalance } from '../support/live-balance.js';
import { eventually, operatorsFileFor } from '../support/live-operators.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const target of testDatabases()) {
  describe(`SIGKILL during live pawaPay calls on ${target.name}`, { skip: target.skip }, () => {
    let db: OpenTestDatabase;
    let mocks: OperatorMocks;
    let dataDir: string;
    let operatorsFile: string;
    let liveKey: string;
    const servers: AkweProcess[] = [];

    before(async () => {
      db = await target.open();
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-live-pawapay-sigkill-'));
      mocks = await startOperatorMocks({ pawapay: { decisionDelayMs: 100 } });
      // Longer than the test waits: the server is killed while its calls are still in flight.
      operatorsFile = operatorsFileFor(mocks, 1_500, { without: ['fedapay', 'mtn-momo', 'orange-money', 'wave'] });
      const services = createServices({ database: db.database, catalog: loadDefaultCatalog() });
      const { merchant } = await services.merchants.createMerchant({ name: 'Killed pawaPay', kycStatus: 'validated', keyEnvironments: [] });
      liveKey = (await services.merchants.createKey({ merchantId: merchant.id, environment: 'live' })).secret;
      await seedLiveBalance(db.database, merchant.id, 5_000_000);
    });
    after(async () => {
      for (const server of servers) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await Promise.allSettled(servers.map((s) => s.exited));
      await mocks.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(join(operatorsFile, '..'), { recursive: true, force: true });
    });

    async function serve(): Promise<{ url: string; server: AkweProcess }> {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const env = {
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        AKWE_DEV: 'true',
        AKWE_DATA_DIR: dataDir,
        DATABASE_URL: db.url,
        OPERATORS_FILE: operatorsFile,
        LOG_LEVEL: 'error',
        // Two chained calls of 1.5 s fit in half the lease (the start-time check); a short lease lets recovery start soon.
        IDEMPOTENCY_LEASE_SECONDS: '6',
        PAYOUT_CHECK_INTERVAL_MS: '200',
      };
      const server = startAkwe(['serve'], { env, cwd: dataDir });
      servers.push(server);
      // A start from the sources can be slow on a loaded machine.
      await waitForUrl(`${url}/health`, { process: server, giveUpAfterMs: 120_000 });
      mocks.sendCallbacksTo(url);
      return { url, server };
    }

    const call = (url: string, method: string, path: string, body?: unknown, idempotencyKey?: string) =>
      fetch(`${url}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${liveKey}`, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    it('resolves the deposit and the payout pawaPay took by a status check after the restart; pawaPay is asked once each', async () => {
      const pawapay = mocks.pawapay;
      pawapay.setFaults({ acceptThenHang: true });
      const first = await serve();
      const paymentBody = { reference: `PP-${newId()}`, amount: 3000, currency: 'XOF', country: 'TG', mode: 'direct', operator: 'flooz_tg', customer: { phone: '99345789' } };
      const paymentKey = newId();
      const inDoubt = call(first.url, 'POST', '/collect/payments', paymentBody, paymentKey).catch((error: unknown) => error);
      const payoutReference = `PPO-${newId()}`;
      const accepted = await call(
        first.url,
        'POST',
        '/payout/mobile-money/',
        { reference: payoutReference, amount: 100_000, phone: '0195345789', country: 'BJ', operator: 'moov_bj' },
        newId(),
      );
      assert.equal(accepted.status, 201, await accepted.clone().text());
      const payoutId = ((await accepted.json()) as Wire).id as string;
      // Both calls reached pawaPay, which keeps them and does not answer.
      await eventually(async () => (pawapay.transactions.size >= 2 ? true : undefined), 'pawaPay to hold both calls');
      first.server.child.kill('SIGKILL');
      await first.server.exited;
      assert.ok((await inDoubt) instanceof Error, 'the client never got an answer');
      pawapay.setFaults({ acceptThenHang: false });

      const second = await serve();
      const paymentId = [...pawapay.transactions.values()].find((tx) => tx.kind === 'deposits')!.id;
      const payment = await eventually(async () => {
        const body = (await (await call(second.url, 'GET', `/collect/payments/${paymentBody.reference}`)).json()) as Wire;
        return body.status === 'completed' ? body : undefined;
      }, 'the payment to be recovered');
      assert.equal(payment.id, paymentId);
      const retried = await call(second.url, 'POST', '/collect/payments', paymentBody, paymentKey);
      assert.equal(((await retried.json()) as Wire).status, 'completed', 'the retry answers the recovered payment');
      const payout = await eventually(async () => {
        const body = (await (await call(second.url, 'GET', `/payout/mobile-money/${payoutReference}/`)).json()) as Wire;
        return body.status === 'COMPLETED' ? body : undefined;
      }, 'the payout to be recovered');
      assert.equal(payout.id, payoutId);
      assert.equal(pawapay.postsFor('deposits', paymentId), 1, 'pawaPay was asked to charge once');
      assert.equal(pawapay.postsFor('payouts', payoutId), 1, 'pawaPay was asked to send once');
      second.server.child.kill('SIGTERM');
      await second.server.exited;
    });
  });
}
