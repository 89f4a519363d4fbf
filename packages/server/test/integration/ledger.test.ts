/**
 * The double-entry ledger on every database: collections credit the merchant less the fee, refunds
 * reserve then settle or release, balances never go below zero, the sandbox float, and the books
 * balance after every test.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { feeFor } from '../../src/core/ledger/ledger.js';
import { newId } from '../../src/core/shared/ids.js';
import { collectClient, direct, eventsOf, hosted } from '../support/collect-client.js';
import { assertBooksBalance } from '../support/ledger-invariants.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const mtnBj = loadDefaultCatalog().findOperator('BJ', 'mtn_bj')!;

for (const target of testDatabases()) {
  describe(`ledger on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    // No float here, so every franc of the balance comes from the operations under test.
    before(async () => {
      t = await buildTestApp(target, { env: { SANDBOX_FLOAT: '0' } });
    });
    after(() => t.close());
    afterEach(() => assertBooksBalance(t.services.database.db));

    const read = async (key: string, url: string): Promise<Wire> => {
      const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const available = async (key: string) => (await read(key, '/balances')).balances.find((b: Wire) => b.currency === 'XOF') ?? { available_minor: 0, reserved_minor: 0 };

    it('credits a completed collection less its fee, and nothing for one that fails or waits', async () => {
      const { testKey } = await t.newMerchant();
      const api = collectClient(t.app, testKey);
      await api.createOk(direct({ amount: 3000 }));
      await api.createOk(direct({ amount: 5000, reference: `FAIL-${newId()}` }));
      await api.createOk(direct({ amount: 7000, reference: `PENDING-${newId()}` }));
      const fee = feeFor(mtnBj.collect.fee, 300_000);
      assert.equal(fee, 4_500, '1.5 % of 3 000 FCFA');
      assert.deepEqual(await available(testKey), { currency: 'XOF', available_minor: 300_000 - fee, reserved_minor: 0 });

      const transactions = await read(testKey, '/balance-transactions');
      assert.equal(transactions.data.length, 1);
      assert.deepEqual(
        {
          type: transactions.data[0].type,
          available_change_minor: transactions.data[0].available_change_minor,
          fee_minor: transactions.data[0].fee_minor,
          object: transactions.data[0].source.object,
        },
        { type: 'collection', available_change_minor: 295_500, fee_minor: 4_500, object: 'payment' },
      );
    });

    it('opens a balance in a payout that is refused, and again for the next posting: nothing of the refused one remains', async () => {
      const { testKey } = await t.newMerchant();
      // The first posting of this balance opens its accounts in the payout's transaction; with no
      // float the reservation trips the CHECK, and that transaction (accounts included) rolls back.
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/v1/payout/mobile-money/',
        headers: { authorization: `Bearer ${testKey}`, 'idempotency-key': newId() },
        payload: { amount: 500_000, phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: `P-${newId()}` },
      });
      assert.equal(refused.json().error.code, 'insufficient_balance', refused.body);
      await collectClient(t.app, testKey).createOk(direct({ amount: 3000 }));
      assert.deepEqual(await available(testKey), { currency: 'XOF', available_minor: 300_000 - feeFor(mtnBj.collect.fee, 300_000), reserved_minor: 0 });
    });

    it('credits a hosted payment when the customer pays, with the paying operator’s fee', async () => {
      const { testKey } = await t.newMerchant();
      const api = collectClient(t.app, testKey);
      const payment = await api.createOk(hosted({ amount: 2000 }));
      assert.equal((await available(testKey)).available_minor, 0, 'nothing before the customer pays');
      assert.equal((await api.post(payment.reference, 'pay', { phone: '0500000000', operator: 'mtn_ci' })).statusCode, 200);
      assert.equal((await available(testKey)).available_minor, 200_000 - feeFor(loadDefaultCatalog().findOperator('CI', 'mtn_ci')!.collect.fee, 200_000));
    });

    it('reserves a refund, spends the reservation when it completes and gives it back when it fails', async () => {
      const { testKey } = await t.newMerchant();
      const api = collectClient(t.app, testKey);
      const payment = await api.createOk(direct({ amount: 3000 }));
      const credited = (await available(testKey)).available_minor;
      assert.equal((await api.post(payment.reference, 'refunds', { amount: 1000 })).json().status, 'completed');
      assert.deepEqual(await available(testKey), { currency: 'XOF', available_minor: credited - 100_000, reserved_minor: 0 });
      const refused = await api.post(payment.reference, 'refunds', { amount: 500, reason: 'FAIL please' });
      assert.equal(refused.json().status, 'failed');
      assert.deepEqual(await available(testKey), { currency: 'XOF', available_minor: credited - 100_000, reserved_minor: 0 }, 'the failed refund gave its reservation back');
      const types = (await read(testKey, '/balance-transactions')).data.map((tx: Wire) => tx.type);
      assert.deepEqual(types, ['refund_release', 'refund_reservation', 'refund', 'refund_reservation', 'collection']);
    });

    it('refuses a refund the available balance cannot cover with 422 insufficient_balance, writing nothing', async () => {
      const { testKey } = await t.newMerchant();
      const api = collectClient(t.app, testKey);
      const payment = await api.createOk(direct({ amount: 3000 }));
      const before = await read(testKey, '/balance-transactions');
      // The merchant holds 2 955 FCFA (3 000 less the fee): refunding the whole 3 000 would overdraw.
      const res = await api.post(payment.reference, 'refunds', {});
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().error.code, 'insufficient_balance');
      assert.equal((await api.listRefunds(payment.reference)).json().data.length, 0, 'no refund stored');
      assert.equal((await api.get(payment.reference)).json().refunded_amount, 0);
      assert.deepEqual((await read(testKey, '/balance-transactions')).data, before.data);
      assert.equal((await api.post(payment.reference, 'refunds', { amount: 2955 })).statusCode, 201, 'exactly the balance is accepted');
      assert.deepEqual(await available(testKey), { currency: 'XOF', available_minor: 0, reserved_minor: 0 });
    });

    it('credits each of many concurrent creations once (one commit each, shared posting statements), a duplicate reference refused alone', async () => {
      const { testKey } = await t.newMerchant();
      const api = collectClient(t.app, testKey);
      // The first opens the balance's accounts; the rest race, so PostgreSQL writes them in shared statements.
      await api.createOk(direct({ amount: 1000 }));
      const taken = `ORDER-${newId()}`;
      const bodies = [
        ...Array.from({ length: 30 }, (_, i) => direct({ amount: 1000 + i })),
        ...Array.from({ length: 4 }, () => direct({ amount: 2000, reference: `FAIL-${newId()}` })),
        direct({ amount: 4000, reference: taken }),
        direct({ amount: 4000, reference: taken }),
        direct({ amount: 500, metadata: { order: 'with-metadata' } }),
      ];
      const results = await Promise.all(bodies.map((body) => api.create(body)));
      const duplicates = results.filter((r) => r.statusCode === 409);
      assert.equal(duplicates.length, 1, results.map((r) => r.body).join('\n'));
      assert.equal(duplicates[0]!.json().error.code, 'duplicate_reference');
      assert.ok(
        results.every((r) => r.statusCode === 201 || r.statusCode === 409),
        results.map((r) => r.body).join('\n'),
      );
      const completedMinor = [100_000, ...Array.from({ length: 30 }, (_, i) => (1000 + i) * 100), 400_000, 50_000];
      const expected = completedMinor.reduce((sum, amount) => sum + amount - feeFor(mtnBj.collect.fee, amount), 0);
      assert.deepEqual(await available(testKey), { currency: 'XOF', available_minor: expected, reserved_minor: 0 });
      for (const res of results.filter((r) => r.statusCode === 201)) {
        const payment = res.json();
        assert.equal(payment.status, payment.reference.startsWith('FAIL-') ? 'failed' : 'completed');
        const types = (await eventsOf(t.services.database, payment.id)).map((entry) => entry.split(':')[0]);
        assert.deepEqual(types, [
          'collect.payment.created',
          'collect.payment.processing',
          payment.reference.startsWith('FAIL-') ? 'collect.payment.failed' : 'collect.payment.completed',
        ]);
      }
      const transactions = await read(testKey, '/balance-transactions?limit=100');
      assert.equal(transactions.data.length, completedMinor.length, 'one collection posting per completed payment');
    });

    it('never overdraws under concurrent refunds: the balance covers some, the rest are refused', async () => {
      const { testKey } = await t.newMerchant();
      const api = collectClient(t.app, testKey);
      const payments: Wire[] = [];
      for (let i = 0; i < 3; i++) payments.push(await api.createOk(direct({ amount: 1000 })));
      // 3 × 985 FCFA credited; ten refunds of 500 race for it: at most five fit.
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => api.post(payments[i % 3]!.reference, 'refunds', { amount: 500 })));
      const accepted = results.filter((r) => r.statusCode === 201).length;
      const refusals = ['insufficient_balance', 'refund_exceeds_amount', 'payment_not_refundable'];
      assert.ok(
        results.every((r) => r.statusCode === 201 || ([409, 422].includes(r.statusCode) && refusals.includes(r.json().error.code))),
        results.map((r) => r.body).join('\n'),
      );
      assert.ok(accepted <= 5, `${accepted} refunds accepted`);
      const balance = await available(testKey);
      assert.equal(balance.available_minor, 3 * 98_500 - accepted * 50_000);
      assert.ok(balance.available_minor >= 0);
    });

    it('posts concurrent reservations, settlements and releases of one merchant without a deadlock', async () => {
      const { testKey } = await t.newMerchant();
      const api = collectClient(t.app, testKey);
      const payments: Wire[] = [];
      for (let i = 0; i < 8; i++) payments.push(await api.createOk(direct({ amount: 5000 })));
      // Failing refunds release (reserved then available), others reserve (available then reserved):
      // the same two rows, touched in both orders, by many transactions at once.
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => api.post(payments[i % 8]!.reference, 'refunds', { amount: 100, ...(i % 2 === 0 ? { reason: 'FAIL on purpose' } : {}) })),
      );
      assert.deepEqual(
        results.filter((r) => r.statusCode >= 500).map((r) => r.body),
        [],
      );
      assert.equal(results.filter((r) => r.statusCode === 201).length, 40);
    });

    it('lists balance transactions newest first, paginated and filtered, summing to the balance', async () => {
      const { testKey } = await t.newMerchant();
      const api = collectClient(t.app, testKey);
      for (let i = 0; i < 4; i++) await api.createOk(direct({ amount: 1000 + i * 100 }));
      const all: Wire[] = [];
      for (let cursor = ''; ;) {
        const page = await read(testKey, `/balance-transactions?limit=3${cursor}`);
        all.push(...page.data);
        if (!page.has_more) break;
        cursor = `&starting_after=${page.data.at(-1).id}`;
      }
      assert.equal(all.length, 4);
      const ids = all.map((tx) => tx.id);
      assert.deepEqual(ids, [...ids].sort().reverse(), 'newest first, none twice');
      assert.equal(
        all.reduce((sum, tx) => sum + tx.available_change_minor, 0),
        (await available(testKey)).available_minor,
      );
      assert.equal((await read(testKey, '/balance-transactions?type=refund')).data.length, 0);
      const bad = await t.app.inject({ method: 'GET', url: '/api/v1/balance-transactions?type=bonus', headers: { authorization: `Bearer ${testKey}` } });
      assert.equal(bad.statusCode, 400);
    });
  });

  describe(`sandbox float on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await buildTestApp(target);
    });
    after(() => t.close());
    afterEach(() => assertBooksBalance(t.services.database.db));

    it('starts every test balance with 100 000 000 XOF, posted once however many read it at once; live starts at zero', async () => {
      const merchant = await t.newMerchant();
      const reads = await Promise.all(
        Array.from({ length: 5 }, () => t.app.inject({ method: 'GET', url: '/api/v1/balances', headers: { authorization: `Bearer ${merchant.testKey}` } })),
      );
      for (const res of reads) assert.deepEqual(res.json().balances, [{ currency: 'XOF', available_minor: 10_000_000_000, reserved_minor: 0 }]);
      const transactions = await t.app.inject({ method: 'GET', url: '/api/v1/balance-transactions', headers: { authorization: `Bearer ${merchant.testKey}` } });
      assert.deepEqual(
        transactions.json().data.map((tx: Wire) => [tx.type, tx.available_change_minor]),
        [['sandbox_float', 10_000_000_000]],
      );
      const live = await t.app.inject({ method: 'GET', url: '/api/v1/balances', headers: { authorization: `Bearer ${merchant.liveKey}` } });
      assert.deepEqual(live.json(), { object: 'balance', environment: 'live', balances: [] });
    });
  });
}
