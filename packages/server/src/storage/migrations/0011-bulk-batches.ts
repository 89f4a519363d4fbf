import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** Bulk payment batches and their lines (docs/bulk.md): a batch is stored whole, its lines in row order. */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('bulk_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('test', 'live')`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('draft', 'processing', 'completed', 'partially_completed', 'failed')`))
    .addColumn('source', 'text', (c) => c.notNull().check(sql`source in ('api', 'csv')`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('item_count', 'integer', (c) => c.notNull().check(sql`item_count > 0`))
    .addColumn('total_amount_minor', 'bigint', (c) => c.notNull().check(sql`total_amount_minor > 0`))
    .addColumn('total_fee_minor', 'bigint', (c) => c.notNull().check(sql`total_fee_minor >= 0`))
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('validated_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  // The list, newest first, with or without its status filter (docs/decisions.md "Lists").
  await db.schema.createIndex('bulk_batches_scope_id').on('bulk_batches').columns(['merchant_id', 'environment', 'id']).execute();
  await db.schema.createIndex('bulk_batches_scope_status').on('bulk_batches').columns(['merchant_id', 'environment', 'status', 'id']).execute();

  // The worker's queue: batches being executed, whose lines' payouts it follows.
  await db.schema.createIndex('bulk_batches_processing').on('bulk_batches').columns(['updated_at']).where(sql.ref('status'), '=', 'processing').execute();

  await db.schema
    .createTable('bulk_batch_items')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('batch_id', 'text', (c) => c.notNull().references('bulk_batches.id'))
    .addColumn('row_number', 'integer', (c) => c.notNull())
    .addColumn('beneficiary_name', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull().check(sql`amount_minor > 0`))
    .addColumn('fee_minor', 'bigint', (c) => c.notNull().check(sql`fee_minor >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('operator', 'text', (c) => c.notNull())
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'invalid', 'processing', 'completed', 'failed', 'cancelled')`))
    .addColumn('problems', 'text')
    .addColumn('payout_id', 'text')
    .addColumn('failure_code', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // A reference names one line of a batch; a row number too.
  await db.schema.createIndex('bulk_batch_items_reference').unique().on('bulk_batch_items').columns(['batch_id', 'reference']).execute();
  // The items list in row order (ids are made in row order), with or without its status filter,
  // and the per-status counts of the detail.
  await db.schema.createIndex('bulk_batch_items_batch_id').on('bulk_batch_items').columns(['batch_id', 'id']).execute();
  await db.schema.createIndex('bulk_batch_items_batch_status').on('bulk_batch_items').columns(['batch_id', 'status', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('bulk_batch_items').execute();
  await db.schema.dropTable('bulk_batches').execute();
}
