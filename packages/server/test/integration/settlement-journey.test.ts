/**
 * Issue 26's "done when", through the API only, on every database: a merchant collects test money,
 * registers its wallet, settles on demand and by schedule (both paid by the sandbox operator),
 * downloads a statement that sums to the centime, and sends a transfer to another merchant; the
 * ledger sums to zero at the end.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { direct } from '../support/collect-client.js';
import { FakeClock } from '../support/fake-clock.js';
import { assertBooksBalance } from '../support/ledger-invariants.js';
import { assertStatementSums, type ApiReader } from '../support/settlements.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const FLOAT = 10_000_000;
const DAY = 24 * 3_600_000;

for (const target of testDatabases()) {
  describe(`a merchant takes its money home on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    const clock = new FakeClock(new Date('2026-11-26T09:00:00.000Z'));

    before(async () => {
      t = await buildTestApp(target, { clock, env: { SANDBOX_FLOAT: String(FLOAT / 100), SANDBOX_PAYOUT_DELAY_MS: '0' } });
    });
    after(() => t.close());

    const call = async (key: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => {
      const res = await t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${key}`, ...(method === 'POST' ? { 'idempotency-key': newId() } : {}) },
        ...(payload ? { payload } : {}),
      });
      assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.json() as Wire;
    };
    const reader =
      (key: string): ApiReader =>
      async (path) => {
        const res = await t.app.inject({ method: 'GET', url: `/api/v1${path}`, headers: { authorization: `Bearer ${key}` } });
        return { status: res.statusCode, contentType: String(res.headers['content-type']), body: res.body };
      };
    const available = async (key: string) => ((await call(key, 'GET', '/balances')).balances as Wire[]).find((b) => b.currency === 'XOF')!.available_minor as number;
    /** The workers: hand payouts off, let the sandbox's check come due, record the outcomes, follow settlements. */
    const work = async () => {
      await t.services.payouts.handOffDue();
      clock.advance(2_000);
      await t.services.payouts.checkDue();
      await t.services.settlements.followDue();
    };

    it('collects, settles on demand and by schedule, downloads the statement, transfers; the books balance', async () => {
      const merchant = await t.newMerchant();
      const supplier = await t.newMerchant();
      const key = merchant.testKey;

      for (const amount of [12_500, 7_300]) {
        const payment = await call(key, 'POST', '/collect/payments', direct({ amount }));
        assert.equal(payment.status, 'completed');
      }
      const collected = await available(key);
      assert.ok(collected > FLOAT, 'the collections reached the available balance (less their fee)');

      const wallet = await call(key, 'POST', '/settlement-accounts/', {
        kind: 'wallet',
        country: 'BJ',
        operator: 'mtn_bj',
        phone: '0197000000',
        holder_name: 'Boutique Adjoa SARL',
      });
      assert.equal(wallet.status, 'usable', 'test accounts need no cooling by default');

      const onDemand = await call(key, 'POST', '/settlements/', { settlement_account: wallet.id, currency: 'XOF', amount_minor: 2_000_000, reference: 'settle-now' });
      assert.equal(onDemand.status, 'pending');
      await work();
      assert.equal((await call(key, 'GET', '/settlements/settle-now')).status, 'paid');

      const reserve = 500_000;
      const schedule = await call(key, 'PUT', '/settlement-schedules/XOF', { interval: 'daily', settlement_account: wallet.id, minimum_minor: 100_000, reserve_minor: reserve });
      assert.equal(schedule.next_run_at, '2026-11-27T00:00:00.000Z');
      const beforeRun = await available(key);
      clock.advance(DAY);
      assert.equal(await t.services.settlementSchedules.runDue(), 1);
      const scheduled = ((await call(key, 'GET', '/settlements/')).data as Wire[]).find((s) => s.origin === 'schedule')!;
      assert.equal(scheduled.reference, 'auto-XOF-2026-11-27');
      assert.equal(scheduled.amount_minor, beforeRun - reserve, 'everything but the reserve');
      await work();
      assert.equal((await call(key, 'GET', `/settlements/${scheduled.id}`)).status, 'paid');
      assert.equal(await available(key), reserve);

      for (const settlement of [onDemand, scheduled]) await assertStatementSums(reader(key), settlement.id);
      const csv = await t.app.inject({ method: 'GET', url: `/api/v1/settlements/${scheduled.id}/statement.csv`, headers: { authorization: `Bearer ${key}` } });
      assert.equal(csv.statusCode, 200);
      assert.match(String(csv.headers['content-disposition']), /attachment; filename="akwe-settlement-auto-XOF-2026-11-27-statement\.csv"/);

      const transfer = await call(key, 'POST', '/transfers/', { receiver: supplier.merchantId, amount_minor: 200_000, currency: 'XOF', reference: 'supplier-nov' });
      assert.equal(transfer.direction, 'sent');
      assert.equal(await available(key), reserve - 200_000);
      assert.equal(await available(supplier.testKey), FLOAT + 200_000);

      await assertBooksBalance(t.services.database.db);
    });
  });
}
