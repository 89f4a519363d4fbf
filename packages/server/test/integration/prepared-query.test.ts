import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { PreparedInsert, PreparedQuery } from '../../src/storage/prepared-query.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

const at = '2026-11-22T10:00:00.000Z';

for (const target of testDatabases()) {
  describe(`prepared queries on ${target.name}`, { skip: target.skip }, () => {
    let open: OpenTestDatabase;
    before(async () => {
      open = await target.open();
    });
    after(async () => {
      await open?.close();
    });

    async function merchant(name: string, status: 'active' | 'suspended' = 'active'): Promise<string> {
      const id = newId();
      await open.database.db.insertInto('merchants').values({ id, name, status, kyc_status: 'validated', created_at: at, updated_at: at }).execute();
      return id;
    }

    it('gives each run its own values, as the same query built afresh would', async () => {
      const db = open.database.db;
      const a = await merchant('Alpha');
      const b = await merchant('Beta', 'suspended');
      const byIdAndStatus = new PreparedQuery(db, (db, id: string, status: string) =>
        db.selectFrom('merchants').select(['id', 'name']).where('id', '=', id).where('status', '=', status),
      );
      for (const [id, status] of [
        [a, 'active'],
        [b, 'suspended'],
        [a, 'suspended'],
        [b, 'active'],
      ] as const) {
        const expected = await db.selectFrom('merchants').select(['id', 'name']).where('id', '=', id).where('status', '=', status).execute();
        assert.deepEqual((await byIdAndStatus.execute(db, id, status)).rows, expected);
      }
      assert.deepEqual(await byIdAndStatus.first(db, b, 'suspended'), { id: b, name: 'Beta' });
      // Bound, never spliced into the SQL.
      assert.doesNotMatch(byIdAndStatus.sql, /Alpha|Beta|active|suspended/);
    });

    it('runs inside a transaction, and rolls back with it', async () => {
      const db = open.database.db;
      const rename = new PreparedQuery(db, (db, id: string, name: string) => db.updateTable('merchants').set({ name }).where('id', '=', id));
      const id = await merchant('Before');
      await assert.rejects(
        db.transaction().execute(async (trx) => {
          await rename.execute(trx, id, 'During');
          throw new Error('undo');
        }),
      );
      assert.equal((await db.selectFrom('merchants').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name, 'Before');
      await db.transaction().execute((trx) => rename.execute(trx, id, 'After'));
      assert.equal((await db.selectFrom('merchants').select('name').where('id', '=', id).executeTakeFirstOrThrow()).name, 'After');
    });

    it('refuses a query that does not use each argument as a plain value', () => {
      assert.throws(
        () =>
          new PreparedQuery(open.database.db, (db, name: string) =>
            db
              .selectFrom('merchants')
              .selectAll()
              .where('name', '=', name ? 'always' : 'never'),
          ),
        /uses 0 of its 1 arguments/,
      );
    });

    it('inserts rows of every count and column set exactly, each shape with its own statement', async () => {
      const db = open.database.db;
      const owner = await merchant('Owner');
      const events = new PreparedInsert(db, 'events');
      const row = (type: string, extra: { fanned_out?: number } = {}) => ({
        id: newId(),
        merchant_id: owner,
        environment: 'test',
        type,
        payload: JSON.stringify({ type, quote: `it's "${type}"` }),
        created_at: at,
        ...extra,
      });
      const batches = [[row('one')], [row('two-a'), row('two-b'), row('two-c')], [row('one-again')], [row('marked', { fanned_out: 1 })]];
      for (const batch of batches) await events.execute(db, batch);
      const stored = await db.selectFrom('events').select(['id', 'type', 'payload', 'fanned_out']).where('merchant_id', '=', owner).orderBy('id').execute();
      const expected = batches.flat().map((r) => ({ id: r.id, type: r.type, payload: r.payload, fanned_out: r.fanned_out ?? 0 }));
      assert.deepEqual(stored, expected);
      await assert.rejects(events.execute(db, []), RangeError);
    });
  });
}
