/**
 * Migration 0021 (docs/transfers.md) on a ledger with money in it, on every database: it widens
 * the ledger's account kinds with `transfer_clearing` (a table rebuild on SQLite) and keeps every
 * account and entry, the overdraw CHECK, the foreign keys and the unique account index.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { migrateTo } from '../../src/storage/migrator.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`migration 0021-transfers on ${target.name}`, { skip: target.skip }, () => {
    it('keeps the ledger whole while letting a transfer_clearing account in', async () => {
      const fresh = await target.open({ migrate: false });
      try {
        const db = fresh.database.db;
        await migrateTo(fresh.database, '0019-operator-redirect');
        const now = new Date().toISOString();
        const merchantId = newId();
        await db.insertInto('merchants').values({ id: merchantId, name: 'M', status: 'active', kyc_status: 'pending', created_at: now, updated_at: now }).execute();
        const account = (kind: string, balance: number) => ({
          id: newId(),
          merchant_id: merchantId,
          environment: 'test',
          currency: 'XOF',
          kind,
          balance_minor: balance,
          created_at: now,
          updated_at: now,
        });
        const available = account('available', 500);
        const clearing = account('operator_clearing', -500);
        await db.insertInto('ledger_accounts').values([available, clearing]).execute();
        const transaction = {
          id: newId(),
          merchant_id: merchantId,
          environment: 'test',
          currency: 'XOF',
          type: 'collection',
          source_type: 'payment',
          source_id: newId(),
          source_reference: 'P-1',
          description: 'Collection P-1',
          available_change_minor: 500,
          reserved_change_minor: 0,
          fee_minor: 0,
          created_at: now,
        };
        await db.insertInto('ledger_transactions').values(transaction).execute();
        const entries = [
          { id: newId(), transaction_id: transaction.id, account_id: available.id, amount_minor: 500, created_at: now },
          { id: newId(), transaction_id: transaction.id, account_id: clearing.id, amount_minor: -500, created_at: now },
        ];
        await db.insertInto('ledger_entries').values(entries).execute();
        await assert.rejects(db.insertInto('ledger_accounts').values(account('transfer_clearing', 0)).execute(), 'before 0021 the kind does not exist');

        await migrateTo(fresh.database, '0021-transfers');
        const numbers = <T extends Record<string, unknown>>(row: T) =>
          Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v]));
        assert.deepEqual((await db.selectFrom('ledger_accounts').selectAll().orderBy('kind').execute()).map(numbers), [available, clearing]);
        assert.deepEqual((await db.selectFrom('ledger_entries').selectAll().orderBy('amount_minor').execute()).map(numbers), [entries[1], entries[0]]);

        await db.insertInto('ledger_accounts').values(account('transfer_clearing', 0)).execute();
        await assert.rejects(db.insertInto('ledger_accounts').values(account('lost', 0)).execute(), 'the widened check still refuses other kinds');
        await assert.rejects(db.updateTable('ledger_accounts').set({ balance_minor: -1 }).where('id', '=', available.id).execute(), 'available still cannot go below zero');
        await assert.rejects(db.insertInto('ledger_accounts').values(account('available', 0)).execute(), 'the unique (merchant, environment, currency, kind) index came back');
        await assert.rejects(
          db
            .insertInto('ledger_entries')
            .values({ ...entries[0]!, id: newId(), account_id: newId() })
            .execute(),
          'an entry still needs its account',
        );
      } finally {
        await fresh.close();
      }
    });
  });
}
