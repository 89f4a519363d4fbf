/**
 * PostgreSQL introspection (used by the migrator on every migration and every /ready check) must
 * see only the connection's own schema: other processes create and drop schemas in the same
 * database (tests do, and so may tenants sharing a server), and reading theirs failed with
 * "schema … does not exist" when one was dropped mid-query.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateToLatest, pendingMigrations } from '../../src/storage/migrator.js';
import { postgresUrl, testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

const postgres = testDatabases().find((target) => target.name === 'postgres')!;

describe('postgres introspection', { skip: postgres.skip }, () => {
  let own: OpenTestDatabase;
  let other: OpenTestDatabase;

  before(async () => {
    own = await postgres.open();
    other = await postgres.open({ migrate: false });
    await other.database.db.schema.createTable('someone_elses_table').addColumn('id', 'integer').execute();
  });
  after(async () => {
    await own?.close();
    await other?.close();
  });

  it("lists the current schema's tables, with their columns, and no other schema's", async () => {
    const tables = await own.database.db.introspection.getTables();
    const names = tables.map((table) => table.name);
    assert.ok(names.includes('payments'), `payments listed, got ${names.join(', ')}`);
    assert.ok(!names.includes('someone_elses_table'));
    assert.ok(!names.includes('kysely_migration'), 'bookkeeping tables only when asked for');
    assert.ok((await own.database.db.introspection.getTables({ withInternalKyselyTables: true })).some((t) => t.name === 'kysely_migration'));
    const payments = tables.find((table) => table.name === 'payments')!;
    assert.ok(payments.columns.some((column) => column.name === 'id' && !column.isNullable));
    const [schema] = new Set(tables.map((table) => table.schema));
    assert.match(schema!, /^akwe_test_/);

    const otherTables = await other.database.db.introspection.getTables();
    assert.deepEqual(
      otherTables.map((table) => table.name),
      ['someone_elses_table'],
    );
  });

  it('keeps migrating and answering readiness while other schemas are created and dropped', async () => {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    let churning = true;
    // Many small schemas come and go, each with a table so the catalog has rows for it.
    const churn = (async () => {
      while (churning) {
        const name = `akwe_churn_${randomBytes(4).toString('hex')}`;
        await admin.query(`create schema ${name}; create table ${name}.t (id serial primary key, note text)`);
        await admin.query(`drop schema ${name} cascade`);
      }
    })();
    try {
      for (let round = 0; round < 60; round += 1) {
        assert.deepEqual(await pendingMigrations(own.database), []);
        await migrateToLatest(own.database);
      }
    } finally {
      churning = false;
      await churn;
      await admin.end();
    }
  });
});
