/**
 * Every storage and HTTP suite runs once per database: `for (const target of testDatabases())`.
 * SQLite is a real file in a temporary folder; PostgreSQL runs when AKWE_TEST_POSTGRES_URL is set,
 * each database in a schema of its own that is dropped afterwards. Without the variable the
 * PostgreSQL suites are reported as skipped, never silently passed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type AkweDatabase } from '../../src/storage/database.js';
import { migrateToLatest } from '../../src/storage/migrator.js';
import type { DatabaseTarget } from '../../src/config.js';

export interface TestDatabase {
  name: 'sqlite' | 'postgres';
  /** A reason to skip, or false. */
  skip: string | false;
  /** A fresh, empty database (migrated unless told otherwise); close() removes it. */
  open(options?: { migrate?: boolean }): Promise<OpenTestDatabase>;
}

export interface OpenTestDatabase {
  database: AkweDatabase;
  /** A DATABASE_URL that reaches this same database from another process (the CLI, a child server). */
  url: string;
  target: DatabaseTarget;
  close(): Promise<void>;
}

export const postgresUrl = process.env.AKWE_TEST_POSTGRES_URL;

async function openSqlite(migrate: boolean): Promise<OpenTestDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'akwe-test-'));
  const file = join(dir, 'akwe.db');
  const target: DatabaseTarget = { kind: 'sqlite', file };
  const database = openDatabase(target);
  if (migrate) await migrateToLatest(database);
  return {
    database,
    target,
    url: `sqlite:${file}`,
    async close() {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openPostgres(url: string, migrate: boolean): Promise<OpenTestDatabase> {
  const schema = `akwe_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const target: DatabaseTarget = { kind: 'postgres', url };
  const database = openDatabase(target, { postgresSchema: schema, poolSize: 5 });
  if (migrate) await migrateToLatest(database);
  const withSchema = new URL(url);
  withSchema.searchParams.set('options', `-c search_path=${schema}`);
  return {
    database,
    target,
    url: withSchema.toString(),
    async close() {
      await database.close();
      const cleanup = new pg.Client({ connectionString: url });
      await cleanup.connect();
      await cleanup.query(`drop schema if exists ${schema} cascade`);
      await cleanup.end();
    },
  };
}

export function testDatabases(): TestDatabase[] {
  return [
    { name: 'sqlite', skip: false, open: (o) => openSqlite(o?.migrate ?? true) },
    {
      name: 'postgres',
      skip: postgresUrl ? false : 'PostgreSQL (set AKWE_TEST_POSTGRES_URL)',
      open: (o) => openPostgres(postgresUrl!, o?.migrate ?? true),
    },
  ];
}
