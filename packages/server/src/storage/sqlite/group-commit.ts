/**
 * Group commit for SQLite: every commit durable, but far fewer commits and no fsync on the event
 * loop.
 *
 * better-sqlite3 is synchronous, so a commit per transaction, each waiting for the disk, used to
 * stall the whole server. Here the writer connection keeps one SQLite transaction open per turn of
 * the event loop (a batch): each Kysely transaction, and each write made outside one, runs inside
 * it (a transaction as a savepoint), one at a time (the write lock), and the batch commits in a
 * setImmediate callback once the turn's work is done. The commit itself does not wait for the
 * disk; `CommitDurability` syncs the write-ahead log off the event loop, once for many commits.
 *
 * Nobody acts on data that is not durable yet:
 * - a write's result, a transaction's commit and a transaction's rollback are all delivered only
 *   after the batch they ran in is on disk (or failed: then every write of the batch fails);
 * - reads outside a transaction use a second connection, which sees committed data only, and their
 *   result waits until what they saw is on disk too (no wait at all when nothing is pending). They
 *   never wait for a batch to commit: what they see is what PostgreSQL's read committed shows.
 * Reads inside a transaction see the batch so far, and whatever they decide commits with it.
 */
import type BetterSqlite3 from 'better-sqlite3';
import type { CommitDurability } from './commit-durability.js';
import { StatementCache } from './statement-cache.js';
import { WriteLock } from './write-lock.js';

export interface SqlStatement {
  readonly sql: string;
  readonly parameters: readonly unknown[];
}

export interface StatementOutcome {
  rows: unknown[];
  numAffectedRows?: bigint;
  insertId?: bigint;
}

/** A transaction handed out by `beginTransaction`, to be ended once by commit or rollback. */
export interface GroupTransaction {
  readonly batch: Batch;
  ended: boolean;
}

/** One SQLite transaction shared by the writes of one event-loop turn. */
class Batch {
  readonly durable: Promise<void>;
  writes = 0;
  private settle!: (error?: unknown) => void;

  constructor() {
    this.durable = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // A batch nobody waits on (all its writers gone) must not become an unhandled rejection.
    this.durable.catch(() => {});
  }

  committed(): void {
    this.settle();
  }

  failed(error: unknown): void {
    this.settle(error ?? new Error('group commit failed'));
  }
}

const TRANSACTION_SAVEPOINT = 'akwe_group_tx';
const CLOSED = 'the SQLite database is closed';
/** Session statements cannot run inside the batch's transaction: the batch is committed first. */
const SESSION_STATEMENT = /^\s*(pragma|vacuum|attach|detach)\b/i;
/** Transaction control belongs to this class; a raw BEGIN or COMMIT would break the batch. */
const TRANSACTION_CONTROL = /^\s*(begin|commit|end|rollback|savepoint|release)\b/i;

export interface GroupCommitStats {
  /** Batches committed. */
  commits: number;
  /** Writes (transactions and single statements) those batches held. */
  writes: number;
}

export class SqliteGroupCommit {
  private readonly writes: StatementCache;
  private readonly reads: StatementCache;
  private readonly lock = new WriteLock();
  private batch: Batch | undefined;
  private commitScheduled = false;
  private closed = false;
  readonly stats: GroupCommitStats = { commits: 0, writes: 0 };

  /**
   * @param writer the only connection that writes, in WAL mode
   * @param reader a second connection on the same file, for reads outside transactions
   * @param durability tells when a commit of the writer is on disk
   */
  constructor(
    writer: BetterSqlite3.Database,
    reader: BetterSqlite3.Database,
    private readonly durability: CommitDurability,
  ) {
    this.writes = new StatementCache(writer);
    this.reads = new StatementCache(reader);
  }

  /** Writes in the batch not committed yet. */
  get pendingWrites(): number {
    return this.batch?.writes ?? 0;
  }

  /** A statement outside any transaction: a read at once on the reader, a write in the current batch. */
  async run(statement: SqlStatement): Promise<StatementOutcome> {
    this.assertOpen();
    const { sql, parameters } = statement;
    if (TRANSACTION_CONTROL.test(sql)) throw new Error(`use db.transaction() instead of a raw "${sql.trim().split(/\s/)[0]}"`);
    if (SESSION_STATEMENT.test(sql)) return this.runBetweenBatches(statement);
    const prepared = this.writes.prepare(sql);
    if (prepared.readonly) {
      const seen = this.durability.latestCommit;
      const outcome = execute(this.reads.prepare(sql), parameters);
      if (!this.durability.isDurable(seen)) await this.durability.waitFor(seen);
      return outcome;
    }

    await this.lock.acquire();
    if (this.closed) return this.refuseAfterClose();
    let batch: Batch;
    let outcome: StatementOutcome | undefined;
    let failure: unknown;
    try {
      batch = this.openBatch();
      try {
        outcome = execute(prepared, parameters);
        batch.writes += 1;
      } catch (error) {
        failure = error;
        this.noticeLostBatch(error);
      }
    } finally {
      this.releaseLock();
    }
    if (failure !== undefined) {
      // Reported once the batch is settled: the failure may stem from another write in it.
      await batch.durable.catch(() => {});
      throw failure;
    }
    await batch.durable;
    return outcome!;
  }

  async beginTransaction(): Promise<GroupTransaction> {
    this.assertOpen();
    // No await at all when no sync runs: transactions keep the order they were begun in.
    const sync = this.betweenSyncs();
    if (sync) await sync;
    await this.lock.acquire();
    if (this.closed) return this.refuseAfterClose();
    try {
      const batch = this.openBatch();
      this.writes.prepare(`savepoint ${TRANSACTION_SAVEPOINT}`).run();
      return { batch, ended: false };
    } catch (error) {
      this.releaseLock();
      throw error;
    }
  }

  /** A statement inside `transaction`: runs at once, on the writer, seeing the batch so far. */
  runInTransaction(transaction: GroupTransaction, statement: SqlStatement): StatementOutcome {
    if (transaction.ended) throw new Error('transaction already ended');
    if (!this.holds(transaction)) throw new Error('SQLite rolled back this transaction after an earlier error');
    try {
      return execute(this.writes.prepare(statement.sql), statement.parameters);
    } catch (error) {
      this.noticeLostBatch(error);
      throw error;
    }
  }

  async commitTransaction(transaction: GroupTransaction): Promise<void> {
    this.end(transaction);
    try {
      if (this.holds(transaction)) {
        try {
          this.writes.prepare(`release ${TRANSACTION_SAVEPOINT}`).run();
          transaction.batch.writes += 1;
        } catch (error) {
          this.undo(transaction);
          throw error;
        }
      }
    } finally {
      this.releaseLock();
    }
    // Rejects when the batch failed, including when SQLite had already rolled it back.
    await transaction.batch.durable;
  }

  async rollbackTransaction(transaction: GroupTransaction): Promise<void> {
    if (transaction.ended) return;
    this.end(transaction);
    try {
      this.undo(transaction);
    } finally {
      this.releaseLock();
    }
    // What made the caller roll back may be another write of the batch: report once it is settled,
    // so a retry reads that write through the reader.
    await transaction.batch.durable.catch(() => {});
  }

  /**
   * Resolves once no sync of the write-ahead log is running (at once when none is). Transactions
   * start between syncs: those that arrive during one wait for its end and then run together, and
   * the batch they form commits at once. Measured (docs/performance.md, "SQLite: group commit"):
   * without the wait, creation cost about a quarter more CPU, storage replay included.
   */
  private betweenSyncs(): Promise<void> | undefined {
    if (!this.durability.syncing) return undefined;
    return new Promise((resolve) => this.durability.whenSyncEnds(resolve));
  }

  /** Commits what is pending and closes both connections; later calls fail. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.lock.acquire();
    try {
      this.commitNow();
      // Whatever was committed reaches the disk before the connections close (a failure is the
      // writers' to report: they are waiting on it).
      await this.durability.waitFor(this.durability.latestCommit).catch(() => {});
      this.closed = true;
      this.writes.clear();
      this.reads.clear();
      this.reads.connection.close();
      this.writes.connection.close();
    } finally {
      this.lock.release();
    }
  }

  private async runBetweenBatches(statement: SqlStatement): Promise<StatementOutcome> {
    await this.lock.acquire();
    if (this.closed) return this.refuseAfterClose();
    try {
      this.commitNow();
      return execute(this.writes.prepare(statement.sql), statement.parameters);
    } finally {
      this.releaseLock();
    }
  }

  private openBatch(): Batch {
    if (this.batch) return this.batch;
    // IMMEDIATE takes the write lock up front: another process on the file (the CLI, a separate
    // worker) waits through busy_timeout instead of failing halfway through.
    this.writes.prepare('begin immediate').run();
    const batch = new Batch();
    this.batch = batch;
    this.scheduleCommit();
    return batch;
  }

  private scheduleCommit(): void {
    if (this.commitScheduled || !this.batch) return;
    this.commitScheduled = true;
    setImmediate(() => {
      // A transaction still open (awaiting something between its statements) holds the batch;
      // releaseLock schedules the commit again when it ends.
      if (this.lock.isHeld) {
        this.commitScheduled = false;
        return;
      }
      // While the disk syncs earlier commits, a commit now would wait for that sync and the next
      // one anyway: the batch stays open and gathers more writes until the sync ends.
      this.durability.whenSyncEnds(() => {
        this.commitScheduled = false;
        if (!this.lock.isHeld) this.commitNow();
        else this.scheduleCommit();
      });
    });
  }

  private commitNow(): void {
    const batch = this.batch;
    if (!batch) return;
    this.batch = undefined;
    try {
      this.writes.prepare('commit').run();
    } catch (error) {
      if (this.writes.connection.inTransaction) {
        try {
          this.writes.prepare('rollback').run();
        } catch {
          // Nothing more to undo: the batch fails either way.
        }
      }
      batch.failed(error);
      return;
    }
    this.stats.commits += 1;
    this.stats.writes += batch.writes;
    this.durability.waitFor(this.durability.recordCommit()).then(
      () => batch.committed(),
      (error: unknown) => batch.failed(error),
    );
  }

  private releaseLock(): void {
    this.lock.release();
    if (!this.lock.isHeld) this.scheduleCommit();
  }

  /** Some errors (disk full, I/O) make SQLite roll back the whole transaction: the batch is lost. */
  private noticeLostBatch(cause: unknown): void {
    if (!this.batch || this.writes.connection.inTransaction) return;
    const lost = this.batch;
    this.batch = undefined;
    lost.failed(new Error('SQLite rolled back the group commit after an error', { cause }));
  }

  /** The transaction's savepoint is still open in the current batch. */
  private holds(transaction: GroupTransaction): boolean {
    return this.batch === transaction.batch && this.writes.connection.inTransaction;
  }

  private undo(transaction: GroupTransaction): void {
    if (!this.holds(transaction)) return;
    this.writes.prepare(`rollback to ${TRANSACTION_SAVEPOINT}`).run();
    this.writes.prepare(`release ${TRANSACTION_SAVEPOINT}`).run();
  }

  private end(transaction: GroupTransaction): void {
    if (transaction.ended) throw new Error('transaction already ended');
    transaction.ended = true;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(CLOSED);
  }

  /** For a caller that waited for the lock while close() held it. */
  private refuseAfterClose(): never {
    this.lock.release();
    throw new Error(CLOSED);
  }
}

function execute(statement: BetterSqlite3.Statement, parameters: readonly unknown[]): StatementOutcome {
  if (statement.reader) return { rows: statement.all(parameters) };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
}
