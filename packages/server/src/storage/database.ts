/**
 * Opens the one database the process uses: SQLite (better-sqlite3, a file) by default,
 * PostgreSQL (pg pool) for a postgres:// URL. Everything above this file speaks Kysely and
 * asks `capabilities`, never the dialect name.
 */
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import type { DatabaseTarget } from '../config.js';
import type { Database } from './schema.js';
import { openSqlite } from './sqlite/open-sqlite.js';
import { CurrentSchemaPostgresDialect } from './postgres/current-schema-dialect.js';
import { NamedStatementClient } from './postgres/named-statement-client.js';
import { postgresWorkNotifications, type WorkNotifications } from './postgres/work-notifications.js';

export interface DatabaseCapabilities {
  /** Row claims with FOR UPDATE SKIP LOCKED, so several processes can share work. */
  skipLocked: boolean;
  /** SELECT … FOR UPDATE locks single rows (SQLite instead locks the whole database per write transaction). */
  rowLocks: boolean;
  /** Several processes may write at once (PostgreSQL), as opposed to one writer at a time (SQLite). */
  concurrentWriters: boolean;
  /** Named schemas exist, so bookkeeping tables must be pinned to the connection's current schema. */
  schemas: boolean;
  /**
   * A phase's writes can be one statement (data-modifying WITH), atomic without BEGIN and COMMIT,
   * so a phase is one round trip to the server (PostgreSQL). SQLite, in-process, pays nothing per
   * statement and runs phases as transactions.
   */
  oneStatementPhases: boolean;
  /**
   * The process's transactions run one after another in the order they began (SQLite's write
   * lock), and a worker's transaction sees what an earlier one wrote. So work can be signalled from
   * inside the transaction that makes it due: a worker woken then waits for that transaction and
   * reads its rows, instead of learning of them only once their commit is on disk (a sync later).
   * On PostgreSQL a transaction begun before another commits does not see its rows: signals wait
   * for the commit.
   */
  signalsBeforeCommit: boolean;
}

export interface AkweDatabase {
  readonly db: Kysely<Database>;
  readonly capabilities: DatabaseCapabilities;
  /** Human label for logs and test names: `sqlite:/path` or `postgres://host/db`, never a password. */
  readonly description: string;
  ping(): Promise<void>;
  /**
   * Calls `listener` once the database can no longer be trusted with a write (SQLite: a failed
   * sync of the log); the process should then stop and be restarted. Never on PostgreSQL, where
   * the server keeps durability and a lost connection is replaced.
   */
  onFatal(listener: (error: Error) => void): void;
  /** The connections open now, for the metrics (read on each scrape, so cheap). */
  connections(): ConnectionCounts;
  /** Notifications between processes sharing the database (PostgreSQL); absent on SQLite, whose one process needs none. */
  readonly notifications?: WorkNotifications;
  close(): Promise<void>;
}

/**
 * PostgreSQL: the pool's own figures. SQLite: its one connection, always open; who waits for the
 * write lock is the group commit's affair, so `idle` and `waiting` are not known there.
 */
export interface ConnectionCounts {
  max: number;
  total: number;
  idle?: number;
  waiting?: number;
}

export interface OpenDatabaseOptions {
  /** PostgreSQL only: put every table in this schema (tests use one schema each). */
  postgresSchema?: string;
  /** PostgreSQL only: pool size. */
  poolSize?: number;
  /**
   * SQLite only: checkpoint the write-ahead log on a thread of its own, for long-running processes
   * (server, worker); short-lived commands leave it to the writer.
   */
  backgroundCheckpoints?: boolean;
  /** SQLite only, for tests: replaces the sync of the write-ahead log (to make the disk fail). */
  sqliteSyncToDisk?: () => Promise<void>;
}

// int8 (bigint) columns hold centimes; they stay far below 2^53, so JS numbers are exact.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

function openSqliteDatabase(file: string, options: OpenDatabaseOptions): AkweDatabase {
  const { db, durability, close } = openSqlite(file, { backgroundCheckpoints: options.backgroundCheckpoints ?? false, syncToDisk: options.sqliteSyncToDisk });
  return {
    db,
    capabilities: { skipLocked: false, rowLocks: false, concurrentWriters: false, schemas: false, oneStatementPhases: false, signalsBeforeCommit: true },
    description: `sqlite:${file}`,
    async ping() {
      await sql`select 1`.execute(db);
    },
    onFatal: (listener) => durability.onFailure(listener),
    connections: () => ({ max: 1, total: 1 }),
    close,
  };
}

function openPostgres(url: string, options: OpenDatabaseOptions): AkweDatabase {
  const schema = options.postgresSchema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name ${schema}`);
  const poolSize = options.poolSize ?? 10;
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    Client: NamedStatementClient,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new CurrentSchemaPostgresDialect({ pool }) });
  const safe = new URL(url);
  safe.password = '';
  return {
    db,
    capabilities: { skipLocked: true, rowLocks: true, concurrentWriters: true, schemas: true, oneStatementPhases: true, signalsBeforeCommit: false },
    description: `postgres://${safe.host}${safe.pathname}${schema ? `#${schema}` : ''}`,
    notifications: postgresWorkNotifications(db, url, schema),
    async ping() {
      await sql`select 1`.execute(db);
    },
    onFatal() {},
    connections: () => ({ max: poolSize, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    async close() {
      await db.destroy();
    },
  };
}

export function openDatabase(target: DatabaseTarget, options: OpenDatabaseOptions = {}): AkweDatabase {
  return target.kind === 'sqlite' ? openSqliteDatabase(target.file, options) : openPostgres(target.url, options);
}
