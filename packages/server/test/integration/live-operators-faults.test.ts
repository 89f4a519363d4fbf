/**
 * Live money under operator faults, on each database: a real server (workers running) against the
 * MTN and Wave mocks, with faults set through the mocks' own switches (dropped callbacks, 500s,
 * answers that never come, a reversal). What must hold: a payment the customer approved near its
 * expiry is never silently expired; a read with `sync=true` never answers a write error while the
 * operator is down; the breaker counts what merchants see and says its real wait; a reversed Wave
 * payout becomes a discrepancy; a call timeout longer than the lease allows stops the start.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { ConfigError, loadConfig } from '../../src/config.js';
import { newId } from '../../src/core/shared/ids.js';
import { createLogger } from '../../src/logging.js';
import { startOperatorMocks, type OperatorMocks } from '../../src/operators/mocks/operator-mocks.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { freePort } from '../support/child-process.js';
import { seedLiveBalance } from '../support/live-balance.js';
import { eventually, operatorsFileFor } from '../support/live-operators.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const target of testDatabases()) {
  describe(`live operators under faults on ${target.name}`, { skip: target.skip }, () => {
    let mocks: OperatorMocks;
    let db: OpenTestDatabase;
    let running: RunningServer;
    let operatorsFile: string;
    let dataDir: string;
    let liveKey: string;
    let merchantId: string;

    const settings = (port: number, extra: Record<string, string> = {}) => ({
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
      PAYMENT_EXPIRY_GRACE_SECONDS: '2',
      OPERATOR_BREAKER_FAILURES: '3',
      OPERATOR_BREAKER_HALF_OPEN_MS: '2000',
      RATE_LIMIT_CREATE_PER_MINUTE: '100000',
      RATE_LIMIT_READ_PER_MINUTE: '100000',
      RATE_LIMIT_PAYOUT_PER_MINUTE: '100000',
      ...extra,
    });
    const api = async (method: string, path: string, body?: unknown, idempotencyKey: string = newId()) => {
      const res = await fetch(`${running.url}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${liveKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(method === 'POST' ? { 'idempotency-key': idempotencyKey } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as Wire };
    };
    const direct = (overrides: Wire = {}) => ({
      reference: `FLT-${newId()}`,
      amount: 3000,
      currency: 'XOF',
      country: 'BJ',
      mode: 'direct',
      operator: 'mtn_bj',
      customer: { phone: '0197000453' },
      ...overrides,
    });
    const ivoryPayment = () => direct({ country: 'CI', operator: 'mtn_ci', customer: { phone: '0701020453' } });
    const payment = async (reference: string) => (await api('GET', `/collect/payments/${reference}`)).body;
    const payout = async (reference: string) => (await api('GET', `/payout/mobile-money/${reference}/`)).body;
    const statusOf = (read: () => Promise<Wire>, wanted: string, what: string, timeoutMs?: number) =>
      eventually(
        async () => {
          const current = await read();
          return current.status === wanted ? current : undefined;
        },
        what,
        timeoutMs,
      );
    const discrepancyOf = (resourceId: string, timeoutMs?: number) =>
      eventually(
        async () => (await running.services.discrepancies.list({ unresolvedOnly: false, limit: 1000 })).find((d) => d.resourceId === resourceId),
        `a discrepancy about ${resourceId}`,
        timeoutMs,
      );
    /** The payment's check is due long after its expiry, as the growing wait between checks leaves it; its version moves so no check in flight undoes it. */
    const checkLongAfter = (id: string, changes: { expires_at?: string } = {}) =>
      running.services.database.db
        .updateTable('payments')
        .set({ next_check_at: new Date(Date.now() + 10 * 60_000).toISOString(), version: sql<number>`version + 1`, ...changes })
        .where('id', '=', id)
        .execute();
    const mtn = () => mocks.mtn.mtn_bj;
    const ivory = () => mocks.mtn.mtn_ci;
    const statusIn = async (slug: string) => {
      const catalog = (await api('GET', '/collect/payments/operators/')).body;
      return catalog.countries.flatMap((c: Wire) => c.operators).find((o: Wire) => o.slug === slug).status as string;
    };

    before(async () => {
      mocks = await startOperatorMocks({ mtn: { decisionDelayMs: 100 } });
      operatorsFile = operatorsFileFor(mocks, 1_000, { without: ['pawapay', 'fedapay'] });
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-faults-'));
      db = await target.open();
      const port = await freePort();
      running = await startServer(loadConfig(settings(port)), { logger: createLogger({ level: 'silent' }), announce: () => undefined });
      mocks.sendCallbacksTo(running.url);
      const { merchant } = await running.services.merchants.createMerchant({ name: 'Boutique Pannes', kycStatus: 'validated', keyEnvironments: [] });
      merchantId = merchant.id;
      liveKey = (await running.services.merchants.createKey({ merchantId, environment: 'live' })).secret;
      // Through the server's own database handle: one group commit per SQLite file per process (docs/architecture.md).
      await seedLiveBalance(running.services.database, merchantId, 5_000_000);
    });

    after(async () => {
      await running?.shutdown();
      await mocks?.close();
      await db?.close();
      if (operatorsFile) rmSync(join(operatorsFile, '..'), { recursive: true, force: true });
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    it('asks MTN before expiring: a customer who approved just before expiry, callback lost, gets a completed payment', async () => {
      mtn().setFaults({ dropCallbacks: true });
      try {
        const created = await api('POST', '/collect/payments', direct());
        assert.equal(created.body.status, 'processing', JSON.stringify(created.body));
        await checkLongAfter(created.body.id);
        // The customer approves; MTN's callback never arrives; then the payment's lifetime ends.
        mtn().settle('requesttopay', created.body.id, 'SUCCESSFUL');
        await checkLongAfter(created.body.id, { expires_at: new Date(Date.now() - 1_000).toISOString() });
        const final = await eventually(async () => {
          const current = await payment(created.body.reference);
          return ['completed', 'expired', 'failed'].includes(current.status) ? current : undefined;
        }, 'the payment to end');
        assert.equal(final.status, 'completed', 'MTN was asked before expiry, and said SUCCESSFUL');
        const events = (await api('GET', `/events?type=collect.payment.completed&limit=100`)).body.data as Wire[];
        assert.ok(
          events.some((event) => JSON.stringify(event.data).includes(created.body.reference)),
          'the merchant is told',
        );
      } finally {
        mtn().setFaults({ dropCallbacks: false });
      }
    });

    it('gives a payment MTN still holds its grace, expires it after, and finds a later approval by itself (a discrepancy, no callback)', async () => {
      mtn().setFaults({ dropCallbacks: true });
      try {
        const created = await api('POST', '/collect/payments', direct({ customer: { phone: '0197000454' } }));
        assert.equal(created.body.status, 'processing');
        await checkLongAfter(created.body.id, { expires_at: new Date(Date.now() - 1_000).toISOString() });
        await sleep(1_200);
        assert.equal((await payment(created.body.reference)).status, 'processing', 'MTN says PENDING: the grace (2 s here) runs');
        const expired = await statusOf(() => payment(created.body.reference), 'expired', 'the payment to expire after its grace');
        // The customer approves after all; no callback comes: the watch after expiry asks MTN.
        mtn().settle('requesttopay', created.body.id, 'SUCCESSFUL');
        const found = await discrepancyOf(created.body.id);
        assert.deepEqual([found.ourStatus, found.operatorStatus], ['expired', 'completed']);
        assert.equal((await payment(created.body.reference)).status, 'expired', 'the payment keeps its status; a person decides');
        assert.equal(expired.failure_code, 'expired');
      } finally {
        mtn().setFaults({ dropCallbacks: false });
      }
    });

    it('never pushes twice when MTN receives the request only after our timeout: a retry at once is told to wait, then finds it at MTN', async () => {
      // A first payment caches the token, so that only the push itself is held below.
      const warmUp = await api('POST', '/collect/payments', direct());
      assert.equal(warmUp.status, 201, JSON.stringify(warmUp.body));
      const body = direct({ customer: { phone: '0197000001' } });
      const key = newId();
      // Held 3 s before MTN sees it (a proxy, a queue): our 1 s timeout fires first, without an answer.
      mtn().setFaults({ delayMs: 3_000 });
      let first;
      try {
        first = await api('POST', '/collect/payments', body, key);
      } finally {
        mtn().setFaults({ delayMs: 0 });
      }
      assert.equal(first.status, 502, JSON.stringify(first.body));
      assert.equal(first.body.error.code, 'operator_outcome_unknown');
      // MTN does not know the payment yet; that is not proof it was never sent.
      const atOnce = await api('POST', '/collect/payments', body, key);
      assert.equal(atOnce.status, 409, JSON.stringify(atOnce.body));
      assert.equal(atOnce.body.error.code, 'operator_call_in_progress');
      assert.ok(Number(atOnce.headers.get('retry-after')) >= 1);
      const again = await eventually(async () => {
        const res = await api('POST', '/collect/payments', body, key);
        return res.status === 409 ? undefined : res;
      }, 'the retry to be answered');
      assert.ok([200, 201].includes(again.status), JSON.stringify(again.body));
      await statusOf(() => payment(body.reference), 'completed', 'the held push to complete');
      assert.equal(mtn().postsFor('requesttopay', again.body.id), 1, 'MTN was asked to charge once');
    });

    it('moves updated_at on expiry, in the row and in the collect.payment.expired event', async () => {
      const created = await api('POST', '/collect/payments', { reference: `HOST-${newId()}`, amount: 5000, currency: 'XOF', country: 'BJ', mode: 'hosted', description: 'Panier' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      await sleep(20);
      await running.services.database.db
        .updateTable('payments')
        .set({ expires_at: new Date(Date.now() - 1_000).toISOString() })
        .where('id', '=', created.body.id)
        .execute();
      const expired = await statusOf(() => payment(created.body.reference), 'expired', 'the hosted payment to expire');
      assert.ok(Date.parse(expired.updated_at) > Date.parse(created.body.updated_at), `updated_at moved: ${created.body.updated_at} -> ${expired.updated_at}`);
      const event = await eventually(async () => {
        const events = (await api('GET', '/events?type=collect.payment.expired&limit=100')).body.data as Wire[];
        return events.find((e) => JSON.stringify(e.data).includes(created.body.reference));
      }, 'the expired event');
      assert.equal(JSON.stringify(event.data).includes(expired.updated_at), true, 'the event carries the new updated_at');
    });

    it('answers a sync=true read during an MTN outage with the stored payout and payment (200, Akwe-Sync), never a write error', async () => {
      const sent = await api('POST', '/payout/mobile-money/', { reference: `PO-${newId()}`, amount: 100_000, phone: '0701020453', country: 'CI', operator: 'mtn_ci' });
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
      await statusOf(() => payout(sent.body.reference), 'PROCESSING', 'MTN to take the transfer');
      const created = await api('POST', '/collect/payments', ivoryPayment());
      assert.equal(created.body.status, 'processing', JSON.stringify(created.body));
      ivory().setFaults({ failNext: 100_000 });
      try {
        for (let round = 0; round < 4; round++) {
          const read = await api('GET', `/payout/mobile-money/${sent.body.reference}/?sync=true`);
          assert.equal(read.status, 200, JSON.stringify(read.body));
          assert.equal(read.body.status, 'PROCESSING', 'the payout as stored: MTN has it');
          assert.match(read.headers.get('akwe-sync') ?? '', /^not-asked/);
          const paymentRead = await api('GET', `/collect/payments/${created.body.reference}?sync=true`);
          assert.equal(paymentRead.status, 200, JSON.stringify(paymentRead.body));
          assert.equal(paymentRead.body.status, 'processing');
          assert.match(paymentRead.headers.get('akwe-sync') ?? '', /^not-asked/);
        }
      } finally {
        ivory().setFaults({ failNext: 0 });
      }
      // The reads counted toward the breaker (merchants saw them): once it lets calls through, no hint.
      await eventually(
        async () => ((await api('GET', `/payout/mobile-money/${sent.body.reference}/?sync=true`)).headers.get('akwe-sync') === null ? true : undefined),
        'a read that reaches MTN again',
      );
      assert.equal(ivory().postsFor('transfer', sent.body.id), 1, 'sent once');
    });

    it('does not let background status checks open the breaker; merchant-visible failures do, and Retry-After is the breaker’s own wait; a retry of a call MTN took is never told "nothing was charged"', async () => {
      // Whatever the previous test left: wait out the breaker, and let one creation close it.
      await sleep(2_100);
      await eventually(async () => ((await api('POST', '/collect/payments', ivoryPayment())).status === 201 ? true : undefined), 'MTN Côte d’Ivoire to take payments');
      for (let i = 0; i < 2; i++) assert.equal((await api('POST', '/collect/payments', ivoryPayment())).status, 201);
      ivory().setFaults({ failNext: 100_000 });
      try {
        // The reconciliation worker asks about the payments above every few hundred ms, and fails.
        await sleep(2_500);
        assert.notEqual(await statusIn('mtn_ci'), 'unavailable', 'background checks alone do not open the breaker');
      } finally {
        ivory().setFaults({ failNext: 0 });
      }

      // A payment MTN takes without answering: the merchant is left with 502 and retries later.
      ivory().setFaults({ acceptThenHang: true });
      const lost = ivoryPayment();
      const lostKey = newId();
      try {
        const held = ivory().transactions.size;
        const answered = api('POST', '/collect/payments', lost, lostKey);
        // The outage begins while MTN holds the push, so the recovery worker cannot settle it first.
        await eventually(async () => (ivory().transactions.size > held ? true : undefined), 'MTN to hold the push');
        ivory().setFaults({ acceptThenHang: false, failNext: 100_000 });
        const unknown = await answered;
        assert.equal(unknown.status, 502, JSON.stringify(unknown.body));
      } finally {
        // At once: the recovery worker must not find the payment at MTN before the outage begins.
        ivory().setFaults({ acceptThenHang: false, failNext: 100_000 });
      }
      try {
        let refused: Awaited<ReturnType<typeof api>> | undefined;
        for (let attempt = 0; attempt < 6 && !refused; attempt++) {
          const res = await api('POST', '/collect/payments', ivoryPayment());
          if (res.status === 503) refused = res;
          else assert.equal(res.status, 502, JSON.stringify(res.body));
        }
        assert.ok(refused, 'merchant-visible failures open the breaker');
        assert.equal(refused.body.error.code, 'operator_unavailable');
        const wait = Number(refused.headers.get('retry-after'));
        assert.ok(wait >= 1 && wait <= 2, `Retry-After is what is left of the 2 s wait, got ${wait}`);

        // The recovery worker may hold the payment's call at that moment (409, safe to retry): retry as a client would.
        let retried = await api('POST', '/collect/payments', lost, lostKey);
        for (let attempt = 0; attempt < 10 && retried.status === 409 && retried.body.error.code === 'operator_call_in_progress'; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          retried = await api('POST', '/collect/payments', lost, lostKey);
        }
        assert.doesNotMatch(retried.body.error.message, /nothing was charged/i, 'the push reached MTN: it may have been charged');
        if (retried.status !== 409) {
          assert.equal(retried.status, 503, JSON.stringify(retried.body));
          assert.match(retried.body.error.message, /may have been charged/);
        }
      } finally {
        ivory().setFaults({ failNext: 0 });
      }
    });

    it('catches a Wave payout reversed after it completed: a discrepancy, the payout and the balance left for a person', async () => {
      const sent = await api('POST', '/payout/mobile-money/', { reference: `WPO-${newId()}`, amount: 100_000, phone: '0701020305', country: 'CI', operator: 'wave_ci' });
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
      const completed = await statusOf(() => payout(sent.body.reference), 'COMPLETED', 'the Wave payout to complete');
      const balanceBefore = (await api('GET', '/balances')).body.balances.find((b: Wire) => b.currency === 'XOF');
      // The business reverses it at Wave; Wave sends no webhook for payouts.
      assert.ok(mocks.wave.wave_ci.settlePayout(completed.psp_reference, 'reversed'), 'the mock knows the payout');
      const found = await discrepancyOf(sent.body.id);
      assert.deepEqual([found.resourceType, found.ourStatus, found.operatorStatus], ['payout', 'COMPLETED', 'REVERSED']);
      assert.match(found.message ?? '', /person decides/);
      assert.equal((await payout(sent.body.reference)).status, 'COMPLETED');
      const balanceAfter = (await api('GET', '/balances')).body.balances.find((b: Wire) => b.currency === 'XOF');
      assert.equal(balanceAfter.available_minor, balanceBefore.available_minor, 'the ledger waits for the person');
      assert.equal(mocks.wave.wave_ci.postsFor('payout', sent.body.id), 1);
    });

    it('refuses to start when a connector’s call timeout does not fit in the request lease, saying why', async () => {
      const tooSlow = join(dataDir, 'operators-too-slow.json');
      writeFileSync(tooSlow, JSON.stringify({ operators: { mtn_bj: { ...([mocks.operatorsFile.operators['mtn_bj']].flat()[0] as object), timeout_ms: 10_000 } } }));
      const port = await freePort();
      await assert.rejects(
        startServer(loadConfig(settings(port, { OPERATORS_FILE: tooSlow, IDEMPOTENCY_LEASE_SECONDS: '30' })), {
          logger: createLogger({ level: 'silent' }),
          announce: () => undefined,
        }),
        (error: unknown) => {
          assert.ok(error instanceof ConfigError, String(error));
          assert.match(error.message, /operators\.mtn_bj\.timeout_ms/);
          assert.match(error.message, /IDEMPOTENCY_LEASE_SECONDS=30/);
          assert.match(error.message, /at most 3000/);
          return true;
        },
      );
      // The same file fits the longest lease with a shorter timeout.
      writeFileSync(tooSlow, JSON.stringify({ operators: { mtn_bj: { ...([mocks.operatorsFile.operators['mtn_bj']].flat()[0] as object), timeout_ms: 3_000 } } }));
      const fits = await startServer(loadConfig(settings(await freePort(), { OPERATORS_FILE: tooSlow, IDEMPOTENCY_LEASE_SECONDS: '30', AKWE_RUN_WORKERS: 'false' })), {
        logger: createLogger({ level: 'silent' }),
        announce: () => undefined,
      });
      await fits.shutdown();
    });
  });
}
