/**
 * Wallet transfers between merchants (docs/transfers.md, issue 26) on every database: both sides'
 * balances, balance transactions and events; idempotency; every refusal moving nothing; racing
 * transfers (and a transfer racing a payout) never overdrawing; live gating; scopes; who may read
 * what. The books are checked after every test.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { feeFor } from '../../src/core/ledger/ledger.js';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { newId } from '../../src/core/shared/ids.js';
import type { Environment } from '../../src/core/shared/environment.js';
import { assertBooksBalance } from '../support/ledger-invariants.js';
import { seedBalance, seedLiveBalance } from '../support/live-balance.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The sandbox float of 1 000 000 FCFA, in centimes. */
const FLOAT = 100_000_000;
const MAX = 50_000_000;
const DAILY_MAX = 150_000_000;
const payoutFee = (amount: number) => feeFor(loadDefaultCatalog().findOperator('BJ', 'mtn_bj')!.payout.fee, amount);

for (const target of testDatabases()) {
  describe(`wallet transfers on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;

    before(async () => {
      t = await buildTestApp(target, { env: { SANDBOX_FLOAT: String(FLOAT / 100), TRANSFER_MAX_MINOR: String(MAX), TRANSFER_DAILY_MAX_MINOR: String(DAILY_MAX) } });
    });
    after(() => t.close());
    afterEach(() => assertBooksBalance(t.services.database.db));

    const send = (key: string, method: 'GET' | 'POST', url: string, payload?: object, idempotencyKey: string = newId()) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${key}`, ...(method === 'POST' ? { 'idempotency-key': idempotencyKey } : {}) },
        ...(payload ? { payload } : {}),
      });
    const body = (receiver: string, overrides: Wire = {}) => ({ receiver, amount_minor: 1_500_000, currency: 'XOF', reference: `TR-${newId()}`, ...overrides });
    const transfer = (key: string, receiver: string, overrides: Wire = {}) => send(key, 'POST', '/transfers/', body(receiver, overrides));
    const available = async (key: string) => ((await send(key, 'GET', '/balances')).json().balances as Wire[]).find((b) => b.currency === 'XOF')?.available_minor ?? 0;
    const transactions = async (key: string) => (await send(key, 'GET', '/balance-transactions?limit=100')).json().data as Wire[];
    const events = async (key: string, reference: string) => (await send(key, 'GET', `/events?reference=${reference}`)).json().data as Wire[];
    const listed = async (key: string, query = '') => (await send(key, 'GET', `/transfers/${query}`)).json() as Wire;
    /** Money the test environment did not start with: a collection's worth posted straight to the ledger. */
    const seedTestBalance = (merchantId: string, amountMinor: number, environment: Environment = 'test') =>
      seedBalance(t.services.database, merchantId, amountMinor, { environment, clock: t.services.clock, sandboxFloatMinor: FLOAT });

    it('moves the amount from the sender’s available balance to the receiver’s, each with its balance transaction and event', async () => {
      const sender = await t.newMerchant();
      const receiver = await t.newMerchant();
      const res = await transfer(sender.testKey, receiver.merchantId, { description: 'June delivery', metadata: { invoice: 'F-118' } });
      assert.equal(res.statusCode, 201, res.body);
      const sent = res.json() as Wire;
      assert.equal(sent.object, 'transfer');
      assert.equal(sent.direction, 'sent');
      assert.equal(sent.sender, sender.merchantId);
      assert.equal(sent.receiver, receiver.merchantId);
      assert.equal(sent.amount_minor, 1_500_000);
      assert.equal(sent.environment, 'test');
      assert.deepEqual(sent.metadata, { invoice: 'F-118' });

      assert.equal(await available(sender.testKey), FLOAT - 1_500_000);
      assert.equal(await available(receiver.testKey), FLOAT + 1_500_000);

      const out = (await transactions(sender.testKey)).find((tx) => tx.type === 'transfer_out')!;
      assert.equal(out.available_change_minor, -1_500_000);
      assert.deepEqual(out.source, { object: 'transfer', id: sent.id, reference: sent.reference });
      const into = (await transactions(receiver.testKey)).find((tx) => tx.type === 'transfer_in')!;
      assert.equal(into.available_change_minor, 1_500_000);
      assert.equal(into.fee_minor, 0);
      assert.deepEqual(into.source, { object: 'transfer', id: sent.id, reference: null });

      const [sentEvent] = await events(sender.testKey, sent.reference);
      assert.equal(sentEvent?.type, 'transfer.sent');
      assert.equal(sentEvent.data.object.id, sent.id);
      const [receivedEvent] = await events(receiver.testKey, sent.id);
      assert.equal(receivedEvent?.type, 'transfer.received');
      assert.equal(receivedEvent.data.object.direction, 'received');
      assert.equal(receivedEvent.data.object.reference, null, 'the sender’s reference stays the sender’s');
      assert.deepEqual(receivedEvent.data.object.metadata, {});
    });

    it('replays a retried request with its key, and refuses the key with another body, moving the money once', async () => {
      const sender = await t.newMerchant();
      const receiver = await t.newMerchant();
      const key = newId();
      const payload = body(receiver.merchantId);
      const first = await send(sender.testKey, 'POST', '/transfers/', payload, key);
      const again = await send(sender.testKey, 'POST', '/transfers/', payload, key);
      assert.equal(first.statusCode, 201, first.body);
      assert.equal(again.statusCode, 201, again.body);
      assert.equal(again.json().id, first.json().id);
      assert.equal(again.json().idempotent_replay, true);
      const other = await send(sender.testKey, 'POST', '/transfers/', { ...payload, amount_minor: 2_000_000 }, key);
      assert.equal(other.statusCode, 422, other.body);
      assert.equal(other.json().error.code, 'idempotency_key_reused');
      const missing = await t.app.inject({ method: 'POST', url: '/api/v1/transfers/', headers: { authorization: `Bearer ${sender.testKey}` }, payload });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().error.code, 'missing_idempotency_key');
      assert.equal(await available(sender.testKey), FLOAT - 1_500_000);
      assert.equal(await available(receiver.testKey), FLOAT + 1_500_000);
    });

    it('refuses each bad transfer with its own code and moves nothing', async () => {
      const sender = await t.newMerchant();
      const receiver = await t.newMerchant();
      const suspended = await t.newMerchant();
      await t.services.merchants.updateMerchant(suspended.merchantId, { status: 'suspended' });
      const taken = (await transfer(sender.testKey, receiver.merchantId)).json().reference as string;
      const before = { sender: await available(sender.testKey), receiver: await available(receiver.testKey), suspended: await available(suspended.testKey) };
      const cases: Array<[string, Wire, number, string]> = [
        ['to itself', body(sender.merchantId), 422, 'transfer_to_self'],
        ['to no merchant', body(newId()), 422, 'unknown_receiver'],
        ['to something not an id', body('not-a-merchant'), 422, 'unknown_receiver'],
        ['to a suspended merchant', body(suspended.merchantId), 422, 'receiver_inactive'],
        ['above the per-transfer limit', body(receiver.merchantId, { amount_minor: MAX + 1 }), 422, 'transfer_limit_exceeded'],
        ['in a currency the balance does not hold', body(receiver.merchantId, { currency: 'GHS' }), 400, 'unsupported_currency'],
        ['with a reference taken', body(receiver.merchantId, { reference: taken }), 409, 'duplicate_reference'],
        ['with a body the schema refuses', { ...body(receiver.merchantId), amount_minor: 0 }, 400, 'validation_error'],
      ];
      for (const [label, payload, status, code] of cases) {
        const res = await send(sender.testKey, 'POST', '/transfers/', payload);
        assert.equal(res.statusCode, status, `${label}: ${res.body}`);
        assert.equal(res.json().error.code, code, label);
      }
      assert.deepEqual({ sender: await available(sender.testKey), receiver: await available(receiver.testKey), suspended: await available(suspended.testKey) }, before);
      assert.equal((await listed(sender.testKey)).data.length, 1);
      assert.equal((await listed(suspended.testKey)).data.length, 0);
    });

    it('refuses a transfer the available balance cannot cover, writing nothing', async () => {
      const sender = await t.newMerchant();
      const receiver = await t.newMerchant();
      for (let i = 0; i < 2; i++) assert.equal((await transfer(sender.testKey, receiver.merchantId, { amount_minor: MAX })).statusCode, 201);
      const res = await transfer(sender.testKey, receiver.merchantId, { amount_minor: 1 });
      assert.equal(res.statusCode, 422, res.body);
      assert.equal(res.json().error.code, 'insufficient_balance');
      assert.equal(await available(sender.testKey), 0);
      assert.equal(await available(receiver.testKey), FLOAT + 2 * MAX);
      assert.equal((await listed(sender.testKey)).data.length, 2);
      assert.equal((await transactions(receiver.testKey)).filter((tx) => tx.type === 'transfer_in').length, 2);
    });

    it('holds the daily limit per sender, environment and currency', async () => {
      const sender = await t.newMerchant();
      const receiver = await t.newMerchant();
      await available(sender.testKey); // opens the test balance with its float
      await seedTestBalance(sender.merchantId, FLOAT);
      for (let i = 0; i < DAILY_MAX / MAX; i++) assert.equal((await transfer(sender.testKey, receiver.merchantId, { amount_minor: MAX })).statusCode, 201);
      const before = await available(sender.testKey);
      const over = await transfer(sender.testKey, receiver.merchantId, { amount_minor: 100 });
      assert.equal(over.statusCode, 422, over.body);
      assert.equal(over.json().error.code, 'daily_transfer_limit_exceeded');
      assert.equal(await available(sender.testKey), before);
      // Another merchant's day is its own.
      assert.equal((await transfer(receiver.testKey, sender.merchantId, { amount_minor: 100 })).statusCode, 201);
    });

    it('lets exactly the affordable ones of 20 racing transfers through, never below zero', async () => {
      const sender = await t.newMerchant();
      const receivers = [await t.newMerchant(), await t.newMerchant()];
      const amount = 14_000_000; // seven fit in the float, eight do not
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => transfer(sender.testKey, receivers[i % 2]!.merchantId, { amount_minor: amount })));
      const codes = results.map((r) => r.statusCode);
      assert.equal(codes.filter((c) => c === 201).length, 7, codes.join(','));
      assert.ok(results.every((r) => r.statusCode === 201 || r.json().error.code === 'insufficient_balance'));
      assert.equal(await available(sender.testKey), FLOAT - 7 * amount);
      const received = (await available(receivers[0]!.testKey)) + (await available(receivers[1]!.testKey));
      assert.equal(received, 2 * FLOAT + 7 * amount);
    });

    it('keeps a ring of transfers in both directions, mixed with payouts, whole: no deadlock, money conserved', async () => {
      const ring = [await t.newMerchant(), await t.newMerchant(), await t.newMerchant()];
      const payoutAmount = 5_000_000;
      const requests = Array.from({ length: 30 }, (_, i) => {
        const from = ring[i % 3]!;
        if (i % 5 === 4)
          return send(from.testKey, 'POST', '/payout/mobile-money/', { amount: payoutAmount, phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: `PAY-${newId()}` });
        // The next merchant of the ring on even turns, the previous one on odd turns.
        const to = ring[((i % 3) + (i % 2 === 0 ? 1 : 2)) % 3]!;
        return transfer(from.testKey, to.merchantId, { amount_minor: 9_000_000 });
      });
      const results = await Promise.all(requests);
      assert.ok(
        results.every((r) => r.statusCode === 201 || r.json().error.code === 'insufficient_balance'),
        results.map((r) => r.body).join('\n'),
      );
      const payouts = results.filter((r, i) => i % 5 === 4 && r.statusCode === 201).length;
      let total = 0;
      for (const merchant of ring) total += await available(merchant.testKey);
      assert.equal(total, 3 * FLOAT - payouts * (payoutAmount + payoutFee(payoutAmount)), 'transfers move money between the three; only payouts take it out');
    });

    it('lets a transfer and a payout racing for the same last francs never both through', async () => {
      const sender = await t.newMerchant();
      const receiver = await t.newMerchant();
      const sink = await t.newMerchant();
      // Leave 2 000 000 centimes: both below need more than that, either alone fits.
      assert.equal((await transfer(sender.testKey, sink.merchantId, { amount_minor: MAX })).statusCode, 201);
      assert.equal((await transfer(sender.testKey, sink.merchantId, { amount_minor: MAX - 2_000_000 })).statusCode, 201);
      const payoutAmount = 1_500_000;
      assert.ok(payoutAmount + payoutFee(payoutAmount) <= 2_000_000);
      const [payout, moved] = await Promise.all([
        send(sender.testKey, 'POST', '/payout/mobile-money/', { amount: payoutAmount, phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: `PAY-${newId()}` }),
        transfer(sender.testKey, receiver.merchantId, { amount_minor: 1_500_000 }),
      ]);
      const through = [payout, moved].filter((r) => r.statusCode === 201);
      assert.equal(through.length, 1, `${payout.body}\n${moved.body}`);
      const refused = [payout, moved].find((r) => r.statusCode !== 201)!;
      assert.equal(refused.json().error.code, 'insufficient_balance');
      const left = await available(sender.testKey);
      assert.equal(left, moved.statusCode === 201 ? 500_000 : 2_000_000 - payoutAmount - payoutFee(payoutAmount));
    });

    it('gates live transfers on an active merchant with validated KYC; test needs no KYC; live money stays live', async () => {
      const receiver = await t.newMerchant();
      for (const [kyc, status, code] of [
        ['pending', 'active', 'kyc_required'],
        ['validated', 'suspended', 'account_inactive'],
      ] as const) {
        const merchant = await t.newMerchant({ kyc });
        await seedLiveBalance(t.services.database, merchant.merchantId, 5_000_000);
        if (status === 'suspended') await t.services.merchants.updateMerchant(merchant.merchantId, { status: 'suspended' });
        const res = await transfer(merchant.liveKey, receiver.merchantId);
        assert.equal(res.statusCode, 403, res.body);
        assert.equal(res.json().error.code, code);
        assert.equal(await available(merchant.liveKey), 5_000_000);
        if (status === 'active') assert.equal((await transfer(merchant.testKey, receiver.merchantId)).statusCode, 201, 'test transfers need no KYC');
      }
      const validated = await t.newMerchant({ kyc: 'validated' });
      await seedLiveBalance(t.services.database, validated.merchantId, 5_000_000);
      const receiverTestBefore = await available(receiver.testKey);
      const res = await transfer(validated.liveKey, receiver.merchantId, { amount_minor: 2_000_000 });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().environment, 'live');
      assert.equal(await available(validated.liveKey), 3_000_000);
      assert.equal(await available(receiver.liveKey), 2_000_000);
      assert.equal(await available(receiver.testKey), receiverTestBefore, 'the receiver’s test balance is another balance');
      // A live transfer is not seen with a test key, and the other way round.
      const unseen = await send(receiver.testKey, 'GET', `/transfers/${res.json().id}`);
      assert.equal(unseen.statusCode, 404);
    });

    it('needs transfers:write to send and transfers:read to read', async () => {
      const receiver = await t.newMerchant();
      const reader = await t.newMerchant({ scopes: ['transfers:read'] });
      const refused = await transfer(reader.testKey, receiver.merchantId);
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal(refused.json().error.code, 'insufficient_scope');
      assert.equal((await send(reader.testKey, 'GET', '/transfers/')).statusCode, 200);
      const writer = await t.newMerchant({ scopes: ['transfers:write'] });
      assert.equal((await transfer(writer.testKey, receiver.merchantId)).statusCode, 201);
      const unread = await send(writer.testKey, 'GET', '/transfers/');
      assert.equal(unread.statusCode, 403);
      assert.equal(unread.json().error.code, 'insufficient_scope');
    });

    it('shows each party its side, filters by direction, pages with cursors, and hides a transfer from a third merchant', async () => {
      const a = await t.newMerchant();
      const b = await t.newMerchant();
      const c = await t.newMerchant();
      const first = (await transfer(a.testKey, b.merchantId, { metadata: { batch: 'x' } })).json() as Wire;
      const second = (await transfer(b.testKey, a.merchantId, { amount_minor: 700_000 })).json() as Wire;
      const third = (await transfer(a.testKey, b.merchantId, { amount_minor: 300_000 })).json() as Wire;

      const bySender = (await send(a.testKey, 'GET', `/transfers/${first.id}`)).json() as Wire;
      assert.equal(bySender.direction, 'sent');
      assert.equal(bySender.reference, first.reference);
      assert.equal((await send(a.testKey, 'GET', `/transfers/${first.reference}`)).json().id, first.id, 'the sender reads it by its reference');
      const byReceiver = (await send(b.testKey, 'GET', `/transfers/${first.id}`)).json() as Wire;
      assert.equal(byReceiver.direction, 'received');
      assert.equal(byReceiver.reference, null);
      assert.deepEqual(byReceiver.metadata, {});
      assert.equal((await send(b.testKey, 'GET', `/transfers/${first.reference}`)).statusCode, 404, 'the sender’s reference is not the receiver’s');
      const hidden = await send(c.testKey, 'GET', `/transfers/${first.id}`);
      assert.equal(hidden.statusCode, 404);
      assert.equal(hidden.json().error.code, 'not_found');
      assert.deepEqual((await listed(c.testKey)).data, []);

      const all = await listed(a.testKey);
      assert.deepEqual(
        all.data.map((x: Wire) => [x.id, x.direction]),
        [
          [third.id, 'sent'],
          [second.id, 'received'],
          [first.id, 'sent'],
        ],
      );
      assert.deepEqual(
        (await listed(a.testKey, '?direction=received')).data.map((x: Wire) => x.id),
        [second.id],
      );
      assert.deepEqual(
        (await listed(b.testKey, '?direction=RECEIVED')).data.map((x: Wire) => x.id),
        [third.id, first.id],
      );
      assert.deepEqual(
        (await listed(a.testKey, '?metadata[batch]=x')).data.map((x: Wire) => x.id),
        [first.id],
      );
      const page1 = await listed(a.testKey, '?limit=2');
      assert.equal(page1.has_more, true);
      const page2 = await listed(a.testKey, `?limit=2&starting_after=${encodeURIComponent(page1.next_cursor)}`);
      assert.deepEqual(
        page2.data.map((x: Wire) => x.id),
        [first.id],
      );
      const foreign = await send(b.testKey, 'GET', `/transfers/?limit=2&starting_after=${encodeURIComponent(page1.next_cursor)}`);
      assert.equal(foreign.statusCode, 400, 'a cursor continues only its own merchant’s list');
    });
  });
}
