/**
 * A real `akwe serve` process, configured with OPERATORS_FILE against the MTN mock, is SIGKILLed
 * while MTN holds a request-to-pay and a transfer without answering (MTN took both). After a
 * restart, each is resolved by a status query: the payment completes, the payout completes, and
 * MTN was asked to charge and to send exactly once. On every database.
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
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';
import { seedLiveBalance } from '../support/live-balance.js';
import { eventually, operatorsFileFor } from '../support/live-operators.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const target of testDatabases()) {
  describe(`SIGKILL during live MTN calls on ${target.name}`, { skip: target.skip }, () => {
    let db: OpenTestDatabase;
    let mocks: OperatorMocks;
    let dataDir: string;
    let operatorsFile: string;
    let liveKey: string;
    const servers: AkweProcess[] = [];

    before(async () => {
      db = await target.open();
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-live-sigkill-'));
      mocks = await startOperatorMocks({ mtn: { decisionDelayMs: 100 } });
      // Longer than the kill takes: the server is killed while its calls are still in flight. Five
      // chained MTN calls of 1 s fit in half the 10 s lease (a longer timeout is refused at start).
      operatorsFile = operatorsFileFor(mocks, 1_000);
      const services = createServices({ database: db.database, catalog: loadDefaultCatalog() });
      const { merchant } = await services.merchants.createMerchant({ name: 'Killed live', kycStatus: 'validated', keyEnvironments: [] });
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
        IDEMPOTENCY_LEASE_SECONDS: '10',
        PAYOUT_CHECK_INTERVAL_MS: '200',
        // The test polls every 50 ms until recovery (up to a lease after the kill): no read budget may stop it.
        RATE_LIMIT_READ_PER_MINUTE: '100000',
      };
      const server = startAkwe(['serve'], { env, cwd: dataDir });
      servers.push(server);
      await waitForUrl(`${url}/health`, { process: server });
      return { url, server };
    }

    const call = (url: string, method: string, path: string, body?: unknown, idempotencyKey?: string) =>
      fetch(`${url}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${liveKey}`, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    it('resolves the payment and the payout MTN took by asking MTN after the restart; MTN is asked once each', async () => {
      const mtn = mocks.mtn.mtn_bj;
      mtn.setFaults({ acceptThenHang: true });
      const first = await serve();
      const paymentBody = { reference: `LIVE-${newId()}`, amount: 3000, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '0197000000' } };
      const paymentKey = newId();
      const inDoubt = call(first.url, 'POST', '/collect/payments', paymentBody, paymentKey).catch((error: unknown) => error);
      const payoutReference = `PO-${newId()}`;
      const accepted = await call(
        first.url,
        'POST',
        '/payout/mobile-money/',
        { reference: payoutReference, amount: 100_000, phone: '0197000001', country: 'BJ', operator: 'mtn_bj' },
        newId(),
      );
      assert.equal(accepted.status, 201, await accepted.clone().text());
      const payoutId = ((await accepted.json()) as Wire).id as string;
      // Both calls reached MTN, which keeps them and does not answer.
      await eventually(async () => (mtn.transactions.size >= 2 ? true : undefined), 'MTN to hold both calls');
      first.server.child.kill('SIGKILL');
      await first.server.exited;
      // The client got no answer, or (if MTN's 1 s timeout came first) 502: in doubt either way.
      const doubt = await inDoubt;
      assert.ok(doubt instanceof Error || (doubt as Response).status === 502, 'the client never learnt the outcome');
      mtn.setFaults({ acceptThenHang: false });

      const second = await serve();
      const paymentId = [...mtn.transactions.values()].find((tx) => tx.kind === 'requesttopay')!.referenceId;
      const payment = await eventually(async () => {
        const res = await call(second.url, 'GET', `/collect/payments/${paymentBody.reference}`);
        const body = (await res.json()) as Wire;
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
      assert.equal(mtn.postsFor('requesttopay', paymentId), 1, 'MTN was asked to charge once');
      assert.equal(mtn.postsFor('transfer', payoutId), 1, 'MTN was asked to send once');
      second.server.child.kill('SIGTERM');
      await second.server.exited;
    });
  });
}
