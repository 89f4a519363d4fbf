import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Live payments an operator is working on are asked about by the reconciliation worker, with
 * backoff, in case the operator's callback never arrives: `next_check_at` says when, and only the
 * rows that have one are in the index the worker reads.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('payments').addColumn('next_check_at', 'text').execute();
  await db.schema.createIndex('payments_next_check').on('payments').columns(['next_check_at']).where(sql.ref('next_check_at'), 'is not', null).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('payments_next_check').execute();
  await db.schema.alterTable('payments').dropColumn('next_check_at').execute();
}
