/**
 * Settlements (docs/settlements.md, issue 26) on every database: a wallet settlement sent by its payout
 * to paid or failed, a bank settlement marked by an administrator, the whole balance or a part,
 * idempotency, every refusal writing nothing, live gating, scopes, and statements that sum to the
 * centime (JSON, lines and CSV) and chain from one settlement to the next, concurrency included. The
 * books are checked after every test.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { feeFor } from '../../src/core/ledger/ledger.js';
import type { Environment } from '../../src/core/shared/environment.js';
import { newId } from '../../src/core/shared/ids.js';
import { assertBooksBalance } from '../support/ledger-invariants.js';
import { seedBalance, seedLiveBalance } from '../support/live-balance.js';
import { assertStatementSums as assertSums, insertSettlementAccount, statementLines as linesOf, type ApiReader, type SettlementAccountOptions } from '../support/settlements.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The sandbox float of 1 000 000 FCFA, in centimes. */
const FLOAT = 100_000_000;
const walletFee = (amount: number) => feeFor(loadDefaultCatalog().findOperator('BJ', 'mtn_bj')!.payout.fee, amount);

for (const target of testDatabases()) {
  describe(`settlements on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;

    before(async () => {
      t = await buildTestApp(target, {
        env: { SANDBOX_FLOAT: String(FLOAT / 100), SANDBOX_PAYOUT_DELAY_MS: '0', PAYOUT_CHECK_INTERVAL_MS: '100' },
        exportPageSize: 3,
      });
    });
    after(() => t.close());
    afterEach(() => assertBooksBalance(t.services.database.db));

    const send = (key: string, method: 'GET' | 'POST', url: string, payload?: object, idempotencyKey: string | null = newId()) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${key}`, ...(method === 'POST' && idempotencyKey !== null ? { 'idempotency-key': idempotencyKey } : {}) },
        ...(payload ? { payload } : {}),
      });
    const settle = (key: string, account: string, overrides: Wire = {}) => send(key, 'POST', '/settlements/', { settlement_account: account, currency: 'XOF', ...overrides });
    const settled = async (key: string, account: string, overrides: Wire = {}) => {
      const res = await settle(key, account, overrides);
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as Wire;
    };
    const balance = async (key: string) => ((await send(key, 'GET', '/balances')).json().balances as Wire[]).find((b) => b.currency === 'XOF')!;
    const get = async (key: string, id: string) => (await send(key, 'GET', `/settlements/${id}`)).json() as Wire;
    const eventTypes = async (key: string, reference: string) => ((await send(key, 'GET', `/events?reference=${reference}`)).json().data as Wire[]).map((e) => e.type).reverse();
    /** What the workers do: hand the payouts off, ask about them, then follow the settlements. */
    const work = async () => {
      while ((await t.services.payouts.handOffDue()) > 0);
      while ((await t.services.payouts.checkDue()) > 0);
      while ((await t.services.settlements.followDue()) > 0);
    };
    /** Works until the settlement shows `status` (the payout check runs every 100 ms). */
    const workUntil = async (key: string, id: string, status: string) => {
      for (let round = 0; round < 60; round++) {
        await work();
        if ((await get(key, id)).status === status) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.fail(`settlement ${id} never became ${status}`);
    };
    /** A usable settlement account, written as its service would (the API is tested in settlement-accounts.test.ts). */
    const account = (merchantId: string, options: SettlementAccountOptions = {}) => insertSettlementAccount(t.services.database.db, merchantId, options);
    /** Money collected: a collection's worth posted straight to the ledger. */
    const collect = (merchantId: string, amountMinor: number, environment: Environment = 'test') =>
      seedBalance(t.services.database, merchantId, amountMinor, { environment, clock: t.services.clock, sandboxFloatMinor: FLOAT });
    /** The merchant's view of the API, for the statement checks of test/support/settlements.ts. */
    const reader =
      (key: string): ApiReader =>
      async (path) => {
        const res = await send(key, 'GET', path);
        return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body: res.body };
      };
    const assertStatementSums = (key: string, settlement: Wire) => assertSums(reader(key), settlement.id);
    const statementLines = (key: string, settlementId: string) => linesOf(reader(key), settlementId);

    describe('to a wallet', () => {
      it('reserves the amount, sends amount less the payout fee by a payout, and becomes paid with settlement.paid', async () => {
        const { merchantId, testKey } = await t.newMerchant();
        const to = await account(merchantId);
        const amount = 25_000_000;
        const settlement = await settled(testKey, to, { amount_minor: amount, reference: 'settle-june', metadata: { period: '2026-06' } });
        assert.equal(settlement.object, 'settlement');
        assert.equal(settlement.status, 'pending');
        assert.equal(settlement.origin, 'api');
        assert.equal(settlement.amount_minor, amount);
        assert.equal(settlement.fee_minor, walletFee(amount));
        assert.equal(settlement.net_amount_minor, amount - walletFee(amount));
        assert.equal(settlement.destination.phone, '+2290197000000');
        assert.equal(settlement.payout_id, settlement.id);
        assert.deepEqual(settlement.metadata, { period: '2026-06' });
        const reserved = await balance(testKey);
        assert.equal(reserved.available_minor, FLOAT - amount);
        assert.equal(reserved.reserved_minor, amount);

        const payout = (await send(testKey, 'GET', `/payout/mobile-money/${settlement.payout_id}/`)).json() as Wire;
        assert.equal(payout.amount, amount - walletFee(amount));
        assert.equal(payout.fee_minor, walletFee(amount));
        assert.equal(payout.metadata.settlement_id, settlement.id);

        await workUntil(testKey, settlement.id, 'paid');
        const paid = await get(testKey, settlement.id);
        assert.equal(paid.status, 'paid');
        assert.ok(paid.settled_at);
        const after = await balance(testKey);
        assert.equal(after.available_minor, FLOAT - amount);
        assert.equal(after.reserved_minor, 0);
        assert.deepEqual(await eventTypes(testKey, 'settle-june'), ['settlement.created', 'settlement.paid']);
        const transactions = (await send(testKey, 'GET', '/balance-transactions?limit=10')).json().data as Wire[];
        const own = transactions.filter((tx) => tx.source.object === 'settlement');
        assert.deepEqual(own.map((tx) => tx.type).sort(), ['settlement', 'settlement_reservation']);
        assert.ok(own.every((tx) => tx.source.id === settlement.id && tx.source.reference === 'settle-june'));
        assert.equal(own.find((tx) => tx.type === 'settlement')!.fee_minor, walletFee(amount));
      });

      it('settles the whole available balance when no amount is given, and refuses an empty balance with nothing_to_settle', async () => {
        const { merchantId, testKey } = await t.newMerchant();
        const to = await account(merchantId);
        const all = await settled(testKey, to);
        assert.equal(all.amount_minor, FLOAT);
        assert.equal((await balance(testKey)).available_minor, 0);
        const empty = await settle(testKey, to);
        assert.equal(empty.statusCode, 422, empty.body);
        assert.equal(empty.json().error.code, 'nothing_to_settle');
      });

      it('fails with the payout’s failure code and returns the money when the wallet refuses (sandbox number ending 0001)', async () => {
        const { merchantId, testKey } = await t.newMerchant();
        const to = await account(merchantId, { phone: '+2290197000001' });
        const settlement = await settled(testKey, to, { amount_minor: 1_000_000 });
        await workUntil(testKey, settlement.id, 'failed');
        const failed = await get(testKey, settlement.id);
        assert.equal(failed.status, 'failed');
        assert.ok(failed.failure_code);
        assert.deepEqual(await eventTypes(testKey, settlement.reference), ['settlement.created', 'settlement.failed']);
        const after = await balance(testKey);
        assert.equal(after.available_minor, FLOAT);
        assert.equal(after.reserved_minor, 0);
      });

      it('shows in_transit while the operator holds the payout (sandbox number ending 0002)', async () => {
        const { merchantId, testKey } = await t.newMerchant();
        const to = await account(merchantId, { phone: '+2290197000002' });
        const settlement = await settled(testKey, to, { amount_minor: 1_000_000 });
        await workUntil(testKey, settlement.id, 'in_transit');
        await new Promise((resolve) => setTimeout(resolve, 150));
        await work();
        assert.equal((await get(testKey, settlement.id)).status, 'in_transit', 'still held after another check');
        assert.deepEqual(await eventTypes(testKey, settlement.reference), ['settlement.created']);
      });
    });

    describe('to a bank account', () => {
      it('waits pending until an administrator marks it paid with the bank’s reference; a failed one returns its money', async () => {
        const { merchantId, testKey } = await t.newMerchant();
        const to = await account(merchantId, { kind: 'bank' });
        const first = await settled(testKey, to, { amount_minor: 3_000_000 });
        assert.equal(first.fee_minor, 0);
        assert.equal(first.payout_id, null);
        assert.equal(first.destination.iban, 'BJ66BJ0610100100144139400182');
        await work();
        assert.equal((await get(testKey, first.id)).status, 'pending', 'no worker pays a bank settlement');
        assert.ok((await t.services.settlements.awaitingBank(1000)).some((s) => s.id === first.id));

        const paid = await t.services.settlements.markPaid(first.id, 'VIR-2026-0042');
        assert.equal(paid.status, 'paid');
        assert.equal((await get(testKey, first.id)).bank_reference, 'VIR-2026-0042');
        assert.equal((await t.services.settlements.markPaid(first.id, 'VIR-2026-0042')).status, 'paid', 'marking it again answers it as it is');
        await assert.rejects(t.services.settlements.markFailed(first.id, 'late'), { code: 'invalid_state_transition' });

        const second = await settled(testKey, to, { amount_minor: 2_000_000 });
        const failed = await t.services.settlements.markFailed(second.id, 'Account closed at the bank');
        assert.equal(failed.failureCode, 'bank_rejected');
        assert.deepEqual(await eventTypes(testKey, second.reference), ['settlement.created', 'settlement.failed']);
        const after = await balance(testKey);
        assert.equal(after.available_minor, FLOAT - 3_000_000);
        assert.equal(after.reserved_minor, 0);
        await assert.rejects(t.services.settlements.markPaid(second.id, 'X'), { code: 'invalid_state_transition' });
      });
    });

    describe('requests', () => {
      it('replays a retried request with its key, refuses the key with another body, and requires the key', async () => {
        const { merchantId, testKey } = await t.newMerchant();
        const to = await account(merchantId);
        const key = newId();
        const payload = { settlement_account: to, currency: 'XOF', amount_minor: 1_000_000 };
        const first = await send(testKey, 'POST', '/settlements/', payload, key);
        const again = await send(testKey, 'POST', '/settlements/', payload, key);
        assert.equal(first.statusCode, 201, first.body);
        assert.equal(again.statusCode, 201, again.body);
        assert.equal(again.json().id, first.json().id);
        assert.equal(again.json().idempotent_replay, true);
        assert.deepEqual(again.json().statement, first.json().statement);
        const other = await send(testKey, 'POST', '/settlements/', { ...payload, amount_minor: 2_000_000 }, key);
        assert.equal(other.statusCode, 422);
        assert.equal(other.json().error.code, 'idempotency_key_reused');
        const missing = await send(testKey, 'POST', '/settlements/', payload, null);
        assert.equal(missing.statusCode, 400);
        assert.equal(missing.json().error.code, 'missing_idempotency_key');
        assert.equal((await balance(testKey)).available_minor, FLOAT - 1_000_000);
      });

      it('refuses, writing nothing: a cooling or removed account, another merchant’s, a currency mismatch, a taken reference, more than the balance', async () => {
        const { merchantId, testKey } = await t.newMerchant();
        const other = await t.newMerchant();
        const cases: Array<[string, Wire, number, string]> = [
          [await account(merchantId, { usableFrom: new Date(Date.now() + 3_600_000).toISOString() }), {}, 409, 'settlement_account_cooling'],
          [await account(merchantId, { removed: true }), {}, 409, 'settlement_account_removed'],
          [await account(other.merchantId), {}, 404, 'not_found'],
          [await account(merchantId, { environment: 'live' }), {}, 404, 'not_found'],
          [await account(merchantId), { currency: 'GHS' }, 422, 'settlement_currency_mismatch'],
          [await account(merchantId), { amount_minor: FLOAT + 1 }, 422, 'insufficient_balance'],
          [await account(merchantId), { amount_minor: 0 }, 400, 'validation_error'],
          [await account(merchantId), { amount_minor: walletFee(1) }, 400, 'amount_too_low'],
        ];
        for (const [to, overrides, status, code] of cases) {
          const res = await settle(testKey, to, overrides);
          assert.equal(res.statusCode, status, `${code}: ${res.body}`);
          assert.equal(res.json().error.code, code);
        }
        const to = await account(merchantId);
        await settled(testKey, to, { amount_minor: 100_000, reference: 'once' });
        const taken = await settle(testKey, to, { amount_minor: 100_000, reference: 'once' });
        assert.equal(taken.statusCode, 409);
        assert.equal(taken.json().error.code, 'duplicate_reference');
        assert.equal((await balance(testKey)).available_minor, FLOAT - 100_000);
        assert.equal((await send(testKey, 'GET', '/settlements/')).json().data.length, 1);
      });

      it('gates live settlements on an active merchant with validated KYC; test needs none', async () => {
        for (const [kyc, status, code] of [
          ['pending', 'active', 'kyc_required'],
          ['validated', 'suspended', 'account_inactive'],
        ] as const) {
          const merchant = await t.newMerchant({ kyc });
          await seedLiveBalance(t.services.database, merchant.merchantId, 5_000_000);
          if (status === 'suspended') await t.services.merchants.updateMerchant(merchant.merchantId, { status: 'suspended' });
          const res = await settle(merchant.liveKey, await account(merchant.merchantId, { environment: 'live' }));
          assert.equal(res.statusCode, 403, res.body);
          assert.equal(res.json().error.code, code);
          if (status === 'active') assert.equal((await settle(merchant.testKey, await account(merchant.merchantId), { amount_minor: 1_000_000 })).statusCode, 201);
        }
        const validated = await t.newMerchant();
        await seedLiveBalance(t.services.database, validated.merchantId, 5_000_000);
        const live = await settled(validated.liveKey, await account(validated.merchantId, { environment: 'live', kind: 'bank' }));
        assert.equal(live.environment, 'live');
        assert.equal(live.amount_minor, 5_000_000);
        assert.equal((await send(validated.testKey, 'GET', `/settlements/${live.id}`)).statusCode, 404);
      });

      it('needs settlements:write to settle and settlements:read to read', async () => {
        const reader = await t.newMerchant({ scopes: ['settlements:read'] });
        const refused = await settle(reader.testKey, await account(reader.merchantId));
        assert.equal(refused.statusCode, 403);
        assert.equal(refused.json().error.code, 'insufficient_scope');
        assert.equal((await send(reader.testKey, 'GET', '/settlements/')).statusCode, 200);
        const writer = await t.newMerchant({ scopes: ['payout:read'] });
        assert.equal((await send(writer.testKey, 'GET', '/settlements/')).statusCode, 403);
      });

      it('lists newest first with filters, and finds one by id or reference', async () => {
        const { merchantId, testKey } = await t.newMerchant();
        const to = await account(merchantId);
        const bank = await account(merchantId, { kind: 'bank' });
        const a = await settled(testKey, to, { amount_minor: 100_000, metadata: { batch: 'a' } });
        const b = await settled(testKey, bank, { amount_minor: 100_000, reference: 'bank-1' });
        await work();
        const all = (await send(testKey, 'GET', '/settlements/')).json() as Wire;
        assert.deepEqual(
          all.data.map((s: Wire) => s.id),
          [b.id, a.id],
        );
        assert.deepEqual(
          (await send(testKey, 'GET', '/settlements/?status=pending')).json().data.map((s: Wire) => s.id),
          [b.id],
        );
        assert.deepEqual(
          (await send(testKey, 'GET', '/settlements/?metadata[batch]=a')).json().data.map((s: Wire) => s.id),
          [a.id],
        );
        assert.equal((await get(testKey, 'bank-1')).id, b.id);
        assert.equal((await send(testKey, 'GET', '/settlements/nope')).statusCode, 404);
      });
    });

    describe('statements', () => {
      it('cover every balance transaction since the previous settlement, summing to the centime in JSON, list and CSV', async () => {
        const { merchantId, testKey } = await t.newMerchant();
        const to = await account(merchantId);
        await collect(merchantId, 1_234_567);
        await collect(merchantId, 89_001);
        const first = await settled(testKey, to, { amount_minor: 10_000_000 });
        const one = await assertStatementSums(testKey, first);
        assert.equal(one.opening_available_minor, 0, 'the first statement starts from nothing');
        assert.equal(one.closing_available_minor, FLOAT + 1_234_567 + 89_001 - 10_000_000);
        assert.deepEqual(
          one.totals.map((total: Wire) => [total.type, total.count]),
          [
            ['collection', 2],
            ['sandbox_float', 1],
            ['settlement_reservation', 1],
          ],
        );

        await workUntil(testKey, first.id, 'paid'); // its posting belongs to the next statement
        await collect(merchantId, 5_555);
        const payout = await send(testKey, 'POST', '/payout/mobile-money/', {
          amount: 300_000,
          phone: '0197000000',
          country: 'BJ',
          operator: 'mtn_bj',
          reference: `PAY-${newId()}`,
        });
        assert.equal(payout.statusCode, 201, payout.body);
        const second = await settled(testKey, to);
        const two = await assertStatementSums(testKey, second);
        assert.equal(two.opening_available_minor, one.closing_available_minor, 'each statement opens where the previous closed');
        assert.equal(two.opening_reserved_minor, one.closing_reserved_minor);
        assert.equal(two.closing_available_minor, 0, 'the whole balance was settled');
        assert.deepEqual(two.totals.map((total: Wire) => total.type).sort(), ['collection', 'payout_reservation', 'settlement', 'settlement_reservation']);
        assert.equal(second.amount_minor, one.closing_available_minor + 5_555 - 300_000 - walletFee(300_000));
      });

      it('chain without gap or overlap when settlements, transfers and payouts race on one balance, and never overdraw', async () => {
        const { merchantId, testKey } = await t.newMerchant();
        const peer = await t.newMerchant();
        const to = await account(merchantId);
        const bank = await account(merchantId, { kind: 'bank' });
        // 40 requests of 4 000 000 against 100 000 000: some must be refused, none may overdraw.
        const requests = Array.from({ length: 40 }, (_, i) => {
          if (i % 4 === 0) return settle(testKey, to, { amount_minor: 4_000_000 });
          if (i % 4 === 1) return settle(testKey, bank, { amount_minor: 4_000_000 });
          if (i % 4 === 2) return send(testKey, 'POST', '/transfers/', { receiver: peer.merchantId, amount_minor: 4_000_000, currency: 'XOF', reference: `T-${i}` });
          return send(testKey, 'POST', '/payout/mobile-money/', { amount: 3_900_000, phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: `P-${i}` });
        });
        const results = await Promise.all([...requests, work()]);
        const answers = results.slice(0, 40) as Awaited<(typeof requests)[number]>[];
        for (const res of answers) assert.ok([201, 422].includes(res.statusCode), res.body);
        assert.ok(
          answers.some((res) => res.statusCode === 422 && res.json().error.code === 'insufficient_balance'),
          'the balance ran out',
        );
        await work();
        const after = await balance(testKey);
        assert.ok(after.available_minor >= 0 && after.reserved_minor >= 0);

        const settlements = ((await send(testKey, 'GET', '/settlements/?limit=100')).json().data as Wire[]).reverse();
        assert.ok(settlements.length > 0);
        const { db } = t.services.database;
        const rows = await db.selectFrom('settlements').select(['id', 'sequence']).where('merchant_id', '=', merchantId).orderBy('sequence').execute();
        assert.deepEqual(
          rows.map((row) => Number(row.sequence)),
          rows.map((_, i) => i + 1),
          'sequences run 1, 2, 3… without gap',
        );
        let previousClosing: Wire | undefined;
        for (const row of rows) {
          const statement = await assertStatementSums(testKey, { id: row.id });
          if (previousClosing) assert.equal(statement.opening_available_minor, previousClosing.closing_available_minor, 'no gap, no overlap');
          previousClosing = statement;
        }
        // Every transaction is covered at most once, and those before the last settlement are covered.
        const uncovered = await db
          .selectFrom('ledger_transactions')
          .select('id')
          .where('merchant_id', '=', merchantId)
          .where('environment', '=', 'test')
          .where('settlement_id', 'is', null)
          .execute();
        const covered = (await Promise.all(rows.map((row) => statementLines(testKey, row.id)))).flat();
        assert.equal(new Set(covered.map((line) => line.id)).size, covered.length);
        const total = await db.selectFrom('ledger_transactions').select('id').where('merchant_id', '=', merchantId).where('environment', '=', 'test').execute();
        assert.equal(covered.length + uncovered.length, total.length);
      });
    });
  });
}
