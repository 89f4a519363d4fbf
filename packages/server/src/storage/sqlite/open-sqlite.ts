import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';
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

const isErrno = (error: unknown, code: string) => (error as NodeJS.ErrnoException | undefined)?.code === code;

/**
 * Files at rest: the database holds customers' phone numbers and API key hashes, so it is kept for
 * its owner only, whatever the umask. A missing folder is created 0700 (an existing one is left as
 * it is); a missing database file is created 0600 before SQLite opens it, and SQLite gives the -wal
 * and -shm files it creates the mode of the database file. Open-time only.
 */
function prepareDatabaseFile(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (error) {
    if (!isErrno(error, 'EEXIST')) throw error;
    ownerOnly(file);
  }
}

/**
 * Takes group and other permissions away from an existing file (an earlier version made them 0644),
 * never adding any. A file of another user (EPERM) is that user's choice and is left alone; so is
 * Windows, which has no such permission bits.
 */
function ownerOnly(path: string): void {
  if (process.platform === 'win32') return;
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return;
    throw error;
  }
  if ((mode & 0o077) === 0) return;
  try {
    chmodSync(path, mode & 0o700);
  } catch (error) {
    if (!isErrno(error, 'EPERM')) throw error;
  }
}

/** An in-memory or temporary database: no file of ours. */
const isFile = (file: string) => file !== '' && file !== ':memory:';

/**
 * SQLite through group commit (see group-commit.ts): a writer connection whose commits do not wait
 * for the disk (synchronous = NORMAL), made durable by a sync of the write-ahead log off the event
 * loop before anyone learns of them, and a reader connection for reads outside transactions.
 * One per file per process: a second writer in the same process would wait, blocking the thread,
 * on the first one's open batch.
 */
export function openSqlite(file: string, options: SqliteOptions = {}): OpenSqlite {
  if (isFile(file)) prepareDatabaseFile(file);
  // The writer first: it turns WAL on for the file before the reader opens it.
  const writer = openConnection(file);
  writer.pragma('synchronous = NORMAL');
  // Each transaction runs as a savepoint of the batch's transaction, so SQLite copies every page
  // it changes first into a statement journal, to undo that savepoint alone. In memory, that copy
  // costs no system calls; in a temporary file (past 64 KiB, SQLite's default) it cost two writes
  // per page, most of the kernel time a payment creation took.
  writer.pragma('temp_store = MEMORY');
  // SQLite sets the mode only on -wal and -shm files it creates; ones left over keep theirs.
  if (isFile(file)) for (const sidecar of [`${file}-wal`, `${file}-shm`]) ownerOnly(sidecar);
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
