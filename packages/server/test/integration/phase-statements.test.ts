/**
 * The writes of a recorded phase, on every database: on PostgreSQL a phase is one statement, and
 * concurrent outcomes posting to the same ledger accounts share one (postgres/one-statement.ts,
 * PaymentRepository.saveInOneStatement). Whatever the grouping, each change stands or falls alone:
 * a change whose payment moved on or whose claim is held by another request writes nothing (no
 * payment update, no event, no posting), and the others still commit with their postings.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { EventFactory } from '../../src/core/events/event-factory.js';
import { IdempotencyClaimLost } from '../../src/core/idempotency/request-journal.js';
import { feeFor } from '../../src/core/ledger/ledger.js';
import { postingRules } from '../../src/core/ledger/posting-rules.js';
import type { Payment } from '../../src/core/payments/payment.js';
import type { PaymentChange } from '../../src/core/payments/payment-store.js';
import { systemClock } from '../../src/core/shared/clock.js';
import { newId } from '../../src/core/shared/ids.js';
import { collectClient, direct, hosted } from '../support/collect-client.js';
import { assertBooksBalance } from '../support/ledger-invariants.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const catalog = loadDefaultCatalog();
// 3 000 FCFA in centimes, and MTN Benin's fee on it.
const amountMinor = 300_000;
const fee = feeFor(catalog.findOperator('BJ', 'mtn_bj')!.collect.fee, amountMinor);
const events = new EventFactory(systemClock, newId);

for (const target of testDatabases()) {
  describe(`recorded phase writes on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await buildTestApp(target, { env: { SANDBOX_FLOAT: '0' } });
    });
    after(() => t.close());
    afterEach(() => assertBooksBalance(t.services.database.db));

    const balance = async (merchantId: string) => {
      const row = await t.services.database.db
        .selectFrom('ledger_accounts')
        .select('balance_minor')
        .where('merchant_id', '=', merchantId)
        .where('environment', '=', 'test')
        .where('currency', '=', 'XOF')
        .where('kind', '=', 'available')
        .executeTakeFirst();
      return Number(row?.balance_minor ?? 0);
    };
    const postingsOf = async (paymentId: string) =>
      (await t.services.database.db.selectFrom('ledger_transactions').select('id').where('source_id', '=', paymentId).execute()).length;

    it('completes 60 concurrent creations of one merchant, each with its events and one posting', async () => {
      const { merchantId, testKey } = await t.newMerchant();
      const api = collectClient(t.app, testKey);
      const created = await Promise.all(Array.from({ length: 60 }, () => api.createOk(direct({ amount: 3000 }))));
      for (const payment of created) assert.equal(payment.status, 'completed');
      assert.equal(await balance(merchantId), 60 * (amountMinor - fee));
      const ids = created.map((payment) => payment.id as string);
      const counts = await t.services.database.db
        .selectFrom('ledger_transactions')
        .select(['source_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('source_id', 'in', ids)
        .groupBy('source_id')
        .execute();
      assert.equal(counts.length, 60);
      for (const row of counts) assert.equal(Number(row.n), 1);
      const eventRows = await t.services.database.db.selectFrom('events').select('id').where('merchant_id', '=', merchantId).execute();
      assert.equal(eventRows.length, 60 * 3, 'created, processing and completed for each');
    });

    /** A new merchant's `count` hosted payments in BJ, waiting for the customer: no posting yet. */
    const waitingPayments = async (count: number) => {
      const { merchantId, testKey } = await t.newMerchant();
      const api = collectClient(t.app, testKey);
      const scope = { merchantId, environment: 'test' as const };
      const payments: Payment[] = [];
      for (let i = 0; i < count; i++) {
        const wire = await api.createOk(hosted({ country: 'BJ', amount: 3000 }));
        payments.push((await t.services.paymentStore.find(scope, wire.id))!);
      }
      return { merchantId, scope, payments };
    };

    it('saves concurrent outcomes independently: a stale version or a lost claim writes nothing, the others commit', async () => {
      const { merchantId, scope, payments } = await waitingPayments(24);
      // The accounts open on the first posting (a transaction on every database).
      const first = payments.shift()!;
      const complete = (payment: Payment, expectedVersion = payment.version, claimed = false): PaymentChange => {
        const next: Payment = { ...payment, status: 'completed', operator: 'mtn_bj', version: payment.version + 1, updatedAt: new Date().toISOString() };
        const change: PaymentChange = {
          payment: { next, expectedVersion },
          events: [events.paymentEntered('completed', next)],
          ledger: [postingRules.collection(next, fee)],
        };
        if (claimed) {
          // A claim write whose lease token nobody holds: another request has the key.
          const now = new Date().toISOString();
          change.claim = {
            claim: { merchantId, environment: 'test', method: 'POST', route: '/probe', key: newId(), requestHash: 'x', now, expiresAt: now, leaseToken: newId(), lockedUntil: now },
            insert: false,
            recoveryPoint: 'finished',
            resourceId: payment.id,
            response: { status: 200, body: '{}' },
          };
        }
        return change;
      };
      assert.equal(await t.services.paymentStore.save(complete(first)), true);

      const kinds = payments.map((_, i) => (i % 3 === 0 ? 'stale' : i % 3 === 1 ? 'claim_lost' : 'ok'));
      const results = await Promise.allSettled(
        payments.map((payment, i) => t.services.paymentStore.save(complete(payment, kinds[i] === 'stale' ? payment.version + 7 : payment.version, kinds[i] === 'claim_lost'))),
      );
      let ok = 1;
      for (const [i, result] of results.entries()) {
        const payment = payments[i]!;
        const stored = (await t.services.paymentStore.find(scope, payment.id))!;
        if (kinds[i] === 'ok') {
          assert.deepEqual(result, { status: 'fulfilled', value: true });
          assert.equal(stored.status, 'completed');
          assert.equal(await postingsOf(payment.id), 1);
          ok += 1;
        } else {
          if (kinds[i] === 'stale') assert.deepEqual(result, { status: 'fulfilled', value: false });
          else assert.ok(result.status === 'rejected' && result.reason instanceof IdempotencyClaimLost, `claim lost: ${JSON.stringify(result)}`);
          assert.equal(stored.status, 'awaiting_payment');
          assert.equal(stored.version, payment.version);
          assert.equal(await postingsOf(payment.id), 0);
        }
      }
      assert.equal(await balance(merchantId), ok * (amountMinor - fee));
      const completedEvents = await t.services.database.db
        .selectFrom('events')
        .select('id')
        .where('merchant_id', '=', merchantId)
        .where('type', '=', 'collect.payment.completed')
        .execute();
      assert.equal(completedEvents.length, ok);
    });

    it('a change whose payment moved on stores no claim either, alone or grouped, and two changes of one payment commit once', async () => {
      const { merchantId, scope, payments } = await waitingPayments(13);
      /** Completes `payment` from `expectedVersion`, under a new Idempotency-Key whose claim would be taken. */
      const complete = (payment: Payment, expectedVersion: number) => {
        const now = new Date();
        const key = newId();
        const next: Payment = { ...payment, status: 'completed', operator: 'mtn_bj', version: expectedVersion + 1, updatedAt: now.toISOString() };
        const change: PaymentChange = {
          payment: { next, expectedVersion },
          events: [events.paymentEntered('completed', next)],
          ledger: [postingRules.collection(next, fee)],
          claim: {
            claim: {
              merchantId,
              environment: 'test',
              method: 'POST',
              route: '/probe',
              key,
              requestHash: 'x',
              now: now.toISOString(),
              expiresAt: new Date(now.getTime() + 3_600_000).toISOString(),
              leaseToken: newId(),
              lockedUntil: now.toISOString(),
            },
            insert: true,
            recoveryPoint: 'finished',
            resourceId: payment.id,
            response: { status: 200, body: '{"status":"completed"}' },
          },
        };
        return { key, change };
      };
      const claimStored = async (key: string) =>
        (await t.services.database.db.selectFrom('idempotency_records').select('idempotency_key').where('idempotency_key', '=', key).execute()).length === 1;
      // The ledger accounts open on the first posting (a transaction on every database).
      const first = complete(payments.shift()!, 1);
      assert.equal(await t.services.paymentStore.save(first.change), true);

      // Alone: a chain of gates on PostgreSQL.
      const lone = payments.shift()!;
      const stale = complete(lone, lone.version + 3);
      assert.equal(await t.services.paymentStore.save(stale.change), false);
      assert.equal(await claimStored(stale.key), false, 'no stored answer for a change that did not happen');
      assert.equal((await t.services.paymentStore.find(scope, lone.id))!.status, 'awaiting_payment');

      // Grouped: eleven at once (arrays on PostgreSQL), a stale one in every other; and the last
      // payment twice from the same version, as two requests racing on it would.
      const twice = payments.pop()!;
      const grouped = [
        ...payments.map((payment, i) => ({ payment, wanted: i % 2 === 0, ...complete(payment, i % 2 === 0 ? payment.version : payment.version + 3) })),
        { payment: twice, wanted: true, ...complete(twice, twice.version) },
        { payment: twice, wanted: true, ...complete(twice, twice.version) },
      ];
      const saved = await Promise.all(grouped.map(({ change }) => t.services.paymentStore.save(change)));
      for (const [i, { payment, wanted, key }] of grouped.entries()) {
        if (payment === twice) continue;
        assert.equal(saved[i], wanted, `change ${i}`);
        assert.equal(await claimStored(key), wanted, `claim of change ${i}`);
        assert.equal(await postingsOf(payment.id), wanted ? 1 : 0);
      }
      const racing = grouped.map((entry, i) => ({ ...entry, saved: saved[i] })).filter((entry) => entry.payment === twice);
      assert.deepEqual(racing.map((entry) => entry.saved).sort(), [false, true], 'one of the two changes of one payment commits');
      for (const entry of racing) assert.equal(await claimStored(entry.key), entry.saved, 'and only its claim is stored');
      assert.equal(await postingsOf(twice.id), 1);
    });

    it('writes the claims of requests with no earlier phase with their outcomes: new keys are taken, a live one is not', async () => {
      const { merchantId, testKey } = await t.newMerchant();
      const api = collectClient(t.app, testKey);
      const scope = { merchantId, environment: 'test' as const };
      const payments: Payment[] = [];
      for (let i = 0; i < 9; i++) payments.push((await t.services.paymentStore.find(scope, (await api.createOk(hosted({ country: 'BJ', amount: 3000 }))).id))!);
      const keys = payments.map(() => newId());
      // The last arrives while the first of the others runs: it is written with the rest, in a batch.
      keys[8] = keys[0]!;
      const complete = (payment: Payment, key: string): PaymentChange => {
        const now = new Date().toISOString();
        const next: Payment = { ...payment, status: 'completed', operator: 'mtn_bj', version: payment.version + 1, updatedAt: now };
        return {
          payment: { next, expectedVersion: payment.version },
          events: [events.paymentEntered('completed', next)],
          ledger: [postingRules.collection(next, fee)],
          claim: {
            claim: {
              merchantId,
              environment: 'test',
              method: 'POST',
              route: '/probe',
              key,
              requestHash: 'x',
              now,
              expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
              leaseToken: newId(),
              lockedUntil: now,
            },
            insert: true,
            recoveryPoint: 'finished',
            resourceId: payment.id,
            response: { status: 200, body: '{}' },
          },
        };
      };
      // The first opens the accounts (a transaction); the others arrive together, and wait for each other.
      assert.equal(await t.services.paymentStore.save(complete(payments[0]!, keys[0]!)), true);
      const results = await Promise.allSettled(payments.slice(1).map((payment, i) => t.services.paymentStore.save(complete(payment, keys[i + 1]!))));
      assert.ok(results[7]!.status === 'rejected' && results[7]!.reason instanceof IdempotencyClaimLost, `a live key is not taken: ${JSON.stringify(results[7])}`);
      for (const result of results.slice(0, 7)) assert.deepEqual(result, { status: 'fulfilled', value: true });
      const records = await t.services.database.db.selectFrom('idempotency_records').select(['idempotency_key', 'resource_id']).where('idempotency_key', 'in', keys).execute();
      assert.equal(records.length, 8);
      for (const [i, payment] of payments.entries()) {
        const stored = (await t.services.paymentStore.find(scope, payment.id))!;
        assert.equal(stored.status, i === 8 ? 'awaiting_payment' : 'completed');
        assert.equal(await postingsOf(payment.id), i === 8 ? 0 : 1);
        if (i !== 8) assert.equal(records.find((record) => record.idempotency_key === keys[i])!.resource_id, payment.id);
      }
      assert.equal(await balance(merchantId), 8 * (amountMinor - fee));
    });
  });
}
