/**
 * The revenue report's read at 100 000 ledger transactions over a year (one every 5 minutes), on
 * every database: one day's report reaches the transactions through `ledger_transactions_created`
 * (migration 0039), never by scanning the ledger, and their fees entries by the transaction index.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql, type Kysely } from 'kysely';
import { revenueCellsQuery } from '../../src/storage/repositories/revenue-repository.js';
import type { Database } from '../../src/storage/schema.js';
import { queryPlan, seedSequence } from '../support/query-plans.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const ROWS = 100_000;

/** The tables a PostgreSQL plan (JSON) reads by a sequential scan. */
function sequentialScans(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(sequentialScans);
  if (typeof node !== 'object' || node === null) return [];
  const fields = node as Record<string, unknown>;
  const own = fields['Node Type'] === 'Seq Scan' ? [String(fields['Relation Name'])] : [];
  return [...own, ...Object.values(fields).flatMap(sequentialScans)];
}

for (const target of testDatabases()) {
  describe(`revenue query plan at ${ROWS.toLocaleString('en')} ledger transactions on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let db: Kysely<Database>;
    const postgres = target.name === 'postgres';

    before(async () => {
      t = await buildTestApp(target);
      db = t.services.database.db;
      const { merchantId } = await t.newMerchant();
      const { numbers, id } = seedSequence(postgres, ROWS);
      const createdAt = postgres
        ? sql`to_char(timestamp '2026-01-01' + n * interval '5 minutes', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
        : sql`strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || (n * 5) || ' minutes')`;
      await sql`
        insert into ledger_transactions (id, merchant_id, environment, currency, type, source_type, source_id, source_reference,
          description, available_change_minor, reserved_change_minor, fee_minor, created_at, settlement_id)
        select ${id}, ${merchantId}, 'live', 'XOF', 'collection', 'payment', ${id}, null, 'seeded', 0, 0, 0, ${createdAt}, null
        from (${numbers}) as seq
      `.execute(db);
      if (postgres) await sql`analyze ledger_transactions`.execute(db);
    });
    after(() => t.close());

    it('reads one day through the creation index, with no scan of the ledger', async () => {
      const query = revenueCellsQuery({ from: '2026-06-01T00:00:00.000Z', to: '2026-06-02T00:00:00.000Z' }, 'live');
      const text = await queryPlan(db, postgres, { compile: () => query.compile(db) });
      assert.match(text, /ledger_transactions_created/, `the period is not read through the index\n${text}`);
      const scanned = postgres ? sequentialScans(JSON.parse(text)) : [...text.matchAll(/^SCAN (\w+)/gm)].map((match) => match[1]);
      assert.deepEqual(
        scanned.filter((table) => /^(t|e|ledger_transactions|ledger_entries)$/.test(table ?? '')),
        [],
        `the ledger is scanned\n${text}`,
      );
    });

    it('has the seeded rows, a day of them in the period', async () => {
      const cells = await t.services.revenue.report({
        period: { from: '2026-06-01T00:00:00.000Z', to: '2026-06-02T00:00:00.000Z' },
        fromDay: '2026-06-01',
        toDay: '2026-06-02',
        groupBy: 'day',
        environment: 'live',
      });
      assert.deepEqual(
        cells.rows.map((row) => [row.day, row.count]),
        [['2026-06-01', 288]],
      );
    });
  });
}
