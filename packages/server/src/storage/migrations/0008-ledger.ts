import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The double-entry ledger (docs/ledger.md): accounts per merchant, environment, currency and
 * kind with their running balance; transactions; entries that sum to zero in each transaction.
 * Entries are never updated or deleted.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('ledger_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('test', 'live')`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('available', 'reserved', 'operator_clearing', 'fees', 'sandbox_float')`))
    .addColumn('balance_minor', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    // The merchant's own money never goes below zero, whatever the code above does: a payout or
    // refund the balance cannot cover fails here, in the transaction that tried it.
    .addCheckConstraint('ledger_accounts_not_overdrawn', sql`kind not in ('available', 'reserved') or balance_minor >= 0`)
    .execute();
  await db.schema.createIndex('ledger_accounts_key').unique().on('ledger_accounts').columns(['merchant_id', 'environment', 'currency', 'kind']).execute();

  await db.schema
    .createTable('ledger_transactions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull())
    .addColumn('environment', 'text', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('source_type', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('source_reference', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    // What the transaction did to the merchant's balances, kept with it so a list reads one row each.
    .addColumn('available_change_minor', 'bigint', (c) => c.notNull())
    .addColumn('reserved_change_minor', 'bigint', (c) => c.notNull())
    .addColumn('fee_minor', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_transactions_scope').on('ledger_transactions').columns(['merchant_id', 'environment', 'id']).execute();
  await db.schema.createIndex('ledger_transactions_type').on('ledger_transactions').columns(['merchant_id', 'environment', 'type', 'id']).execute();
  await db.schema.createIndex('ledger_transactions_source').on('ledger_transactions').columns(['source_id']).execute();

  await db.schema
    .createTable('ledger_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('transaction_id', 'text', (c) => c.notNull().references('ledger_transactions.id'))
    .addColumn('account_id', 'text', (c) => c.notNull().references('ledger_accounts.id'))
    .addColumn('amount_minor', 'bigint', (c) => c.notNull().check(sql`amount_minor <> 0`))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('ledger_entries_transaction').on('ledger_entries').columns(['transaction_id']).execute();
  await db.schema.createIndex('ledger_entries_account').on('ledger_entries').columns(['account_id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('ledger_entries').execute();
  await db.schema.dropTable('ledger_transactions').execute();
  await db.schema.dropTable('ledger_accounts').execute();
}
