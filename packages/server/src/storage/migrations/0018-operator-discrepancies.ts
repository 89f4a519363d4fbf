import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Operator answers our state machine refused (core/operators/operator-discrepancy.ts): kept for a
 * person to decide. One row per resource and reported status, so a callback repeated, or the
 * same answer met by two workers, is stored once.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('operator_discrepancies')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('merchant_id', 'text', (col) => col.notNull())
    .addColumn('environment', 'text', (col) => col.notNull())
    .addColumn('resource_type', 'text', (col) => col.notNull())
    .addColumn('resource_id', 'text', (col) => col.notNull())
    .addColumn('reference', 'text', (col) => col.notNull())
    .addColumn('operator', 'text', (col) => col.notNull())
    .addColumn('our_status', 'text', (col) => col.notNull())
    .addColumn('operator_status', 'text', (col) => col.notNull())
    .addColumn('operator_reference', 'text')
    .addColumn('message', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolution', 'text')
    .addUniqueConstraint('operator_discrepancies_once', ['resource_type', 'resource_id', 'operator_status'])
    .execute();
  await db.schema.createIndex('operator_discrepancies_created').on('operator_discrepancies').columns(['created_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('operator_discrepancies').execute();
}
