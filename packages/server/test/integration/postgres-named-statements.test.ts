/**
 * On PostgreSQL, a statement Akwe repeats becomes a named prepared statement on its connection
 * (parsed and planned once), while a statement seen once stays unnamed. Values stay bound
 * parameters, so two runs with different values share one statement and return their own rows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

const postgres = testDatabases().find((target) => target.name === 'postgres')!;

describe('postgres named statements', { skip: postgres.skip }, () => {
  let open: OpenTestDatabase;

  before(async () => {
    open = await postgres.open();
  });
  after(async () => {
    await open?.close();
  });

  it('names a statement from its second run, and each run still binds its own values', async () => {
    // A text no other test runs, so this process has never seen it; one connection, whose prepared statements we read.
    const column = `v_${randomBytes(6).toString('hex')}`;
    await open.database.db.connection().execute(async (connection) => {
      const run = async (value: string) => (await sql<Record<string, string>>`select ${value}::text as ${sql.ref(column)}`.execute(connection)).rows[0]![column];
      const named = async () => {
        const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(connection);
        return rows.filter((row) => row.statement.includes(column));
      };

      assert.equal(await run('first'), 'first');
      assert.equal((await named()).length, 0, 'run once: unnamed');
      assert.equal(await run('second'), 'second');
      assert.equal(await run('third'), 'third');
      assert.equal((await named()).length, 1, 'repeated: one named statement on the connection');
    });
  });
});
