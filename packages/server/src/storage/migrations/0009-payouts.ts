import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** Payouts (docs/payouts.md): money sent to wallets, handed to the operator at most once. */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('payouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('test', 'live')`))
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED')`))
    .addColumn('amount_minor', 'bigint', (c) => c.notNull().check(sql`amount_minor > 0`))
    .addColumn('fee_minor', 'bigint', (c) => c.notNull().check(sql`fee_minor >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('operator', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('recipient_first_name', 'text')
    .addColumn('recipient_last_name', 'text')
    .addColumn('description', 'text')
    .addColumn('psp_reference', 'text')
    .addColumn('message', 'text')
    .addColumn('failure_code', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('handoff_started_at', 'text')
    .addColumn('handed_off', 'integer', (c) => c.notNull())
    .addColumn('next_check_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  // A reference names one payout per merchant and environment (409 duplicate_reference).
  await db.schema.createIndex('payouts_reference').unique().on('payouts').columns(['merchant_id', 'environment', 'reference']).execute();
  await db.schema.createIndex('payouts_scope_id').on('payouts').columns(['merchant_id', 'environment', 'id']).execute();
  await db.schema.createIndex('payouts_scope_status').on('payouts').columns(['merchant_id', 'environment', 'status', 'id']).execute();
  // The workers' queues: payouts to hand off, payouts to ask about.
  await db.schema.createIndex('payouts_pending').on('payouts').columns(['created_at']).where(sql.ref('status'), '=', 'PENDING').execute();
  await db.schema.createIndex('payouts_checks').on('payouts').columns(['next_check_at']).where(sql.ref('status'), '=', 'PROCESSING').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('payouts').execute();
}
