/** What the query-plan suites share: ids and row numbers for seeding, and the plan of a query as text. */
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
