/** Refunds (partial, full, over-refund, concurrency), expiry exactly once, and sync, on every database. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import type { OperatorAnswer, OperatorConnector } from '../../src/core/operators/operator-connector.js';
import type { Payment } from '../../src/core/payments/payment.js';
import { newId } from '../../src/core/shared/ids.js';
import { OperatorRegistry } from '../../src/operators/operator-registry.js';
import { SandboxOperator } from '../../src/operators/sandbox/sandbox-operator.js';
import { createServices } from '../../src/services.js';
import { openDatabase } from '../../src/storage/database.js';
import { collectClient, direct, eventsOf, hosted } from '../support/collect-client.js';
import { FakeClock } from '../support/fake-clock.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

/** The real sandbox, counting how often the core asks it for a status. */
class CountingSandbox extends SandboxOperator {
  queries = 0;
  override async queryStatus(payment: Payment): Promise<OperatorAnswer | undefined> {
    this.queries += 1;
    return super.queryStatus(payment);
  }
}

for (const target of testDatabases()) {
  describe(`refunds, expiry and sync on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let api: ReturnType<typeof collectClient>;
    let merchant: Awaited<ReturnType<TestApp['newMerchant']>>;
    const clock = new FakeClock();
    const sandbox = new CountingSandbox();

    before(async () => {
      t = await buildTestApp(target, { clock, operators: new OperatorRegistry({ test: sandbox as OperatorConnector }) });
      merchant = await t.newMerchant();
      api = collectClient(t.app, merchant.testKey);
    });
    after(() => t.close());

    const events = (id: string) => eventsOf(t.services.database, id);

    describe('refunds', () => {
      it('refunds in parts up to the amount, then marks the payment refunded', async () => {
        const payment = await api.createOk(direct({ amount: 3000 }));
        const first = await api.post(payment.reference, 'refunds', { amount: 1000, reason: 'one item returned' });
        assert.equal(first.statusCode, 201, first.body);
        assert.equal(first.json().object, 'collect.refund');
        assert.equal(first.json().status, 'completed');
        assert.equal(first.json().amount, 1000);
        let current = (await api.get(payment.reference)).json();
        assert.equal(current.status, 'completed');
        assert.equal(current.refunded_amount, 1000);

        const rest = await api.post(payment.reference, 'refunds', {});
        assert.equal(rest.json().amount, 2000);
        current = (await api.get(payment.reference)).json();
        assert.equal(current.status, 'refunded');
        assert.equal(current.refunded_amount, 3000);
        const list = (await api.listRefunds(payment.reference)).json();
        assert.deepEqual(
          list.data.map((r: { amount: number }) => r.amount),
          [2000, 1000],
          'newest first',
        );
        assert.deepEqual(await events(payment.id), [
          'collect.payment.created:pending',
          'collect.payment.processing:processing',
          'collect.payment.completed:completed',
          'collect.refund.created:pending',
          'collect.refund.completed:completed',
          'collect.refund.created:pending',
          'collect.refund.completed:completed',
          'collect.payment.refunded:refunded',
        ]);
      });

      it('lists every payment’s refunds newest first, by status and date, only the key’s merchant and environment, across pages', async () => {
        const own = await t.newMerchant();
        const ownApi = collectClient(t.app, own.testKey);
        const first = await ownApi.createOk(direct({ amount: 3000 }));
        const second = await ownApi.createOk(direct({ amount: 5000 }));
        for (const [payment, amount] of [
          [first, 1000],
          [second, 2000],
          [first, 500],
        ] as const) {
          assert.equal((await ownApi.post(payment.reference, 'refunds', { amount })).statusCode, 201);
        }
        // Another merchant's refund, and a live one of this merchant, never show.
        const other = await api.createOk(direct({ amount: 3000 }));
        await api.post(other.reference, 'refunds', { amount: 100 });
        const list = (path: string, key = own.testKey) => t.app.inject({ method: 'GET', url: `/api/v1/collect/refunds${path}`, headers: { authorization: `Bearer ${key}` } });
        const all = await list('');
        assert.equal(all.statusCode, 200, all.body);
        assert.deepEqual(
          all.json().data.map((r: { amount: number; payment_reference: string }) => [r.payment_reference, r.amount]),
          [
            [first.reference, 500],
            [second.reference, 2000],
            [first.reference, 1000],
          ],
        );
        const page1 = (await list('?limit=2')).json();
        assert.equal(page1.has_more, true);
        const page2 = (await list(`?limit=2&starting_after=${page1.next_cursor}`)).json();
        assert.deepEqual(
          page2.data.map((r: { amount: number }) => r.amount),
          [1000],
        );
        assert.equal((await list('?status=failed')).json().data.length, 0);
        assert.equal((await list('?status=completed')).json().data.length, 3);
        assert.equal((await list(`?created_gte=${encodeURIComponent(new Date(clock.now().getTime() + 60_000).toISOString())}`)).json().data.length, 0);
        assert.equal((await list('', own.liveKey)).json().data.length, 0, 'test refunds are not in live');
        assert.equal((await list('?status=unknown')).statusCode, 400);
      });

      it('refuses a refund larger than what is left', async () => {
        const payment = await api.createOk(direct({ amount: 3000 }));
        await api.post(payment.reference, 'refunds', { amount: 1000 });
        const over = await api.post(payment.reference, 'refunds', { amount: 2001 });
        assert.equal(over.statusCode, 409);
        assert.equal(over.json().error.code, 'refund_exceeds_amount');
        assert.equal((await api.get(payment.reference)).json().refunded_amount, 1000);
      });

      it("answers a bad refund body with one clear message naming the field, without the union's noise, and refunds nothing", async () => {
        const payment = await api.createOk(direct({ amount: 3000 }));
        const cases: Array<[body: unknown, field: string, message: RegExp]> = [
          // A refund's amount is in major units, and the message says so.
          [{ amount: 'x' }, 'amount', /^amount must be integer \(amount is in major units \(FCFA\)/],
          [{ amount: 0 }, 'amount', /^amount must be >= 1 \(amount is in major units \(FCFA\)/],
          [{ amount: -5 }, 'amount', /^amount must be >= 1 \(amount is in major units \(FCFA\)/],
          [{ amount: 10.5 }, 'amount', /^amount must be integer \(amount is in major units \(FCFA\)/],
          [{ amount: 100, note: 'x' }, 'note', /^note is not a known field$/],
          [{ reason: 7 }, 'reason', /^reason must be string$/],
          [[1, 2], 'body', /^body must be object$/],
        ];
        for (const [body, field, message] of cases) {
          const res = await t.app.inject({
            method: 'POST',
            url: `/api/v1/collect/payments/${payment.reference}/refunds`,
            headers: { authorization: `Bearer ${merchant.testKey}`, 'idempotency-key': `bad-${Math.random()}`, 'content-type': 'application/json' },
            payload: JSON.stringify(body),
          });
          assert.equal(res.statusCode, 400, `${JSON.stringify(body)}: ${res.body}`);
          const { error } = res.json();
          assert.equal(error.code, 'validation_error');
          assert.equal(error.field, field, JSON.stringify(body));
          assert.match(error.message, message, JSON.stringify(body));
          assert.ok(!JSON.stringify(error).match(/must be null|anyOf/), `noise in ${res.body}`);
        }
        assert.deepEqual((await api.listRefunds(payment.reference)).json().data, []);
      });

      it('refuses refunds of a payment that is not completed, and of one fully refunded', async () => {
        const failed = await api.createOk(direct({ customer: { phone: '0197000001' } }));
        const res = await api.post(failed.reference, 'refunds', {});
        assert.equal(res.statusCode, 409);
        assert.equal(res.json().error.code, 'payment_not_refundable');
        const done = await api.createOk(direct());
        await api.post(done.reference, 'refunds', {});
        assert.equal((await api.post(done.reference, 'refunds', { amount: 100 })).json().error.code, 'payment_not_refundable');
      });

      it('gives back the reserved amount when the operator refuses the refund', async () => {
        const payment = await api.createOk(direct({ amount: 3000 }));
        const refused = await api.post(payment.reference, 'refunds', { amount: 1000, reason: 'FAIL please' });
        assert.equal(refused.statusCode, 201);
        assert.equal(refused.json().status, 'failed');
        assert.equal((await api.get(payment.reference)).json().refunded_amount, 0);
        assert.ok((await events(payment.id)).includes('collect.refund.failed:failed'));
      });

      it('requires an Idempotency-Key: a key-less refund is 400 and refunds nothing; identical retries with one key refund once', async () => {
        const payment = await api.createOk(direct({ amount: 3000 }));
        for (let i = 0; i < 2; i++) {
          const keyless = await api.post(payment.reference, 'refunds', { amount: 1000 }, null);
          assert.equal(keyless.statusCode, 400, keyless.body);
          assert.equal(keyless.json().error.code, 'missing_idempotency_key');
        }
        const countRefunds = async () => (await t.services.database.db.selectFrom('refunds').select('id').where('payment_id', '=', payment.id).execute()).length;
        assert.equal(await countRefunds(), 0);
        const answers = await Promise.all(Array.from({ length: 4 }, () => api.post(payment.reference, 'refunds', { amount: 1000 }, 'refund-once')));
        for (const answer of answers) assert.ok([201, 409].includes(answer.statusCode), `${answer.statusCode} ${answer.body}`);
        const replay = await api.post(payment.reference, 'refunds', { amount: 1000 }, 'refund-once');
        assert.equal(replay.statusCode, 201);
        assert.equal(await countRefunds(), 1);
        assert.equal((await api.get(payment.reference)).json().refunded_amount, 1000);
      });

      it('takes a full refund and a cancel with no body, an empty body or whitespace, with or without a JSON content type', async () => {
        const send = (reference: string, action: 'refunds' | 'cancel', contentType: string | undefined, payload: string | undefined) =>
          t.app.inject({
            method: 'POST',
            url: `/api/v1/collect/payments/${reference}/${action}`,
            headers: { authorization: `Bearer ${merchant.testKey}`, 'idempotency-key': `${action}-${reference}`, ...(contentType ? { 'content-type': contentType } : {}) },
            ...(payload === undefined ? {} : { payload }),
          });
        for (const [contentType, payload] of [
          [undefined, undefined],
          ['application/json', ''],
          ['application/json; charset=utf-8', '  \n'],
        ] as const) {
          const paid = await api.createOk(direct({ amount: 3000 }));
          const refund = await send(paid.reference, 'refunds', contentType, payload);
          assert.equal(refund.statusCode, 201, `${contentType} ${JSON.stringify(payload)}: ${refund.body}`);
          assert.equal(refund.json().amount, 3000, 'everything left');
          const hosted = await api.createOk(direct({ mode: 'hosted', operator: undefined, customer: undefined }));
          const cancel = await send(hosted.reference, 'cancel', contentType, payload);
          assert.equal(cancel.statusCode, 200, `${contentType} ${JSON.stringify(payload)}: ${cancel.body}`);
          assert.equal(cancel.json().status, 'cancelled');
        }
        // A route that needs a body still says so, in the usual shape.
        const empty = await t.app.inject({
          method: 'POST',
          url: '/api/v1/collect/payments',
          headers: { authorization: `Bearer ${merchant.testKey}`, 'idempotency-key': 'empty-create', 'content-type': 'application/json' },
          payload: '',
        });
        assert.equal(empty.statusCode, 400, empty.body);
        assert.equal(empty.json().error.code, 'validation_error');
        // Malformed JSON is still invalid_json.
        const broken = await send((await api.createOk(direct())).reference, 'refunds', 'application/json', '{"amount": ');
        assert.equal(broken.json().error.code, 'invalid_json');
      });

      it('never refunds more than the amount when refunds race', async () => {
        const payment = await api.createOk(direct({ amount: 3000 }));
        const answers = await Promise.all(Array.from({ length: 6 }, () => api.post(payment.reference, 'refunds', { amount: 1000 })));
        const accepted = answers.filter((r) => r.statusCode === 201);
        assert.equal(accepted.length, 3, answers.map((r) => r.statusCode).join(','));
        for (const refused of answers.filter((r) => r.statusCode !== 201)) {
          assert.ok(['refund_exceeds_amount', 'payment_not_refundable', 'invalid_state_transition'].includes(refused.json().error.code), refused.body);
        }
        const row = await t.services.database.db.selectFrom('payments').select(['refunded_minor', 'status']).where('id', '=', payment.id).executeTakeFirstOrThrow();
        assert.equal(Number(row.refunded_minor), 300_000);
        assert.equal(row.status, 'refunded');
        const refunds = await t.services.database.db.selectFrom('refunds').select('amount_minor').where('payment_id', '=', payment.id).where('status', '=', 'completed').execute();
        assert.equal(
          refunds.reduce((sum, r) => sum + Number(r.amount_minor), 0),
          300_000,
        );
      });

      it('answers racing refunds of everything left with one refund and 409 for the others, never a 500', async () => {
        const payment = await api.createOk(direct({ amount: 3000 }));
        const answers = await Promise.all([
          ...Array.from({ length: 5 }, () => api.post(payment.reference, 'refunds', {})),
          ...Array.from({ length: 3 }, () => api.post(payment.reference, 'refunds', { amount: 100 })),
        ]);
        for (const answer of answers) assert.ok(answer.statusCode === 201 || answer.statusCode === 409, `${answer.statusCode} ${answer.body}`);
        for (const refused of answers.filter((r) => r.statusCode === 409)) {
          assert.ok(['refund_exceeds_amount', 'payment_not_refundable'].includes(refused.json().error.code), refused.body);
        }
        const row = await t.services.database.db.selectFrom('payments').select(['refunded_minor', 'status']).where('id', '=', payment.id).executeTakeFirstOrThrow();
        assert.equal(Number(row.refunded_minor), 300_000);
        assert.equal(row.status, 'refunded');
        const refunds = await t.services.database.db.selectFrom('refunds').select('amount_minor').where('payment_id', '=', payment.id).execute();
        assert.equal(
          refunds.reduce((sum, r) => sum + Number(r.amount_minor), 0),
          300_000,
        );
        assert.equal(refunds.length, answers.filter((r) => r.statusCode === 201).length);
      });

      it('needs the collect:refund scope', async () => {
        const writer = await t.newMerchant({ scopes: ['collect:write', 'collect:read'] });
        const writerApi = collectClient(t.app, writer.testKey);
        const payment = await writerApi.createOk(direct());
        const res = await writerApi.post(payment.reference, 'refunds', {});
        assert.equal(res.statusCode, 403);
        assert.equal(res.json().error.code, 'insufficient_scope');
      });
    });

    describe('expiry', () => {
      it('expires a non-final payment once its lifetime has passed, with one expired event', async () => {
        const waiting = await api.createOk(direct({ reference: `EXP-PENDING-${newId()}`, expires_in_seconds: 60 }));
        const checkout = await api.createOk(hosted({ expires_in_seconds: 120 }));
        const done = await api.createOk(direct({ expires_in_seconds: 60 }));
        clock.advance(59_000);
        await t.services.payments.expireDue();
        assert.equal((await api.get(waiting.reference)).json().status, 'pending');
        clock.advance(2_000);
        await t.services.payments.expireDue();
        assert.equal((await api.get(waiting.reference)).json().status, 'expired');
        assert.equal((await api.get(checkout.reference)).json().status, 'awaiting_payment');
        assert.equal((await api.get(done.reference)).json().status, 'completed');
        clock.advance(60_000);
        await t.services.payments.expireDue();
        assert.equal((await api.get(checkout.reference)).json().status, 'expired');
        assert.deepEqual(await events(waiting.id), ['collect.payment.created:pending', 'collect.payment.expired:expired']);
        assert.equal(await t.services.payments.expireDue(), 0);
      });

      it('takes no code and no payment once past its expiry, before the worker records it', async () => {
        const otpPayment = () => api.createOk(direct({ country: 'CI', operator: 'orange_ci', customer: { phone: '0700000000' }, expires_in_seconds: 60 }));
        const inTime = await otpPayment();
        const late = await otpPayment();
        const checkout = await api.createOk(hosted({ expires_in_seconds: 60 }));
        clock.advance(59_000);
        assert.equal((await api.post(inTime.reference, 'confirm', { otp: '123456' })).json().status, 'completed');
        clock.advance(1_000);

        const code = await api.post(late.reference, 'confirm', { otp: '123456' });
        assert.equal(code.statusCode, 409, code.body);
        assert.equal(code.json().error.code, 'payment_not_confirmable');
        assert.match(code.json().error.message, /expired/);
        const paid = await api.post(checkout.reference, 'pay', { phone: '0500000000', operator: 'mtn_ci' });
        assert.equal(paid.statusCode, 409, paid.body);
        assert.equal(paid.json().error.code, 'payment_not_payable');
        assert.match(paid.json().error.message, /expired/);
        assert.equal(sandbox.ledger.confirmationsFor(late.id), 0);
        assert.equal(sandbox.ledger.pushesFor(checkout.id), 0);
        // Refused, not written: the expiry worker records the expiry, with its one event.
        assert.equal((await api.get(late.reference)).json().status, 'awaiting_otp');
        assert.ok((await t.services.payments.expireDue()) >= 2);
        assert.deepEqual(await events(late.id), ['collect.payment.created:pending', 'collect.payment.awaiting_otp:awaiting_otp', 'collect.payment.expired:expired']);
        assert.deepEqual(await events(checkout.id), ['collect.payment.created:awaiting_payment', 'collect.payment.expired:expired']);
      });

      it('expires each payment exactly once when several workers run at the same time', async () => {
        const due = await Promise.all(Array.from({ length: 12 }, () => api.createOk(direct({ reference: `RACE-PENDING-${newId()}`, expires_in_seconds: 60 }))));
        clock.advance(61_000);
        // PostgreSQL: a second set of services on its own pool, as a separate worker process has.
        // SQLite is one writer per file; in one process a second connection would block the event
        // loop its own lock holder needs, so the race runs over the one connection there.
        const separatePool = t.services.database.capabilities.concurrentWriters;
        const other = separatePool ? openDatabase(t.db.target, { postgresSchema: new URL(t.db.url).searchParams.get('options')!.split('=')[1] }) : t.services.database;
        try {
          const otherServices = createServices({ database: other, catalog: loadDefaultCatalog(), clock });
          const counts = await Promise.all([
            t.services.payments.expireDue(5),
            otherServices.payments.expireDue(5),
            t.services.payments.expireDue(5),
            otherServices.payments.expireDue(5),
          ]);
          const rest = (await t.services.payments.expireDue(100)) + (await otherServices.payments.expireDue(100));
          assert.equal(counts.reduce((a, b) => a + b, 0) + rest, 12);
        } finally {
          if (separatePool) await other.close();
        }
        for (const payment of due) {
          const kinds = await events(payment.id);
          assert.equal(kinds.filter((k) => k.startsWith('collect.payment.expired')).length, 1, payment.reference);
        }
      });

      it('lets the worker pool job expire payments', async () => {
        const { paymentExpiryJob } = await import('../../src/workers/payment-expiry-job.js');
        const payment = await api.createOk(direct({ reference: `JOB-PENDING-${newId()}`, expires_in_seconds: 60 }));
        clock.advance(61_000);
        const job = paymentExpiryJob(t.services.payments);
        assert.ok((await job.runOnce()) >= 1);
        assert.equal((await api.get(payment.reference)).json().status, 'expired');
      });
    });

    describe('sync', () => {
      it('asks the operator only for a non-final payment, and only when sync=true', async () => {
        const pending = await api.createOk(direct({ reference: `SYNC-PENDING-${newId()}` }));
        const completed = await api.createOk(direct());
        sandbox.queries = 0;
        await api.get(pending.reference);
        await api.get(pending.reference, '?sync=false');
        assert.equal(sandbox.queries, 0);
        const synced = await api.get(pending.reference, '?sync=true');
        assert.equal(synced.statusCode, 200);
        assert.equal(synced.json().status, 'pending');
        assert.equal(sandbox.queries, 1);
        await api.get(completed.reference, '?sync=true');
        assert.equal(sandbox.queries, 1);
      });

      it('refuses a sync value that is not a boolean', async () => {
        for (const value of ['maybe', '2', 'yes', '']) {
          const res = await api.get('ANY', `?sync=${value}`);
          assert.equal(res.statusCode, 400, `sync=${value}: ${res.body}`);
          assert.equal(res.json().error.field, 'sync');
        }
      });

      it('reads sync=1 as true and sync=0 as false', async () => {
        const pending = await api.createOk(direct({ reference: `SYNC-PENDING-${newId()}` }));
        sandbox.queries = 0;
        assert.equal((await api.get(pending.reference, '?sync=0')).statusCode, 200);
        assert.equal(sandbox.queries, 0);
        assert.equal((await api.get(pending.reference, '?sync=1')).statusCode, 200);
        assert.equal(sandbox.queries, 1);
      });

      it('refuses an unknown query parameter on a payment read, naming it', async () => {
        const payment = await api.createOk(direct());
        const res = await api.get(payment.reference, '?snyc=true');
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().error.code, 'validation_error');
        assert.equal(res.json().error.field, 'snyc');
      });
    });
  });
}
