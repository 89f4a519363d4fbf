/**
 * The ledger's books, checked after tests (issue 11 "Done when"): every transaction's entries sum
 * to zero, so all entries of a currency do; each account's balance equals the sum of its entries;
 * no available or reserved balance is below zero; each transaction's recorded balance changes
 * match its entries.
 */
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/storage/schema.js';

export async function assertBooksBalance(db: Kysely<Database>): Promise<void> {
  const unbalanced = await db
    .selectFrom('ledger_entries')
    .select(['transaction_id', (eb) => eb.fn.sum<number>('amount_minor').as('total')])
    .groupBy('transaction_id')
    .having((eb) => eb.fn.sum('amount_minor'), '<>', 0)
    .execute();
  assert.deepEqual(unbalanced, [], 'every ledger transaction sums to zero');

  const perCurrency = await db
    .selectFrom('ledger_entries')
    .innerJoin('ledger_transactions', 'ledger_transactions.id', 'ledger_entries.transaction_id')
    .select(['ledger_transactions.currency', (eb) => eb.fn.sum<number>('ledger_entries.amount_minor').as('total')])
    .groupBy('ledger_transactions.currency')
    .execute();
  for (const row of perCurrency) assert.equal(Number(row.total), 0, `entries in ${row.currency} sum to zero`);

  const drift = await db
    .selectFrom('ledger_accounts')
    .leftJoin('ledger_entries', 'ledger_entries.account_id', 'ledger_accounts.id')
    .select(['ledger_accounts.id', 'ledger_accounts.kind', 'ledger_accounts.balance_minor', sql<number>`coalesce(sum(ledger_entries.amount_minor), 0)`.as('entries')])
    .groupBy(['ledger_accounts.id', 'ledger_accounts.kind', 'ledger_accounts.balance_minor'])
    .execute();
  for (const account of drift) {
    assert.equal(Number(account.balance_minor), Number(account.entries), `account ${account.id} (${account.kind}) equals its entries`);
    if (account.kind === 'available' || account.kind === 'reserved') assert.ok(Number(account.balance_minor) >= 0, `${account.kind} ${account.id} is not below zero`);
  }

  const summaries = await db
    .selectFrom('ledger_transactions')
    .innerJoin('ledger_entries', 'ledger_entries.transaction_id', 'ledger_transactions.id')
    .innerJoin('ledger_accounts', 'ledger_accounts.id', 'ledger_entries.account_id')
    .select([
      'ledger_transactions.id',
      'ledger_transactions.available_change_minor',
      'ledger_transactions.reserved_change_minor',
      sql<number>`sum(case when ledger_accounts.kind = 'available' then ledger_entries.amount_minor else 0 end)`.as('available'),
      sql<number>`sum(case when ledger_accounts.kind = 'reserved' then ledger_entries.amount_minor else 0 end)`.as('reserved'),
    ])
    .groupBy(['ledger_transactions.id', 'ledger_transactions.available_change_minor', 'ledger_transactions.reserved_change_minor'])
    .execute();
  for (const row of summaries) {
    assert.equal(Number(row.available_change_minor), Number(row.available), `transaction ${row.id}: available change`);
    assert.equal(Number(row.reserved_change_minor), Number(row.reserved), `transaction ${row.id}: reserved change`);
  }
}
