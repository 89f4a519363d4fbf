/**
 * The export pages walk the lists' indexes in their own order: no full scan, no sort, whatever
 * the period and status, on the first page and on a later one. The plans are those of the very
 * queries the export runs (storage/repositories/export-queries.ts), on seeded tables.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Compilable, type Kysely } from 'kysely';
import type { ExportPageRequest } from '../../src/core/exports/export-store.js';
import type { TenantScope } from '../../src/core/shared/environment.js';
import type { Database } from '../../src/storage/schema.js';
import { balanceTransactionExportQuery, paymentExportQuery, payoutExportQuery } from '../../src/storage/repositories/export-queries.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';
import { assertPlanUsesIndex, queryPlan, seedSequence, syntheticId } from '../support/query-plans.js';

const ROWS = 200_000;

/** Row n was created n minutes after 2026-01-01 (so about 139 days of rows). */
function createdAt(n: number): string {
  return new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString();
}

const firstPage: ExportPageRequest = { limit: 1000 };
const laterPage: ExportPageRequest = { limit: 1000, after: syntheticId(ROWS / 2) };
/** About a month in the middle of the table. */
const period = { from: createdAt(ROWS / 4), to: createdAt(ROWS / 4 + 43_200) };

for (const target of testDatabases()) {
  describe(`export query plans at ${ROWS.toLocaleString('en')} rows on ${target.name}`, { skip: target.skip }, () => {
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

    // PostgreSQL may walk the primary key (id) instead when the merchant holds most rows: the same order, no sort.
    const assertWalksIndex = (text: string, index: RegExp, what: string) => assertPlanUsesIndex(text, postgres, what, { index });

    const pages = { 'first page': firstPage, 'later page': laterPage };
    const filters = { everything: {}, period, 'from only': { from: period.from }, 'to only': { to: period.to } };

    it('payments: by period, with and without status; the collection fee through ledger_transactions_source', async () => {
      for (const [pageName, page] of Object.entries(pages)) {
        for (const [filterName, filter] of Object.entries(filters)) {
          const what = `payments, ${filterName}, ${pageName}`;
          const text = await plan(paymentExportQuery(db, scope, filter, page));
          assertWalksIndex(text, /payments_(scope_id|pkey)/, what);
          assert.match(text, /ledger_transactions_source/, `${what}: the fee is not looked up by source\n${text}`);
          assertWalksIndex(await plan(paymentExportQuery(db, scope, { ...filter, status: 'failed' }, page)), /payments_scope_status/, `${what}, by status`);
        }
      }
    });

    it('payouts and balance transactions: by period, with and without status', async () => {
      for (const [pageName, page] of Object.entries(pages)) {
        for (const [filterName, filter] of Object.entries(filters)) {
          const what = `${filterName}, ${pageName}`;
          assertWalksIndex(await plan(payoutExportQuery(db, scope, filter, page)), /payouts_(scope_id|pkey)/, `payouts, ${what}`);
          // A status with fewer rows than a page may rightly be read whole and sorted (a thousand rows at most): the common one must not be.
          assertWalksIndex(
            await plan(payoutExportQuery(db, scope, { ...filter, status: 'COMPLETED' }, page)),
            /payouts_(scope_status|scope_id|pkey)/,
            `payouts by status, ${what}`,
          );
          assertWalksIndex(await plan(balanceTransactionExportQuery(db, scope, filter, page)), /ledger_transactions_(scope|pkey)/, `balance transactions, ${what}`);
        }
      }
    });

    it('the seeded rows are there', async () => {
      const { count } = await db
        .selectFrom('payments')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(count), ROWS);
    });
  });
}

/** Payments (nine in ten for the first merchant), a fifth as many payouts and balance transactions, generated inside the database. */
async function seed(db: Kysely<Database>, postgres: boolean, merchantIds: string[]): Promise<void> {
  const [mine, other] = merchantIds.map((id) => sql.lit(id));
  const { numbers, id } = seedSequence(postgres, ROWS);
  const at = postgres
    ? sql`to_char(timestamp '2026-01-01' + n * interval '1 minute', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || n || ' minutes')`;
  const merchant = sql`case when n % 10 = 0 then ${other} else ${mine} end`;
  await sql`
    insert into payments (id, merchant_id, environment, reference, status, amount_minor, currency, country, mode, operator,
      otp_attempts, refunded_minor, expires_at, created_at, updated_at, version, metadata)
    select ${id}, ${merchant}, 'test', 'REF-' || n, case when n % 100 = 0 then 'failed' when n % 7 = 0 then 'pending' else 'completed' end,
      300000, 'XOF', 'BJ', 'direct', 'mtn_bj', 0, 0, ${at}, ${at}, ${at}, 1, '{}'
    from (${numbers}) as numbers`.execute(db);
  await sql`
    insert into payouts (id, merchant_id, environment, reference, status, amount_minor, fee_minor, currency, country, operator, phone,
      metadata, handed_off, created_at, updated_at, version)
    select ${id}, ${merchant}, 'test', 'PO-' || n, case when n % 100 = 0 then 'FAILED' else 'COMPLETED' end, 500000, 10000, 'XOF', 'BJ', 'mtn_bj', '+2290197000000',
      '{}', 1, ${at}, ${at}, 1
    from (${numbers}) as numbers where n % 5 = 0`.execute(db);
  // A collection for most payments (their fee), as the ledger writes one when a payment completes.
  await sql`
    insert into ledger_transactions (id, merchant_id, environment, currency, type, source_type, source_id, description, available_change_minor, reserved_change_minor, fee_minor, created_at)
    select 'c' || substr(${id}, 2), ${merchant}, 'test', 'XOF', 'collection', 'payment', ${id}, 'seeded', 295500, 0, 4500, ${at}
    from (${numbers}) as numbers where n % 5 <> 0`.execute(db);
  await sql`analyze`.execute(db);
}
