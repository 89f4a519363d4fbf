/**
 * Settlements survive SIGKILL (issue 26), on every database: real `akwe serve` processes, live,
 * against the MTN mock, killed while MTN holds a settlement's payout, right after creations are
 * acknowledged, while payouts are handed off and while settlements follow their payouts; and an
 * `akwe settlements mark-paid` run killed inside its transaction. After each restart (or rerun)
 * every settlement is resolved, paid or (for a failing number) failed; every request retried with
 * its key ends in exactly one settlement; MTN was asked to send each payout once; the books
 * balance and every statement sums.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { feeFor } from '../../src/core/ledger/ledger.js';
import type { Merchant } from '../../src/core/merchants/merchant.js';
import { newId } from '../../src/core/shared/ids.js';
import { startOperatorMocks, type OperatorMocks } from '../../src/operators/mocks/operator-mocks.js';
import { createServices, type Services } from '../../src/services.js';
import type { Database } from '../../src/storage/schema.js';
import { freePort, runAkweJson, startAkwe, waitForUrl, type AkweProcess } from '../support/child-process.js';
import { assertBooksBalance } from '../support/ledger-invariants.js';
import { seedLiveBalance } from '../support/live-balance.js';
import { eventually, operatorsFileFor } from '../support/live-operators.js';
import { assertStatementSums, insertSettlementAccount, type ApiReader } from '../support/settlements.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Five chained MTN calls of 1 s (the shortest timeout) must fit in half the lease, or the server refuses to start. */
const LEASE_SECONDS = 10;
/** The MTN mock pays any number but these endings; …455 fails with NOT_ENOUGH_FUNDS. */
const PAYING_PHONE = '+2290197000000';
const FAILING_PHONE = '+2290197000455';
const walletFee = (amount: number) => feeFor(loadDefaultCatalog().findOperator('BJ', 'mtn_bj')!.payout.fee, amount);

interface Server {
  url: string;
  process: AkweProcess;
}

/** One settlement request as a client keeps it to retry: its key, its body, and its answer if one came. */
interface Attempt {
  key: string;
  body: { settlement_account: string; currency: 'XOF'; amount_minor: number; reference: string };
  failing: boolean;
  /** The settlement id of a 201 received. */
  acknowledged?: string;
  /** Any other answer (none is expected). */
  refused?: string;
}

for (const target of testDatabases()) {
  describe(`SIGKILL during settlements on ${target.name}`, { skip: target.skip }, () => {
    let db: OpenTestDatabase;
    let services: Services;
    let mocks: OperatorMocks;
    let dataDir: string;
    let operatorsFile: string;
    const started: AkweProcess[] = [];
    /** The server now running, if any: a test may go on with the one the previous left. */
    let current: Server | undefined;

    before(async () => {
      db = await target.open();
      services = createServices({ database: db.database, catalog: loadDefaultCatalog() });
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-settlement-sigkill-'));
      mocks = await startOperatorMocks({ mtn: { decisionDelayMs: 100 } });
      // Longer than the kill takes: a call MTN holds is still in flight when the server is killed.
      operatorsFile = operatorsFileFor(mocks, 1_000);
    });
    after(async () => {
      for (const server of started) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      await Promise.allSettled(started.map((s) => s.exited));
      await mocks.close();
      await db.close();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(join(operatorsFile, '..'), { recursive: true, force: true });
    });

    const mtn = () => mocks.mtn.mtn_bj;
    const database = (): Kysely<Database> => db.database.db;

    async function serve(): Promise<Server> {
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
        IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS),
        PAYOUT_CHECK_INTERVAL_MS: '100',
        RATE_LIMIT_SETTLEMENT_PER_MINUTE: '1000000',
        RATE_LIMIT_READ_PER_MINUTE: '1000000',
      };
      const process = startAkwe(['serve'], { env, cwd: dataDir });
      started.push(process);
      await waitForUrl(`${url}/health`, { process });
      current = { url, process };
      return current;
    }

    const running = async (): Promise<Server> => current ?? (await serve());

    async function kill(server: Server): Promise<void> {
      server.process.child.kill('SIGKILL');
      const result = await server.process.exited;
      assert.equal(result.signal, 'SIGKILL');
      if (current === server) current = undefined;
    }

    async function stop(server: Server): Promise<void> {
      server.process.child.kill('SIGTERM');
      await server.process.exited;
      if (current === server) current = undefined;
    }

    /** A live merchant (active, KYC validated) with `balanceMinor` available, and its live key. */
    async function liveMerchant(balanceMinor: number): Promise<{ merchant: Merchant; key: string }> {
      const { merchant } = await services.merchants.createMerchant({ name: 'Killed settlements', kycStatus: 'validated', keyEnvironments: [] });
      const key = (await services.merchants.createKey({ merchantId: merchant.id, environment: 'live' })).secret;
      await seedLiveBalance(db.database, merchant.id, balanceMinor);
      return { merchant, key };
    }

    const call = (url: string, key: string, method: 'GET' | 'POST', path: string, body?: unknown, idempotencyKey?: string) =>
      fetch(`${url}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const getJson = async (url: string, key: string, path: string) => {
      const res = await call(url, key, 'GET', path);
      assert.equal(res.status, 200, `GET ${path}`);
      return (await res.json()) as Wire;
    };
    const reader =
      (url: string, key: string): ApiReader =>
      async (path) => {
        const res = await call(url, key, 'GET', path);
        return { status: res.status, contentType: res.headers.get('content-type') ?? '', body: await res.text() };
      };
    const liveBalance = async (url: string, key: string) => ((await getJson(url, key, '/balances')).balances as Wire[]).find((b) => b.currency === 'XOF')!;

    /** Sends `attempt` with its key, waiting out (at most twice) a claim the killed server left in progress. */
    async function retry(url: string, key: string, attempt: Attempt): Promise<Wire> {
      let res = await call(url, key, 'POST', '/settlements/', attempt.body, attempt.key);
      for (let tries = 0; res.status === 409 && tries < 3; tries++) {
        const wait = Number(res.headers.get('retry-after'));
        assert.ok(wait <= LEASE_SECONDS, `a claim is held for its lease at most, not ${wait} s`);
        await res.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        res = await call(url, key, 'POST', '/settlements/', attempt.body, attempt.key);
      }
      const body = (await res.json()) as Wire;
      assert.equal(res.status, 201, JSON.stringify(body));
      return body;
    }

    /**
     * Sends the attempts over `lanes` connections at once until all are sent or `halted()`; one that
     * gets no answer (the server died under it) stays in doubt.
     */
    async function sendAll(url: string, key: string, attempts: Attempt[], lanes: number, onAcknowledged: () => void = () => undefined, halted = () => false) {
      let next = 0;
      await Promise.all(
        Array.from({ length: lanes }, async () => {
          while (next < attempts.length && !halted()) {
            const attempt = attempts[next++]!;
            try {
              const res = await call(url, key, 'POST', '/settlements/', attempt.body, attempt.key);
              const body = (await res.json()) as Wire;
              if (res.status !== 201) {
                attempt.refused = `${res.status} ${JSON.stringify(body)}`;
                continue;
              }
              attempt.acknowledged = body.id as string;
              onAcknowledged();
            } catch {
              // The connection died with the process: this request is in doubt.
            }
          }
        }),
      );
    }

    /** Settlement rows of a merchant, oldest (lowest sequence) first, with their payout's status. */
    const settlementsOf = (merchantId: string) =>
      database()
        .selectFrom('settlements')
        .leftJoin('payouts', 'payouts.id', 'settlements.payout_id')
        .select(['settlements.id', 'settlements.reference', 'settlements.status', 'settlements.sequence', 'settlements.amount_minor', 'payouts.status as payout_status'])
        .where('settlements.merchant_id', '=', merchantId)
        .orderBy('settlements.sequence')
        .execute();

    /** How many of each event type name this reference (a settlement's; its payout's is `settlement:<id>`). */
    async function eventCounts(reference: string): Promise<Record<string, number>> {
      const rows = await database()
        .selectFrom('events')
        .select(['type', (eb) => eb.fn.countAll<number | string>().as('count')])
        .where('subject_reference', '=', reference)
        .groupBy('type')
        .execute();
      return Object.fromEntries(rows.map((row) => [row.type, Number(row.count)]));
    }

    /** Ledger transactions a settlement (not its payout) posted, by type. */
    async function settlementPostings(settlementId: string): Promise<string[]> {
      const rows = await database().selectFrom('ledger_transactions').select('type').where('source_type', '=', 'settlement').where('source_id', '=', settlementId).execute();
      return rows.map((row) => row.type).sort();
    }

    it('pays a wallet settlement whose payout MTN took and held when the server was killed: MTN is asked to send once', async () => {
      const { merchant, key } = await liveMerchant(5_000_000);
      const to = await insertSettlementAccount(database(), merchant.id, { environment: 'live', phone: PAYING_PHONE });
      const amount = 1_000_000;
      mtn().setFaults({ acceptThenHang: true });
      const first = await running();
      const created = await call(first.url, key, 'POST', '/settlements/', { settlement_account: to, currency: 'XOF', amount_minor: amount, reference: 'held-by-mtn' }, newId());
      assert.equal(created.status, 201, await created.clone().text());
      const settlement = (await created.json()) as Wire;
      assert.equal(settlement.payout_id, settlement.id);
      // MTN keeps the transfer and never answers: the server dies between its call and the answer.
      await eventually(async () => (mtn().transaction('transfer', settlement.id) ? true : undefined), 'MTN to hold the transfer');
      await kill(first);
      mtn().setFaults({ acceptThenHang: false });
      const [killedAt] = await settlementsOf(merchant.id);
      assert.equal(killedAt!.status, 'pending', 'killed before any outcome was known');
      assert.equal(killedAt!.payout_status, 'PENDING');

      const second = await serve();
      const paid = await eventually(async () => {
        const now = await getJson(second.url, key, `/settlements/${settlement.id}`);
        return now.status === 'pending' || now.status === 'in_transit' ? undefined : now;
      }, 'the settlement to be resolved');
      assert.equal(paid.status, 'paid');
      assert.ok(paid.settled_at);
      assert.equal(mtn().postsFor('transfer', settlement.id), 1, 'MTN was asked to send once');
      const events = ((await getJson(second.url, key, '/events?reference=held-by-mtn')).data as Wire[]).map((e) => e.type).reverse();
      assert.deepEqual(events, ['settlement.created', 'settlement.paid']);
      const balance = await liveBalance(second.url, key);
      assert.equal(balance.available_minor, 5_000_000 - amount);
      assert.equal(balance.reserved_minor, 0);
      assert.deepEqual(await settlementPostings(settlement.id), ['settlement', 'settlement_reservation']);
      const payout = await getJson(second.url, key, `/payout/mobile-money/${settlement.id}/`);
      assert.equal(payout.status, 'COMPLETED');
      assert.equal(payout.amount, amount - walletFee(amount));
      await assertStatementSums(reader(second.url, key), settlement.id);
      await assertBooksBalance(database());
    });

    it('resolves every request to one settlement when killed after acknowledgements, during hand-offs and while following payouts', async (t) => {
      const seeded = 50_000_000;
      const { merchant, key } = await liveMerchant(seeded);
      const paying = await insertSettlementAccount(database(), merchant.id, { environment: 'live', phone: PAYING_PHONE });
      const failing = await insertSettlementAccount(database(), merchant.id, { environment: 'live', phone: FAILING_PHONE });
      const attempts: Attempt[] = Array.from({ length: 30 }, (_, i) => ({
        key: newId(),
        failing: i % 5 === 4,
        body: { settlement_account: i % 5 === 4 ? failing : paying, currency: 'XOF', amount_minor: 500_000 + i * 1_000, reference: `S-${i}-${newId()}` },
      }));
      const [early, handedOff, followed] = [attempts.slice(0, 12), attempts.slice(12, 20), attempts.slice(20)];

      // 1. Killed right after the fourth creation is acknowledged, other lanes' requests (most likely) in flight.
      const first = await running();
      let acknowledged = 0;
      let killed = false;
      await sendAll(
        first.url,
        key,
        early,
        3,
        () => {
          if (++acknowledged === 4 && !killed) {
            killed = true;
            first.process.child.kill('SIGKILL');
          }
        },
        () => killed,
      );
      await kill(first);
      t.diagnostic(`after acknowledgements: ${early.filter((a) => a.acknowledged).length} of ${early.length} acknowledged before the kill`);

      // 2. Killed while MTN holds hand-offs: it took the transfers and answers none. A hand-off pass
      // waits for all its calls, so the first pass may hold leftovers of step 1 and this step's
      // payouts wait for the next: any transfer MTN took from this server counts.
      const before = new Set(mtn().transactions.keys());
      mtn().setFaults({ acceptThenHang: true });
      const second = await serve();
      await sendAll(second.url, key, handedOff, 3);
      assert.ok(
        handedOff.every((a) => a.acknowledged),
        'a live server acknowledges every creation',
      );
      const ours = new Set((await settlementsOf(merchant.id)).map((row) => row.id));
      const heldNow = () => [...mtn().transactions.values()].filter((tx) => tx.kind === 'transfer' && ours.has(tx.referenceId) && !before.has(`transfer:${tx.referenceId}`));
      await eventually(async () => (heldNow().length > 0 ? true : undefined), 'MTN to hold hand-offs');
      // The calls of one pass go out together: give the rest of it a moment to arrive.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const held = heldNow().map((tx) => tx.referenceId);
      await kill(second);
      mtn().setFaults({ acceptThenHang: false });
      t.diagnostic(`during hand-offs: MTN held ${held.length} transfers when the server was killed`);
      const heldRows = (await settlementsOf(merchant.id)).filter((row) => held.includes(row.id));
      assert.equal(heldRows.length, held.length);
      assert.ok(
        heldRows.every((row) => row.status === 'pending' && row.payout_status === 'PENDING'),
        'killed with hand-offs under way, no answer recorded',
      );

      // 3. Killed between a payout's outcome and its settlement's move (the follow job runs every
      // 500 ms). Seen by polling the database, not by a hook: the kill comes milliseconds after the
      // state is seen, and the follow job may have moved that one settlement meanwhile.
      const third = await serve();
      let windowSeen = false;
      await Promise.all([
        sendAll(third.url, key, followed, 2, undefined, () => windowSeen),
        (async () => {
          await eventually(async () => {
            const row = await database()
              .selectFrom('settlements')
              .innerJoin('payouts', 'payouts.id', 'settlements.payout_id')
              .select('settlements.id')
              .where('settlements.merchant_id', '=', merchant.id)
              .where('settlements.status', 'in', ['pending', 'in_transit'])
              .where('payouts.status', 'in', ['COMPLETED', 'FAILED'])
              .executeTakeFirst();
            return row;
          }, 'a payout final whose settlement has not followed yet');
          windowSeen = true;
          third.process.child.kill('SIGKILL');
        })(),
      ]);
      await kill(third);

      // 4. Restarted: every request is retried with its key and body, acknowledged or not.
      const last = await serve();
      t.diagnostic(`unanswered before the retries (in flight at a kill, or never sent): ${attempts.filter((a) => !a.acknowledged).length} of ${attempts.length}`);
      assert.deepEqual(
        attempts.filter((a) => a.refused).map((a) => a.refused),
        [],
        'no request was refused',
      );
      for (const attempt of attempts) {
        const answer = await retry(last.url, key, attempt);
        assert.equal(answer.reference, attempt.body.reference);
        if (attempt.acknowledged) assert.equal(answer.id, attempt.acknowledged, 'an acknowledged settlement answers as it was');
        attempt.acknowledged = answer.id as string;
      }
      const rows = await eventually(
        async () => {
          const all = await settlementsOf(merchant.id);
          return all.every((row) => row.status === 'paid' || row.status === 'failed') ? all : undefined;
        },
        'every settlement to be resolved',
        30_000,
      );

      assert.equal(rows.length, attempts.length, 'one settlement per request');
      assert.deepEqual(new Set(rows.map((row) => row.reference)), new Set(attempts.map((a) => a.body.reference)));
      for (const attempt of attempts) {
        const row = rows.find((r) => r.id === attempt.acknowledged)!;
        const outcome = attempt.failing ? 'failed' : 'paid';
        assert.equal(row.status, outcome, `${attempt.body.reference} ends ${outcome}`);
        assert.equal(row.payout_status, attempt.failing ? 'FAILED' : 'COMPLETED');
        assert.equal(mtn().postsFor('transfer', row.id), 1, `MTN was asked once to send ${attempt.body.reference}`);
        assert.deepEqual(await eventCounts(attempt.body.reference), { 'settlement.created': 1, [`settlement.${outcome}`]: 1 });
        assert.deepEqual(await settlementPostings(row.id), attempt.failing ? ['settlement_release', 'settlement_reservation'] : ['settlement', 'settlement_reservation']);
      }
      const payouts = await database().selectFrom('payouts').select(['id', 'settlement_id']).where('merchant_id', '=', merchant.id).execute();
      assert.equal(payouts.length, attempts.length, 'one payout per wallet settlement, no other');
      assert.ok(payouts.every((payout) => payout.settlement_id === payout.id));

      const balance = await liveBalance(last.url, key);
      const paidTotal = rows.filter((row) => row.status === 'paid').reduce((sum, row) => sum + Number(row.amount_minor), 0);
      assert.equal(balance.available_minor, seeded - paidTotal);
      assert.equal(balance.reserved_minor, 0);
      let previous: Wire | undefined;
      for (const row of rows) {
        const statement = await assertStatementSums(reader(last.url, key), row.id);
        if (previous) assert.equal(statement.opening_available_minor, previous.closing_available_minor, 'each statement opens where the previous closed');
        previous = statement;
      }
      const inProgress = await database()
        .selectFrom('idempotency_records')
        .select('idempotency_key')
        .where('merchant_id', '=', merchant.id)
        .where('state', '=', 'in_progress')
        .execute();
      assert.equal(inProgress.length, 0, 'no request is left in progress');
      await assertBooksBalance(database());
      await stop(last);
    });

    it('keeps a bank settlement pending with nothing posted when `akwe settlements mark-paid` is killed inside its transaction; a rerun marks it paid once', async () => {
      if (current) await stop(current); // no server: only the command writes
      const { merchant } = await liveMerchant(4_000_000);
      const to = await insertSettlementAccount(database(), merchant.id, { environment: 'live', kind: 'bank' });
      const settlement = await services.settlements.create({ merchantId: merchant.id, environment: 'live', merchant }, { accountId: to, currency: 'XOF', amountMinor: 3_000_000 });
      const cli = { env: { DATABASE_URL: db.url, AKWE_DATA_DIR: dataDir }, cwd: dataDir };
      const markPaid = ['settlements', 'mark-paid', settlement.id, '--bank-reference', 'VIR-2026-0042', '--json'];

      const command = startAkwe(markPaid, cli);
      started.push(command);
      await killInsideItsWrite(command, settlement.id);
      const [killedAt] = await settlementsOf(merchant.id);
      assert.equal(killedAt!.status, 'pending', 'the killed run changed nothing');
      assert.deepEqual(await settlementPostings(settlement.id), ['settlement_reservation']);
      assert.deepEqual(await eventCounts(settlement.reference), { 'settlement.created': 1 });

      const paid = await runAkweJson<Wire>(markPaid, cli);
      assert.equal(paid.status, 'paid');
      assert.equal(paid.bank_reference, 'VIR-2026-0042');
      assert.deepEqual(await settlementPostings(settlement.id), ['settlement', 'settlement_reservation']);
      assert.deepEqual(await eventCounts(settlement.reference), { 'settlement.created': 1, 'settlement.paid': 1 });
      const [balance] = await services.ledger.balances({ merchantId: merchant.id, environment: 'live' });
      assert.equal(balance!.availableMinor, 1_000_000);
      assert.equal(balance!.reservedMinor, 0);
      await assertBooksBalance(database());
    });

    /**
     * Holds `command` inside the transaction that marks the settlement paid, and SIGKILLs it there.
     * PostgreSQL: the test locks the settlement's row, and the command's UPDATE is seen waiting on
     * that lock (pg_blocking_pids). SQLite has no row locks: a trigger on the settlement's UPDATE
     * keeps the command's transaction busy (it counts to a billion) while it holds the write lock;
     * the write lock held for half a second, longer than the command's other (empty) transaction
     * holds it, says the command is there.
     */
    async function killInsideItsWrite(command: AkweProcess, settlementId: string): Promise<void> {
      if (db.target.kind === 'postgres') {
        await database()
          .transaction()
          .execute(async (trx) => {
            await trx.selectFrom('settlements').select('id').where('id', '=', settlementId).forUpdate().execute();
            const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
            const holder = rows[0]!.pid;
            const waiting = await eventually(async () => {
              const blocked = await sql<{ pid: number; query: string }>`select pid, query from pg_stat_activity where ${holder} = any(pg_blocking_pids(pid))`.execute(database());
              return blocked.rows[0];
            }, 'the command to wait on the settlement row');
            assert.match(waiting.query, /^update "settlements"/);
            command.child.kill('SIGKILL');
            assert.equal((await command.exited).signal, 'SIGKILL');
          });
        // Its session ends once it finds its client gone, its transaction rolled back.
        await eventually(async () => {
          const { rows } = await sql<{
            count: number | string;
          }>`select count(*) as count from pg_stat_activity where query like 'update "settlements"%' and state = 'active'`.execute(database());
          return Number(rows[0]!.count) === 0 ? true : undefined;
        }, 'the killed session to end');
        return;
      }
      await sql`create table akwe_test_spin (n integer)`.execute(database());
      await sql`create trigger akwe_test_slow_mark after update on settlements begin
        insert into akwe_test_spin select count(*) from (with recursive n(x) as (select 1 union all select x + 1 from n where x < 1000000000) select x from n);
      end`.execute(database());
      const probe = new BetterSqlite3(db.target.kind === 'sqlite' ? db.target.file : '');
      try {
        probe.pragma('busy_timeout = 0');
        let busySince: number | undefined;
        await eventually(async () => {
          try {
            probe.exec('begin immediate');
            probe.exec('rollback');
            busySince = undefined;
          } catch (error) {
            if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
            busySince ??= Date.now();
          }
          return busySince !== undefined && Date.now() - busySince >= 500 ? true : undefined;
        }, 'the command to hold the write lock inside its transaction');
        command.child.kill('SIGKILL');
        assert.equal((await command.exited).signal, 'SIGKILL');
      } finally {
        probe.close();
        await sql`drop trigger akwe_test_slow_mark`.execute(database());
        await sql`drop table akwe_test_spin`.execute(database());
      }
    }
  });
}
