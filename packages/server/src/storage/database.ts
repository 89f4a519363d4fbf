/**
 * Opens the one database the process uses: SQLite (better-sqlite3, a file) by default,
 * PostgreSQL (pg pool) for a postgres:// URL. Everything above this file speaks Kysely and
 * asks `capabilities`, never the dialect name.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, sql, type DatabaseConnection, type Driver, type SqliteDatabase, type SqliteDialectConfig, type SqliteStatement } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import type { Database } from './schema.js';

export interface DatabaseCapabilities {
  /** Row claims with FOR UPDATE SKIP LOCKED, so several processes can share work. */
  skipLocked: boolean;
  /** SELECT … FOR UPDATE locks single rows (SQLite instead locks the whole database per write transaction). */
  rowLocks: boolean;
  /** Several processes may write at once (PostgreSQL), as opposed to one writer at a time (SQLite). */
  concurrentWriters: boolean;
  /** Named schemas exist, so bookkeeping tables must be pinned to the connection's current schema. */
  schemas: boolean;
}

export interface AkweDatabase {
  readonly db: Kysely<Database>;
  readonly capabilities: DatabaseCapabilities;
  /** Human label for logs and test names: `sqlite:/path` or `postgres://host/db`, never a password. */
  readonly description: string;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL only: put every table in this schema (tests use one schema each). */
  postgresSchema?: string;
  /** PostgreSQL only: pool size. */
  poolSize?: number;
}

// int8 (bigint) columns hold centimes; they stay far below 2^53, so JS numbers are exact.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * SQLite transactions start with BEGIN IMMEDIATE: they take the write lock up front, so two
 * processes on one file (server and worker, or the CLI) wait for each other through busy_timeout
 * instead of failing with SQLITE_BUSY when a reading transaction tries to become a writing one.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

/**
 * Kysely prepares every SQLite statement again on each call; preparing is a tenth of the busy time
 * of a payment creation. Statements are reusable in better-sqlite3 (we never stream), so the last
 * few hundred are kept by their SQL text.
 */
export function withStatementCache(connection: BetterSqlite3.Database, capacity = 500): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    prepare(text: string): SqliteStatement {
      const cached = statements.get(text);
      if (cached) {
        // Most recently used last, so the first key is always the one to drop.
        statements.delete(text);
        statements.set(text, cached);
        return cached;
      }
      const statement = connection.prepare(text);
      statements.set(text, statement);
      if (statements.size > capacity) statements.delete(statements.keys().next().value!);
      return statement;
    },
    close: () => {
      statements.clear();
      connection.close();
    },
  };
}

function openSqlite(file: string): AkweDatabase {
  mkdirSync(dirname(file), { recursive: true });
  const connection = new BetterSqlite3(file);
  connection.pragma('journal_mode = WAL');
  // FULL makes every commit durable across power loss in WAL mode (NORMAL may lose the last ones).
  connection.pragma('synchronous = FULL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(connection) }) });
  return {
    db,
    capabilities: { skipLocked: false, rowLocks: false, concurrentWriters: false, schemas: false },
    description: `sqlite:${file}`,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

function openPostgres(url: string, options: OpenDatabaseOptions): AkweDatabase {
  const schema = options.postgresSchema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const safe = new URL(url);
  safe.password = '';
  return {
    db,
    capabilities: { skipLocked: true, rowLocks: true, concurrentWriters: true, schemas: true },
    description: `postgres://${safe.host}${safe.pathname}${schema ? `#${schema}` : ''}`,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

export function openDatabase(target: DatabaseTarget, options: OpenDatabaseOptions = {}): AkweDatabase {
  return target.kind === 'sqlite' ? openSqlite(target.file) : openPostgres(target.url, options);
}
