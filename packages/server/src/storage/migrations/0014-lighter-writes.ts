import { PostgresAdapter, sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Fewer index writes per payment (docs/performance.md):
 * - `payments_checkout_token` holds only hosted payments' tokens: a direct payment (no token) no
 *   longer adds an entry on insert and on each later update. A lookup by token (`checkout_token =
 *   ?`) implies the index's condition on both databases, so it still uses the index.
 * - PostgreSQL: `idempotency_records` pages keep a fifth free, so the last write of a claim (its
 *   state and stored response; no indexed column) can stay on its page as a heap-only update and
 *   add nothing to the table's two indexes. SQLite has no such setting and needs none.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('payments_checkout_token').execute();
  await db.schema.createIndex('payments_checkout_token').on('payments').column('checkout_token').unique().where(sql.ref('checkout_token'), 'is not', null).execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`alter table idempotency_records set (fillfactor = 80)`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) await sql`alter table idempotency_records reset (fillfactor)`.execute(db);
  await db.schema.dropIndex('payments_checkout_token').execute();
  await db.schema.createIndex('payments_checkout_token').on('payments').column('checkout_token').unique().execute();
}
