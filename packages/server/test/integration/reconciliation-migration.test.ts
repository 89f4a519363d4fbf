/**
 * Migration 0038 on each database: the operator discrepancies kept before it stay, as
 * `operator_answer`, still stored once per resource and status; and it can be rolled back to
 * 0018's table with those rows.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { migrateTo, migrateToLatest } from '../../src/storage/migrator.js';
import { testDatabases } from '../support/test-databases.js';

const before0038 = {
  id: '0193c5d2-0000-7000-8000-0000000000d1',
  merchant_id: '0193c5d2-0000-7000-8000-0000000000e1',
  environment: 'live',
  resource_type: 'payment',
  resource_id: '0193c5d2-0000-7000-8000-0000000000f1',
  reference: 'order-1042',
  operator: 'mtn_bj',
  our_status: 'expired',
  operator_status: 'SUCCESSFUL',
  operator_reference: null,
  message: null,
  created_at: '2026-11-01T09:00:00.000Z',
  resolved_at: null,
  resolution: null,
};

for (const target of testDatabases()) {
  describe(`migration 0038 (reconciliation) on ${target.name}`, { skip: target.skip }, () => {
    it('keeps the earlier discrepancies as operator answers, once each, and rolls back to them', async () => {
      const fresh = await target.open({ migrate: false });
      try {
        await migrateTo(fresh.database, '0036-payment-links');
        const db = fresh.database.db;
        await db.insertInto('operator_discrepancies').values(before0038).execute();
        await migrateToLatest(fresh.database);
        const kept = await db.selectFrom('operator_discrepancies').selectAll().execute();
        assert.deepEqual(
          kept.map((row) => [row.id, row.kind, row.reference, row.route]),
          [[before0038.id, 'operator_answer', 'order-1042', null]],
        );
        const again = await db
          .insertInto('operator_discrepancies')
          .values({ ...before0038, id: '0193c5d2-0000-7000-8000-0000000000d2' })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst();
        assert.equal(Number(again.numInsertedOrUpdatedRows ?? 0), 0, 'the same answer about the same resource is stored once');
        const missingAtAkwe = {
          ...before0038,
          id: '0193c5d2-0000-7000-8000-0000000000d3',
          kind: 'missing_at_akwe',
          merchant_id: null,
          resource_id: null,
          route: 'pawapay',
          operator_reference: 'PP1',
        };
        await db.insertInto('operator_discrepancies').values(missingAtAkwe).execute();
        await assert.rejects(
          db
            .insertInto('operator_discrepancies')
            .values({ ...missingAtAkwe, id: '0193c5d2-0000-7000-8000-0000000000d4' })
            .execute(),
          'one per kind, route and provider reference',
        );

        await migrateTo(fresh.database, '0036-payment-links');
        const rolledBack = await db.selectFrom('operator_discrepancies').selectAll().execute();
        assert.deepEqual(rolledBack, [before0038]);
      } finally {
        await fresh.close();
      }
    });
  });
}
