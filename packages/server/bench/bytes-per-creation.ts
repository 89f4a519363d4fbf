/**
 * What one payment creation leaves on disk, on each test database: builds the real app in this
 * process (as the tests do), creates sandbox direct payments through HTTP injection at a
 * concurrency of 10, and prints the bytes per creation of the database (SQLite: the file's pages;
 * PostgreSQL: every table with its indexes and TOAST), of the `events` table alone, and, on
 * PostgreSQL, of the WAL written meanwhile. The workers do not run, so only the requests' own
 * writes are counted.
 *
 *   npx tsx bench/bytes-per-creation.ts            # SQLite, and PostgreSQL when AKWE_TEST_POSTGRES_URL is set
 *   BYTES_CREATIONS=10000 BYTES_DATABASES=postgres npx tsx bench/bytes-per-creation.ts
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/storage/schema.js';
import { collectClient, direct } from '../test/support/collect-client.js';
import { buildTestApp } from '../test/support/test-app.js';
import { inProcessDatabases } from './in-process-databases.js';

const creations = Number(process.env.BYTES_CREATIONS ?? 3000);
const concurrency = 10;

const perCreation = (bytes: number | string, count: number) => `${Math.round(Number(bytes) / count).toLocaleString('en')} B`;

async function sqliteBytes(db: Kysely<Database>) {
  const file = await sql<{ bytes: number }>`select page_count * page_size as bytes from pragma_page_count(), pragma_page_size()`.execute(db);
  const events = await sql<{ bytes: number }>`select sum(pgsize) as bytes from dbstat where name = 'events'`.execute(db);
  return { database: file.rows[0]!.bytes, events: events.rows[0]!.bytes };
}

async function postgresBytes(db: Kysely<Database>) {
  const sizes = await sql<{ database: string; events: string }>`
    select (select sum(pg_total_relation_size(c.oid)) from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where n.nspname = current_schema() and c.relkind = 'r')::text as database,
           pg_total_relation_size('events')::text as events`.execute(db);
  return sizes.rows[0]!;
}

const walPosition = async (db: Kysely<Database>) => (await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(db)).rows[0]!.lsn;

for (const target of inProcessDatabases('BYTES_DATABASES')) {
  const test = await buildTestApp(target, { env: { AKWE_RUN_WORKERS: 'false' } });
  try {
    const db = test.services.database.db;
    const postgres = target.name === 'postgres';
    const api = collectClient(test.app, (await test.newMerchant()).testKey);
    const before = postgres ? await postgresBytes(db) : await sqliteBytes(db);
    const walBefore = postgres ? await walPosition(db) : undefined;
    for (let made = 0; made < creations; made += concurrency) {
      await Promise.all(Array.from({ length: Math.min(concurrency, creations - made) }, () => api.createOk(direct())));
    }
    const after = postgres ? await postgresBytes(db) : await sqliteBytes(db);
    const parts = [
      `database ${perCreation(Number(after.database) - Number(before.database), creations)}`,
      `events ${perCreation(Number(after.events) - Number(before.events), creations)}`,
    ];
    if (walBefore !== undefined) {
      const wal = await sql<{ bytes: string }>`select pg_wal_lsn_diff(pg_current_wal_lsn(), ${walBefore}::pg_lsn)::text as bytes`.execute(db);
      parts.push(`WAL ${perCreation(wal.rows[0]!.bytes, creations)}`);
    }
    console.log(`${target.name}: ${creations} creations; per creation: ${parts.join(', ')}`);
  } finally {
    await test.close();
  }
}
