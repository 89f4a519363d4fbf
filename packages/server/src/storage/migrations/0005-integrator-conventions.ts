import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Integrator conventions (docs/decisions.md "Lists", "Metadata", "Failure codes"): indexes that
 * serve every list newest first, metadata with its search table, failure codes, and the reference
 * an event is about.
 */
export async function up(db: AnyDb): Promise<void> {
  // Lists read a merchant's payments by id descending (UUIDv7: newest first), with or without a status.
  await db.schema.createIndex('payments_scope_id').on('payments').columns(['merchant_id', 'environment', 'id']).execute();
  await db.schema.createIndex('payments_scope_status').on('payments').columns(['merchant_id', 'environment', 'status', 'id']).execute();

  // The object's metadata as JSON, returned as written; `{}` when none was given.
  await db.schema
    .alterTable('payments')
    .addColumn('metadata', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  await db.schema.alterTable('payments').addColumn('failure_code', 'text').execute();

  // One row per metadata key, so a list filtered by one key and value reads an index, newest first.
  // Shared by every object that carries metadata (payments now; payouts and batches later).
  await db.schema
    .createTable('metadata_entries')
    .addColumn('object_type', 'text', (c) => c.notNull())
    .addColumn('object_id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('metadata_entries_pk', ['object_id', 'key'])
    .execute();
  await db.schema.createIndex('metadata_entries_search').on('metadata_entries').columns(['merchant_id', 'environment', 'object_type', 'key', 'value', 'object_id']).execute();

  // The merchant reference of the object an event is about, for GET /events?reference=.
  await db.schema.alterTable('events').addColumn('subject_reference', 'text').execute();
  await backfillEventReferences(db);
  await db.schema.createIndex('events_scope_reference').on('events').columns(['merchant_id', 'environment', 'subject_reference', 'id']).execute();
}

/** Events written before this migration: the reference is read from their stored payload. */
async function backfillEventReferences(db: AnyDb): Promise<void> {
  const batch = 1000;
  for (let after = ''; ;) {
    const rows: { id: string; payload: string }[] = await db.selectFrom('events').select(['id', 'payload']).where('id', '>', after).orderBy('id').limit(batch).execute();
    for (const row of rows) {
      const reference = (JSON.parse(row.payload) as { payment?: { reference?: string } }).payment?.reference ?? null;
      await db.updateTable('events').set({ subject_reference: reference }).where('id', '=', row.id).execute();
    }
    if (rows.length < batch) return;
    after = rows[rows.length - 1]!.id;
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('events_scope_reference').execute();
  await db.schema.alterTable('events').dropColumn('subject_reference').execute();
  await db.schema.dropTable('metadata_entries').execute();
  await db.schema.alterTable('payments').dropColumn('failure_code').execute();
  await db.schema.alterTable('payments').dropColumn('metadata').execute();
  await db.schema.dropIndex('payments_scope_status').execute();
  await db.schema.dropIndex('payments_scope_id').execute();
}
