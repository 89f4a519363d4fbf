import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The revenue report (docs/operations.md "Revenue") reads the ledger transactions of a period across
 * every merchant: an index on their creation instant makes that a range, not a scan of the whole ledger.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('ledger_transactions_created').on('ledger_transactions').columns(['created_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('ledger_transactions_created').execute();
}
