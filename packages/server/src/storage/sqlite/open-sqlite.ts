import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { BackgroundCheckpoints } from './background-checkpoints.js';
import { CommitDurability } from './commit-durability.js';
import { SqliteGroupCommit } from './group-commit.js';
import { GroupCommitSqliteDialect } from './group-commit-dialect.js';
import { WalFileSync } from './wal-file-sync.js';

export interface SqliteOptions {
  /** Checkpoint the log on a thread of its own (long-running processes). */
  backgroundCheckpoints?: boolean;
  /** Makes every commit so far durable; the WAL file's fdatasync unless a test says otherwise. */
  syncToDisk?: () => Promise<void>;
}

export interface OpenSqlite {
  db: Kysely<Database>;
  groupCommit: SqliteGroupCommit;
  durability: CommitDurability;
  checkpoints: BackgroundCheckpoints | undefined;
  close(): Promise<void>;
}

function openConnection(file: string): BetterSqlite3.Database {
  const connection = new BetterSqlite3(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('foreign_keys = ON');
  // Another process (the CLI, a separate worker) may hold the write lock for a moment.
  connection.pragma('busy_timeout = 5000');
  return connection;
}

/**
 * SQLite through group commit (see group-commit.ts): a writer connection whose commits do not wait
 * for the disk (synchronous = NORMAL), made durable by a sync of the write-ahead log off the event
 * loop before anyone learns of them, and a reader connection for reads outside transactions.
 * One per file per process: a second writer in the same process would wait, blocking the thread,
 * on the first one's open batch.
 */
export function openSqlite(file: string, options: SqliteOptions = {}): OpenSqlite {
  mkdirSync(dirname(file), { recursive: true });
  // The writer first: it turns WAL on for the file before the reader opens it.
  const writer = openConnection(file);
  writer.pragma('synchronous = NORMAL');
  const reader = openConnection(file);
  reader.pragma('query_only = ON');
  const walSync = new WalFileSync(file);
  const durability = new CommitDurability(options.syncToDisk ?? (() => walSync.sync()));
  const groupCommit = new SqliteGroupCommit(writer, reader, durability);
  const checkpoints = options.backgroundCheckpoints ? new BackgroundCheckpoints(file, writer) : undefined;
  const db = new Kysely<Database>({ dialect: new GroupCommitSqliteDialect(groupCommit) });
  return {
    db,
    groupCommit,
    durability,
    checkpoints,
    async close() {
      // The checkpoint thread's connection goes first, so the writer closes last and removes the log.
      await checkpoints?.stop();
      await db.destroy();
      walSync.close();
    },
  };
}
