import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Settlements (docs/settlements.md): where a merchant's money goes (settlement accounts, each usable
 * after a cooling period), the settlements that move it there, and each merchant's schedule.
 *
 * A wallet settlement is sent by a payout whose `settlement_id` names it, so the payout workers hand it
 * off (recorded phases, at most once) and its postings are booked as the settlement's. Every ledger
 * transaction is stamped with the settlement whose statement covers it (`ledger_transactions.settlement_id`):
 * a settlement stamps, in its own transaction, all the unstamped ones of its scope and currency.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('settlement_accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('test', 'live')`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('wallet', 'bank')`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('holder_name', 'text', (c) => c.notNull())
    // A wallet's operator (catalog slug) and number (E.164); a bank account's IBAN and bank name.
    .addColumn('operator', 'text')
    .addColumn('phone', 'text')
    .addColumn('iban', 'text')
    .addColumn('bank_name', 'text')
    .addColumn('description', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    // Created or changed: usable from this instant (the cooling period), so a stolen key cannot redirect funds at once.
    .addColumn('usable_from', 'text', (c) => c.notNull())
    .addColumn('removed_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addCheckConstraint(
      'settlement_accounts_shape',
      sql`(kind = 'wallet' and operator is not null and phone is not null and iban is null) or (kind = 'bank' and iban is not null and operator is null and phone is null)`,
    )
    .execute();
  await db.schema.createIndex('settlement_accounts_scope').on('settlement_accounts').columns(['merchant_id', 'environment', 'id']).execute();

  await db.schema
    .createTable('settlements')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('test', 'live')`))
    .addColumn('reference', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', (c) => c.notNull().references('settlement_accounts.id'))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('wallet', 'bank')`))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'in_transit', 'paid', 'failed')`))
    .addColumn('origin', 'text', (c) => c.notNull().check(sql`origin in ('api', 'schedule')`))
    // What leaves the balance; the fee is taken from it, the destination receives amount - fee.
    .addColumn('amount_minor', 'bigint', (c) => c.notNull().check(sql`amount_minor > 0`))
    .addColumn('fee_minor', 'bigint', (c) => c.notNull().check(sql`fee_minor >= 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    // 1, 2, 3… per merchant, environment and currency, in commit order (taken under the balance's row
    // lock): the previous settlement, whose closing balances open this one's statement, is sequence - 1.
    .addColumn('sequence', 'integer', (c) => c.notNull())
    // Where the money went, as the account was when the settlement was made (JSON).
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('payout_id', 'text')
    .addColumn('bank_reference', 'text')
    .addColumn('failure_code', 'text')
    .addColumn('failure_message', 'text')
    // The statement's frame: balances before its first covered transaction and after its own reservation.
    .addColumn('opening_available_minor', 'bigint', (c) => c.notNull())
    .addColumn('closing_available_minor', 'bigint', (c) => c.notNull())
    .addColumn('opening_reserved_minor', 'bigint', (c) => c.notNull())
    .addColumn('closing_reserved_minor', 'bigint', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('settled_at', 'text')
    .addColumn('version', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('settlements_reference').unique().on('settlements').columns(['merchant_id', 'environment', 'reference']).execute();
  await db.schema.createIndex('settlements_scope').on('settlements').columns(['merchant_id', 'environment', 'id']).execute();
  await db.schema.createIndex('settlements_scope_status').on('settlements').columns(['merchant_id', 'environment', 'status', 'id']).execute();
  await db.schema.createIndex('settlements_sequence').unique().on('settlements').columns(['merchant_id', 'environment', 'currency', 'sequence']).execute();
  // Wallet settlements still waiting on their payout: the follow-up worker's queue.
  await db.schema
    .createIndex('settlements_open')
    .on('settlements')
    .columns(['id'])
    .where(sql<boolean>`status in ('pending', 'in_transit')`)
    .execute();

  await db.schema
    .createTable('settlement_schedules')
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('test', 'live')`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('run_interval', 'text', (c) => c.notNull().check(sql`run_interval in ('off', 'daily', 'weekly', 'monthly')`))
    // Weekly: 1 (Monday) to 7; monthly: 1 to 28. Null for the other intervals.
    .addColumn('anchor', 'integer')
    .addColumn('account_id', 'text', (c) => c.references('settlement_accounts.id'))
    .addColumn('minimum_minor', 'bigint', (c) => c.notNull().check(sql`minimum_minor >= 1`))
    .addColumn('reserve_minor', 'bigint', (c) => c.notNull().check(sql`reserve_minor >= 0`))
    .addColumn('next_run_at', 'text')
    .addColumn('last_run_at', 'text')
    .addColumn('last_outcome', 'text')
    .addColumn('last_settlement_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('settlement_schedules_pk', ['merchant_id', 'environment', 'currency'])
    .execute();
  await db.schema.createIndex('settlement_schedules_due').on('settlement_schedules').columns(['next_run_at']).where(sql.ref('next_run_at'), 'is not', null).execute();

  // A wallet settlement's payout: its postings are the settlement's, and its end ends the settlement.
  await db.schema.alterTable('payouts').addColumn('settlement_id', 'text').execute();
  // Which settlement's statement covers each ledger transaction; null until the next settlement.
  await db.schema.alterTable('ledger_transactions').addColumn('settlement_id', 'text').execute();
  await db.schema
    .createIndex('ledger_transactions_unsettled')
    .on('ledger_transactions')
    .columns(['merchant_id', 'environment', 'currency'])
    .where(sql.ref('settlement_id'), 'is', null)
    .execute();
  await db.schema.createIndex('ledger_transactions_statement').on('ledger_transactions').columns(['settlement_id', 'id']).where(sql.ref('settlement_id'), 'is not', null).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('ledger_transactions_statement').execute();
  await db.schema.dropIndex('ledger_transactions_unsettled').execute();
  await db.schema.alterTable('ledger_transactions').dropColumn('settlement_id').execute();
  await db.schema.alterTable('payouts').dropColumn('settlement_id').execute();
  await db.schema.dropTable('settlement_schedules').execute();
  await db.schema.dropTable('settlements').execute();
  await db.schema.dropTable('settlement_accounts').execute();
}
