/**
 * The transfer lists and the per-day sum read through their indexes at 200 000 rows (both
 * parties' rows, a tenth for another merchant), on every database: no full scan, no sort.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Compilable, type Kysely } from 'kysely';
import type { TenantScope } from '../../src/core/shared/environment.js';
import type { PageRequest } from '../../src/core/shared/pagination.js';
import { cursorLookup } from '../../src/storage/keyset-page.js';
import { sentSinceQuery, transferListQuery, transferListRows } from '../../src/storage/repositories/transfer-repository.js';
import type { Database } from '../../src/storage/schema.js';
import { assertPlanUsesIndex, queryPlan, seedSequence, syntheticId } from '../support/query-plans.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const ROWS = 200_000;
const firstPage: PageRequest = { limit: 20 };
const laterPage: PageRequest = { limit: 20, startingAfter: syntheticId(ROWS / 2) };

for (const target of testDatabases()) {
  describe(`transfer query plans at ${ROWS.toLocaleString('en')} rows on ${target.name}`, { skip: target.skip }, () => {
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
      assertPlanUsesIndex(text, postgres, what, { ...(index ? { index: new RegExp(index) } : {}), unique, bitmap: true });

    it('lists both directions, one direction, by reference and by metadata through indexes', async () => {
      assertIndexed(await plan(transferListQuery(db, scope, {}, laterPage)), undefined, 'transfers');
      assertIndexed(await plan(transferListQuery(db, scope, { direction: 'received' }, firstPage)), undefined, 'transfers received');
      assertIndexed(await plan(transferListQuery(db, scope, { reference: 'TR-777' }, firstPage)), 'transfers_reference', 'transfers by reference', { unique: true });
      assertIndexed(await plan(transferListQuery(db, scope, { metadata: { key: 'order', value: 'O-11' } }, firstPage)), 'metadata_entries_search', 'transfers by metadata');
    });

    it('looks an id cursor up by id, and sums a sender’s day through its own index', async () => {
      const text = await plan(cursorLookup(transferListRows(db, scope, {}), syntheticId(ROWS / 2)));
      assertIndexed(text, undefined, 'cursor lookup', { unique: true });
      assert.match(text, postgres ? /"Index Cond":"[^"]*\bid = / : /^SEARCH .*\bid=\?/m, `the cursor lookup does not search by id\n${text}`);
      assertIndexed(await plan(sentSinceQuery(db, scope, 'XOF', '2026-01-01T00:00:00.000Z')), 'transfers_daily', 'the per-day sum', { unique: true });
    });

    it('has the seeded rows', async () => {
      const { count } = await db
        .selectFrom('transfers')
        .select((eb) => eb.fn.countAll<number>().as('count'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(count), ROWS);
    });
  });
}

/** Transfer rows generated in the database: odd rows sent, even rows received, one in ten for the other merchant. */
async function seed(db: Kysely<Database>, postgres: boolean, merchantIds: string[]): Promise<void> {
  const [mine, other] = merchantIds.map((id) => sql.lit(id));
  const { numbers, id } = seedSequence(postgres, ROWS);
  const merchant = sql`case when n % 10 = 0 then ${other} else ${mine} end`;
  const counterpart = sql`case when n % 10 = 0 then ${mine} else ${other} end`;
  const direction = sql`case when n % 2 = 1 then 'sent' else 'received' end`;
  const at = sql`case when n % 2 = 1 then '2025-12-31T00:00:00.000Z' else '2026-01-01T00:00:00.000Z' end`;
  await sql`
    insert into transfers (id, merchant_id, environment, direction, sender_id, receiver_id, reference, amount_minor, currency, description, metadata, created_at)
    select ${id}, ${merchant}, 'test', ${direction}, ${merchant}, ${counterpart}, case when n % 2 = 1 then 'TR-' || n else null end, 10000, 'XOF', null, '{}', ${at}
    from (${numbers}) as numbers`.execute(db);
  await sql`
    insert into metadata_entries (object_type, object_id, merchant_id, environment, key, value)
    select 'transfer', ${id}, ${merchant}, 'test', 'order', 'O-' || n from (${numbers}) as numbers where n % 10 = 1`.execute(db);
  await sql`analyze`.execute(db);
}
