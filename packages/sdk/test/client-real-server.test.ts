/**
 * The client against a real Akwe server (SQLite, listening on a free port): payments created,
 * confirmed and refunded, a payout, lists read across pages both ways, and the API's errors as
 * typed errors carrying what the body and headers said.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Akwe, AuthenticationError, ConflictError, InvalidRequestError, NotFoundError, type Payment } from '../src/index.js';
import { startRealServer, type RealServer } from './support/real-server.js';

describe('Akwe client against a real server', () => {
  let server: RealServer;
  let akwe: Akwe;
  let run = 0;
  const reference = (label: string) => `sdk-${label}-${Date.now()}-${++run}`;
  const directPayment = (ref: string) =>
    ({ reference: ref, amount: 1500, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '+2290197000000' } }) as const;

  before(async () => {
    server = await startRealServer();
    const merchant = await server.testApp.newMerchant();
    akwe = new Akwe(merchant.testKey, { baseUrl: server.baseUrl });
  });
  after(() => server.close());

  it('reads the account of the key', async () => {
    const account = await akwe.account.retrieve();
    assert.equal(account.environment, 'test');
    assert.equal(account.status, 'active');
  });

  it('creates a payment with a generated Idempotency-Key, and a retry with the same key replays it', async () => {
    const ref = reference('pay');
    const key = crypto.randomUUID();
    const created = await akwe.payments.create(directPayment(ref), { idempotencyKey: key });
    assert.equal(created.status, 'completed');
    assert.equal(created.idempotent_replay, false);
    const replay = await akwe.payments.create(directPayment(ref), { idempotencyKey: key });
    assert.equal(replay.id, created.id);
    assert.equal(replay.idempotent_replay, true);
    const read = await akwe.payments.retrieve(ref);
    assert.equal(read.id, created.id);
  });

  it('refuses the same Idempotency-Key with another body: 422 idempotency_key_reused', async () => {
    const key = crypto.randomUUID();
    await akwe.payments.create(directPayment(reference('reuse')), { idempotencyKey: key });
    await assert.rejects(akwe.payments.create(directPayment(reference('reuse')), { idempotencyKey: key }), (error: unknown) => {
      assert.ok(error instanceof InvalidRequestError);
      assert.equal(error.status, 422);
      assert.equal(error.code, 'idempotency_key_reused');
      return true;
    });
  });

  it('confirms a payment awaiting its OTP', async () => {
    const ref = reference('otp');
    const created = await akwe.payments.create({
      reference: ref,
      amount: 1000,
      currency: 'XOF',
      country: 'CI',
      mode: 'direct',
      operator: 'orange_ci',
      customer: { phone: '+2250707000000' },
    });
    assert.equal(created.status, 'awaiting_otp');
    const confirmed = await akwe.payments.confirm(ref, { otp: '123456' });
    assert.equal(confirmed.status, 'completed');
  });

  it('refunds part of a completed payment, then lists and reads the refund', async () => {
    const ref = reference('refund');
    await akwe.payments.create(directPayment(ref));
    const refund = await akwe.refunds.create(ref, { amount: 500 });
    assert.equal(refund.amount, 500);
    assert.equal(refund.payment_reference, ref);
    const page = await akwe.refunds.list(ref);
    assert.deepEqual(
      page.data.map((item) => item.id),
      [refund.id],
    );
    assert.equal((await akwe.refunds.retrieve(ref, refund.id)).id, refund.id);
    await assert.rejects(akwe.refunds.create(ref, { amount: 5000 }), (error: unknown) => {
      assert.ok(error instanceof ConflictError);
      assert.equal(error.code, 'refund_exceeds_amount');
      assert.equal(error.field, 'amount');
      return true;
    });
  });

  it('creates a payout and reads it back', async () => {
    const ref = reference('payout');
    const payout = await akwe.payouts.create({ amount: 20_000, phone: '+2290197000000', country: 'BJ', operator: 'mtn_bj', reference: ref });
    assert.equal(payout.status, 'PENDING');
    const read = await akwe.payouts.retrieve(ref);
    assert.equal(read.id, payout.id);
    const balance = await akwe.balances.retrieve();
    assert.ok(balance.balances.some((entry) => entry.currency === 'XOF'));
  });

  it('iterates a list across pages with for await, newest first, each payment once', async () => {
    const merchant = await server.testApp.newMerchant();
    const own = new Akwe(merchant.testKey, { baseUrl: server.baseUrl });
    const made: Payment[] = [];
    for (let i = 0; i < 5; i++) made.push(await own.payments.create(directPayment(reference('list'))));

    const first = await own.payments.list({ limit: 2 });
    assert.equal(first.data.length, 2);
    assert.equal(first.hasMore, true);

    const seen: string[] = [];
    for await (const payment of own.payments.list({ limit: 2 })) seen.push(payment.id);
    assert.deepEqual(seen, made.map((payment) => payment.id).reverse());

    // Backwards from the oldest: ending_before follows previous_cursor.
    const oldest = made[0]!.id;
    const newer = await own.payments.list({ limit: 2, ending_before: oldest }).toArray();
    assert.deepEqual(new Set(newer.map((payment) => payment.id)), new Set(made.slice(1).map((payment) => payment.id)));
  });

  it('maps an unknown payment to NotFoundError with code, request id, doc URL and status', async () => {
    await assert.rejects(akwe.payments.retrieve('no-such-payment'), (error: unknown) => {
      assert.ok(error instanceof NotFoundError);
      assert.equal(error.status, 404);
      assert.equal(error.code, 'not_found');
      assert.match(error.requestId ?? '', /.+/);
      assert.match(error.docUrl ?? '', /#not_found$/);
      return true;
    });
  });

  it('maps a refused field to InvalidRequestError naming the field (400 and 422)', async () => {
    await assert.rejects(akwe.payments.create({ ...directPayment(reference('low')), amount: 1 }), (error: unknown) => {
      assert.ok(error instanceof InvalidRequestError);
      assert.equal(error.status, 400);
      assert.equal(error.code, 'amount_too_low');
      assert.equal(error.field, 'amount');
      return true;
    });
    const account = await akwe.account.retrieve();
    await assert.rejects(akwe.transfers.create({ receiver: account.merchant_id, amount_minor: 100_000, currency: 'XOF', reference: reference('self') }), (error: unknown) => {
      assert.ok(error instanceof InvalidRequestError);
      assert.equal(error.status, 422);
      assert.equal(error.code, 'transfer_to_self');
      assert.equal(error.field, 'receiver');
      return true;
    });
  });

  it('maps a wrong key to AuthenticationError', async () => {
    const stranger = new Akwe('ak_test_not_a_real_key', { baseUrl: server.baseUrl });
    await assert.rejects(stranger.account.retrieve(), AuthenticationError);
  });
});
