/**
 * Every list reads an index in its own order at a million rows: no full scan, no sort. The plans
 * are those of the very queries the repositories run, on tables seeded inside the database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Compilable, type Kysely } from 'kysely';
import type { TenantScope } from '../../src/core/shared/environment.js';
import type { PageRequest } from '../../src/core/shared/pagination.js';
import type { Database } from '../../src/storage/schema.js';
import { cursorLookup } from '../../src/storage/keyset-page.js';
import { eventListQuery, eventListRows } from '../../src/storage/repositories/event-repository.js';
import { unfannedEventsQuery } from '../../src/storage/repositories/webhook-repository.js';
import {
  checkoutQuery,
  dueForExpiryQuery,
  paymentListQuery,
  paymentListRows,
  refundListQuery,
  allRefundListQuery,
  refundListRows,
} from '../../src/storage/repositories/payment-repository.js';
import { payoutListQuery, payoutListRows } from '../../src/storage/repositories/payout-repository.js';
import { bulkBatchListQuery, bulkBatchListRows } from '../../src/storage/repositories/bulk-batch-repository.js';
import { balanceTransactionQuery, balanceTransactionRows } from '../../src/storage/repositories/ledger-repository.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';
import { assertPlanUsesIndex, queryPlan, seedSequence, syntheticId } from '../support/query-plans.js';

const ROWS = 1_000_000;
const firstPage: PageRequest = { limit: 20 };
/** A cursor in the middle of the table. */
const laterPage: PageRequest = { limit: 20, startingAfter: syntheticId(ROWS / 2) };

for (const target of testDatabases()) {
  describe(`list query plans at ${ROWS.toLocaleString('en')} rows on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let db: Kysely<Database>;
    let scope: TenantScope;
    const postgres = target.name === 'postgres';

    before(async () => {
      t = await buildTestApp(target);
      db = t.services.database.db;
      const merchants = [await t.newMerchant(), await t.newMerchant()];
      scope = { merchantId: merchants[0]!.merchantId, environment: 'test' };
      await seed(
        db,
        postgres,
        merchants.map((m) => m.merchantId),
      );
    });
    after(() => t.close());

    const plan = (query: Compilable) => queryPlan(db, postgres, query);

    const assertIndexed = (text: string, index: string | undefined, what: string, { unique = false } = {}) =>
      assertPlanUsesIndex(text, postgres, what, { ...(index ? { index: new RegExp(index) } : {}), unique });

    it('payments: the plain list, a later page, each filter', async () => {
      assertIndexed(await plan(paymentListQuery(db, scope, {}, firstPage)), undefined, 'first page');
      assertIndexed(await plan(paymentListQuery(db, scope, {}, laterPage)), undefined, 'later page');
      assertIndexed(await plan(paymentListQuery(db, scope, {}, { limit: 20, endingBefore: syntheticId(ROWS / 2) })), undefined, 'ending_before');
      assertIndexed(await plan(paymentListQuery(db, scope, { status: 'failed' }, firstPage)), undefined, 'status');
      assertIndexed(await plan(paymentListQuery(db, scope, { reference: 'REF-777' }, firstPage)), 'payments_reference', 'reference', { unique: true });
      assertIndexed(await plan(paymentListQuery(db, scope, { metadata: { key: 'order', value: 'O-4242' } }, firstPage)), 'metadata_entries_search', 'metadata');
      assertIndexed(await plan(paymentListQuery(db, scope, { mode: 'hosted', operators: ['mtn_bj'] }, laterPage)), undefined, 'mode and operator');
      // The index holds payments made through a link only (migration 0040); a link's list still reads it.
      assertIndexed(await plan(paymentListQuery(db, scope, { paymentLinkId: 'a-payment-link' }, firstPage)), 'payments_payment_link', 'payment link');
      // The index holds hosted payments' tokens only (migration 0014); a lookup by token still reads it.
      assertIndexed(await plan(checkoutQuery(db, 'a-checkout-token')), 'payments_checkout_token', 'checkout token', { unique: true });
    });

    it('events: the plain list, by reference, by type family', async () => {
      assertIndexed(await plan(eventListQuery(db, scope, {}, firstPage)), undefined, 'events');
      assertIndexed(await plan(eventListQuery(db, scope, { reference: 'REF-777' }, firstPage)), 'events_scope_reference', 'events by reference');
      assertIndexed(await plan(eventListQuery(db, scope, { types: ['collect.payment.*'] }, laterPage)), undefined, 'events by type');
    });

    it('payouts, bulk batches and balance transactions (a fifth as many rows each)', async () => {
      assertIndexed(await plan(payoutListQuery(db, scope, {}, laterPage)), undefined, 'payouts');
      assertIndexed(await plan(payoutListQuery(db, scope, { status: 'FAILED' }, firstPage)), undefined, 'payouts by status');
      assertIndexed(await plan(payoutListQuery(db, scope, { reference: 'PO-777' }, firstPage)), 'payouts_reference', 'payouts by reference', { unique: true });
      assertIndexed(await plan(bulkBatchListQuery(db, scope, {}, laterPage)), undefined, 'bulk batches');
      assertIndexed(await plan(bulkBatchListQuery(db, scope, { status: 'failed' }, firstPage)), undefined, 'bulk batches by status');
      assertIndexed(await plan(balanceTransactionQuery(db, scope, {}, laterPage)), undefined, 'balance transactions');
      assertIndexed(await plan(balanceTransactionQuery(db, scope, { type: 'payout' }, firstPage)), undefined, 'balance transactions by type');
    });

    it('an id cursor costs one lookup by id in its list (without the filters: an id is bound to the list only)', async () => {
      const cursor = syntheticId(ROWS / 2);
      // A signed cursor is not looked up; an id is looked up in the list as the repositories build it with no filters.
      const lookups: [string, () => Compilable][] = [
        ['payments', () => cursorLookup(paymentListRows(db, scope, {}), cursor)],
        ['refunds', () => cursorLookup(refundListRows(db, scope, syntheticId(42)), cursor)],
        ['events', () => cursorLookup(eventListRows(db, scope, {}), cursor)],
        ['payouts', () => cursorLookup(payoutListRows(db, scope, {}), cursor)],
        ['bulk batches', () => cursorLookup(bulkBatchListRows(db, scope, {}), cursor)],
        ['balance transactions', () => cursorLookup(balanceTransactionRows(db, scope, {}), cursor)],
      ];
      // The id is a condition of the index search itself, not a filter applied while walking the list.
      const searchesById = postgres ? /"Index Cond":"[^"]*\bid = / : /^SEARCH .*\bid=\?/m;
      for (const [what, lookup] of lookups) {
        const text = await plan(lookup());
        assertIndexed(text, undefined, `${what}: cursor lookup`, { unique: true });
        assert.match(text, searchesById, `${what}: the cursor lookup does not search by id\n${text}`);
      }
    });

    it("the workers' lookups read their indexes: payments that can still expire (partial), events not yet fanned out (the queue's key)", async () => {
      assertIndexed(await plan(dueForExpiryQuery(db, '2026-06-01T00:00:00.000Z', 100)), 'payments_expiring', 'expiry worker');
      assertIndexed(await plan(unfannedEventsQuery(db, 100)), 'event_fanout_queue', 'fan-out worker');
    });

    it('payments and payouts of one phone number read their phone index', async () => {
      assertIndexed(await plan(paymentListQuery(db, scope, { phone: '+2290197000042' }, firstPage)), 'payments_scope_phone', 'payments by phone');
      assertIndexed(await plan(payoutListQuery(db, scope, { phone: '+2290197000042' }, firstPage)), 'payouts_scope_phone', 'payouts by phone');
    });

    it('refunds of one payment', async () => {
      assertIndexed(await plan(refundListQuery(db, scope, syntheticId(42), firstPage)), 'refunds_payment', 'refunds');
    });

    it('refunds of every payment (the merchant-wide list), and by status', async () => {
      // Every seeded refund is this merchant's, so PostgreSQL may as well walk the primary key
      // backwards (no scan, no sort either way); SQLite takes the scope index.
      const index = postgres ? undefined : 'refunds_scope_id';
      assertIndexed(await plan(allRefundListQuery(db, scope, {}, firstPage)), index, 'all refunds');
      assertIndexed(await plan(allRefundListQuery(db, scope, { status: 'completed' }, firstPage)), index, 'all refunds by status');
    });

    it('the seeded rows are there (the plans are about a million rows, not an empty table)', async () => {
      const { count } = await db
        .selectFrom('payments')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(count), ROWS);
    });
  });
}

/**
 * A million payments (nine in ten for the first merchant), one metadata entry in ten, a million
 * events, some refunds, and 200 000 each of payouts, bulk batches and balance transactions,
 * generated inside the database so seeding takes seconds.
 */
async function seed(db: Kysely<Database>, postgres: boolean, merchantIds: string[]): Promise<void> {
  const [mine, other] = merchantIds.map((id) => sql.lit(id));
  const { numbers, id } = seedSequence(postgres, ROWS);
  const merchant = sql`case when n % 10 = 0 then ${other} else ${mine} end`;
  const status = sql`case when n % 100 = 0 then 'failed' when n % 7 = 0 then 'pending' else 'completed' end`;
  const mode = sql`case when n % 5 = 0 then 'hosted' else 'direct' end`;
  const at = sql.lit('2026-01-01T00:00:00.000Z');
  await sql`
    insert into payments (id, merchant_id, environment, reference, status, amount_minor, currency, country, mode, operator,
      otp_attempts, refunded_minor, expires_at, created_at, updated_at, version, metadata)
    select ${id}, ${merchant}, 'test', 'REF-' || n, ${status}, 300000, 'XOF', 'BJ', ${mode}, 'mtn_bj', 0, 0, ${at}, ${at}, ${at}, 1, '{}'
    from (${numbers}) as numbers`.execute(db);
  await sql`
    insert into metadata_entries (object_type, object_id, merchant_id, environment, key, value)
    select 'payment', ${id}, ${merchant}, 'test', 'order', 'O-' || n from (${numbers}) as numbers where n % 10 = 1`.execute(db);
  await sql`
    insert into events (id, merchant_id, environment, type, payload, created_at, subject_reference)
    select ${id}, ${merchant}, 'test', 'collect.payment.completed', '{}', ${at}, 'REF-' || (n / 3) from (${numbers}) as numbers`.execute(db);
  // A fan-out backlog: the newest events, 1 % of them, wait in the queue.
  await sql`insert into event_fanout_queue (event_id) select id from events order by id desc limit ${sql.lit(ROWS / 100)}`.execute(db);
  await sql`
    insert into refunds (id, payment_id, merchant_id, environment, amount_minor, currency, status, created_at, updated_at)
    select ${id}, ${id}, ${merchant}, 'test', 100, 'XOF', 'completed', ${at}, ${at} from (${numbers}) as numbers where n % 10 = 2`.execute(db);
  // The newer lists, on a fifth as many rows: enough for the planner to prefer an index, cheaper to seed.
  await sql`
    insert into payouts (id, merchant_id, environment, reference, status, amount_minor, fee_minor, currency, country, operator, phone,
      metadata, handed_off, created_at, updated_at, version)
    select ${id}, ${merchant}, 'test', 'PO-' || n, case when n % 100 = 0 then 'FAILED' else 'COMPLETED' end, 500000, 10000, 'XOF', 'BJ', 'mtn_bj', '+2290197000000',
      '{}', 1, ${at}, ${at}, 1
    from (${numbers}) as numbers where n % 5 = 0`.execute(db);
  await sql`
    insert into bulk_batches (id, merchant_id, environment, name, status, source, currency, item_count, total_amount_minor, total_fee_minor, metadata, created_at, updated_at, version)
    select ${id}, ${merchant}, 'test', 'Batch ' || n, case when n % 100 = 0 then 'failed' else 'completed' end, 'api', 'XOF', 1, 500000, 10000, '{}', ${at}, ${at}, 1
    from (${numbers}) as numbers where n % 5 = 0`.execute(db);
  await sql`
    insert into ledger_transactions (id, merchant_id, environment, currency, type, source_type, source_id, description, available_change_minor, reserved_change_minor, fee_minor, created_at)
    select ${id}, ${merchant}, 'test', 'XOF', case when n % 100 = 0 then 'payout' else 'collection' end, 'payment', ${id}, 'seeded', 100, 0, 0, ${at}
    from (${numbers}) as numbers where n % 5 = 0`.execute(db);
  await sql`analyze`.execute(db);
}
