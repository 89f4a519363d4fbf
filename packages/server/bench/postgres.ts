/**
 * PostgreSQL runs never touch the database named in DATABASE_URL: the server would migrate its
 * `public` schema. The benchmark creates a fresh database `akwe_bench_<random>` on the same
 * server instead, points Akwe at it, and drops it afterwards.
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import pg from 'pg';

export interface BenchDatabase {
  /** URL of the fresh database (same server and credentials). */
  url: string;
  name: string;
  /** Server facts worth recording next to the figures (durability settings above all). */
  settings: Record<string, string>;
  /**
   * Runs ANALYZE on the database when the server's autovacuum is off (as on the development
   * machine), which would otherwise have analyzed tables that grew from nothing: without
   * statistics PostgreSQL may read a payment by reference through an index on the merchant alone
   * and filter every one of its payments. Says whether it ran.
   */
  analyzeIfAutovacuumOff(): Promise<boolean>;
  drop(): Promise<void>;
}

/** The server `npm run bench` tries when DATABASE_URL is unset: a local PostgreSQL, as the test instructions use. */
export const DEFAULT_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:/i.test(url);
}

/** Describes a URL without its password. */
export function safeUrl(url: string): string {
  const parsed = new URL(url);
  parsed.password = '';
  return parsed.toString();
}

/**
 * Whether the benchmark can use the server of `adminUrl`: null when it answers and the role may
 * create databases, else the reason (for the line that says PostgreSQL was skipped).
 */
export async function postgresUnavailableReason(adminUrl: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return `cannot connect to ${safeUrl(adminUrl)}: ${error instanceof Error ? error.message || (typeof code === 'string' ? code : error.name) : String(error)}`;
  }
  try {
    const { rows } = await client.query<{ allowed: boolean }>('select rolsuper or rolcreatedb as allowed from pg_roles where rolname = current_user');
    return rows[0]?.allowed ? null : `the role of ${safeUrl(adminUrl)} may not create databases`;
  } catch (error) {
    return `${safeUrl(adminUrl)} answered but: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function createBenchDatabase(adminUrl: string): Promise<BenchDatabase> {
  const name = `akwe_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const settings: Record<string, string> = {};
  try {
    for (const setting of ['server_version', 'fsync', 'synchronous_commit', 'wal_sync_method', 'full_page_writes', 'max_connections', 'autovacuum']) {
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
    async analyzeIfAutovacuumOff() {
      if (settings.autovacuum !== 'off') return false;
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await client.query('analyze');
      } finally {
        await client.end();
      }
      return true;
    },
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

/** After a phase: drops its PostgreSQL database (saying so, or why not) and removes its data folder. */
export async function cleanUpBenchData(database: BenchDatabase | undefined, dataDir: string | undefined, progress: (text: string) => void, label?: string): Promise<void> {
  const prefix = label ? `${label}: ` : '';
  if (database) {
    await database.drop().then(
      () => progress(`${prefix}dropped database ${database.name}`),
      (error: unknown) => progress(`${prefix}could not drop database ${database.name}: ${String(error)}`),
    );
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
