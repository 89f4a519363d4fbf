import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Merchant status history (docs/decisions.md "Merchant status history"): one row per change of a
 * merchant's account status or KYC status, written in the transaction that makes the change.
 * Merchants created before this migration get no invented past: their history starts with their
 * next change, whose `from_value` is the status they had.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('merchant_status_changes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    // 1, 2, 3… per merchant in the order the changes committed: timestamps can tie, this cannot.
    .addColumn('change_number', 'integer', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull().check(sql`field in ('status', 'kyc_status')`))
    .addColumn('from_value', 'text')
    .addColumn('to_value', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'text', (c) => c.notNull())
    // Two writers that both read the same last change cannot both record the next one.
    .addUniqueConstraint('merchant_status_changes_number', ['merchant_id', 'change_number'])
    // Setting a status to the value it has is not a change and is never recorded.
    .addCheckConstraint('merchant_status_changes_differ', sql`from_value is null or from_value <> to_value`)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('merchant_status_changes').execute();
}
