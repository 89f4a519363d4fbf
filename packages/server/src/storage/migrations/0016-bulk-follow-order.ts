import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The bulk worker's queue is ordered by when the worker last looked at a batch (`followed_at`),
 * not by `updated_at`: a batch that only waits on its payouts changes nothing, so ordered by
 * `updated_at` it stayed at the front and the batches behind it (any merchant's) were never
 * executed. A batch never looked at has '' and comes first. `updated_at` is the merchant's field
 * again: it moves only when the batch does.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable('bulk_batches')
    .addColumn('followed_at', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  await sql`update bulk_batches set followed_at = updated_at where status = 'processing'`.execute(db);
  await db.schema.dropIndex('bulk_batches_processing').execute();
  await db.schema.createIndex('bulk_batches_follow').on('bulk_batches').columns(['followed_at', 'id']).where(sql.ref('status'), '=', 'processing').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('bulk_batches_follow').execute();
  await db.schema.createIndex('bulk_batches_processing').on('bulk_batches').columns(['updated_at']).where(sql.ref('status'), '=', 'processing').execute();
  await db.schema.alterTable('bulk_batches').dropColumn('followed_at').execute();
}
