/** What the query-plan suites share: ids and row numbers for seeding, and the plan of a query as text. */
import assert from 'node:assert/strict';
import { sql, type Compilable, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '../../src/storage/schema.js';

/** UUIDv7-shaped ids that sort like the seeded row numbers, as real ids sort by creation. */
export function syntheticId(n: number): string {
  return `${n.toString(16).padStart(8, '0')}-0000-7000-8000-000000000000`;
}

/** The numbers 1..rows as a subquery of column `n`, and `syntheticId(n)` in SQL, on either database. */
export function seedSequence(postgres: boolean, rows: number): { numbers: RawBuilder<unknown>; id: RawBuilder<unknown> } {
  return {
    numbers: postgres
      ? sql`select n from generate_series(1, ${sql.lit(rows)}) as n`
      : sql`with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${sql.lit(rows)}) select n from seq`,
    id: postgres ? sql`lpad(to_hex(n), 8, '0') || '-0000-7000-8000-000000000000'` : sql`printf('%08x-0000-7000-8000-000000000000', n)`,
  };
}

/** The plan's lines (SQLite) or its JSON (PostgreSQL), as text. */
export async function queryPlan(db: Kysely<Database>, postgres: boolean, query: Compilable): Promise<string> {
  const compiled = query.compile();
  const explain = postgres ? 'explain (format json)' : 'explain query plan';
  const { rows } = await db.executeQuery<Record<string, unknown>>({ ...compiled, sql: `${explain} ${compiled.sql}` });
  if (postgres) return JSON.stringify(rows[0]!['QUERY PLAN']);
  return rows.map((r) => String(r['detail'])).join('\n');
}

/**
 * Asserts that a plan (from `queryPlan`) reads through an index with no full scan and, unless
 * `unique` (the index finds at most one row, so sorting it costs nothing), no sort; `index`, when
 * given, must appear in it; `bitmap` also accepts PostgreSQL's bitmap index scan as the index read.
 */
export function assertPlanUsesIndex(text: string, postgres: boolean, what: string, options: { index?: RegExp; unique?: boolean; bitmap?: boolean } = {}): void {
  const { index, unique = false, bitmap = false } = options;
  if (postgres) {
    assert.doesNotMatch(text, /"Seq Scan"/, `${what}: sequential scan\n${text}`);
    if (!unique) assert.doesNotMatch(text, /"Node Type":"(Sort|Incremental Sort)"/, `${what}: sorts\n${text}`);
    assert.match(text, bitmap ? /"Index (Only )?Scan"|"Bitmap Index Scan"/ : /"Index (Only )?Scan"/, `${what}: no index scan\n${text}`);
  } else {
    assert.doesNotMatch(text, /^SCAN \w+( AS \w+)?$/m, `${what}: full table scan\n${text}`);
    if (!unique) assert.doesNotMatch(text, /TEMP B-TREE/, `${what}: sorts\n${text}`);
  }
  if (index) assert.match(text, index, `${what}: does not use ${index}\n${text}`);
}
