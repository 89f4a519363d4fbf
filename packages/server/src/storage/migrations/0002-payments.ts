import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const statuses = sql.raw(["'pending'", "'processing'", "'awaiting_otp'", "'awaiting_payment'", "'completed'", "'failed'", "'cancelled'", "'expired'", "'refunded'"].join(', '));

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('payments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('test', 'live')`))
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in (${statuses})`))
    .addColumn('amount_minor', 'bigint', (c) => c.notNull().check(sql`amount_minor > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull().check(sql`mode in ('direct', 'hosted')`))
    .addColumn('operator', 'text')
    .addColumn('phone', 'text')
    .addColumn('description', 'text')
    .addColumn('callback_url', 'text')
    .addColumn('customer_first_name', 'text')
    .addColumn('customer_last_name', 'text')
    .addColumn('psp_reference', 'text')
    .addColumn('message', 'text')
    .addColumn('otp_attempts', 'integer', (c) => c.notNull())
    // Refunds can never exceed the amount: the database holds the line even if code slips.
    .addColumn('refunded_minor', 'bigint', (c) => c.notNull().check(sql`refunded_minor >= 0 and refunded_minor <= amount_minor`))
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  // A reference names one payment per merchant and environment (409 duplicate_reference).
  await db.schema.createIndex('payments_reference').unique().on('payments').columns(['merchant_id', 'environment', 'reference']).execute();
  await db.schema.createIndex('payments_expiry').on('payments').columns(['status', 'expires_at']).execute();

  await db.schema
    .createTable('refunds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('payment_id', 'text', (c) => c.notNull().references('payments.id'))
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull().check(sql`amount_minor > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'completed', 'failed')`))
    .addColumn('reason', 'text')
    .addColumn('psp_reference', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('refunds_payment').on('refunds').columns(['payment_id', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('refunds').execute();
  await db.schema.dropTable('payments').execute();
}
