/**
 * PostgreSQL runs never touch the database named in DATABASE_URL: the server would migrate its
 * `public` schema. The benchmark creates a fresh database `akwe_bench_<random>` on the same
 * server instead, points Akwe at it, and drops it afterwards.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface BenchDatabase {
  /** URL of the fresh database (same server and credentials). */
  url: string;
  name: string;
  /** Server facts worth recording next to the figures (durability settings above all). */
  settings: Record<string, string>;
  drop(): Promise<void>;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:/i.test(url);
}

/** Describes a URL without its password. */
export function safeUrl(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `akwe_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const settings: Record<string, string> = {};
  try {
    for (const setting of ['server_version', 'fsync', 'synchronous_commit', 'wal_sync_method', 'full_page_writes', 'max_connections']) {
      const { rows } = await admin.query<Record<string, string>>(`show ${setting}`);
      settings[setting] = Object.values(rows[0] ?? {})[0] ?? '';
    }
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    settings,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}
