/**
 * Kysely's view of `SqliteGroupCommit`: the SQLite query compiler, adapter and introspector, with a
 * driver whose connections hand their statements to the group commit. Kysely's own SQLite driver
 * locks its one connection for every query; here only transactions and writes take the write lock,
 * and only for as long as they run, so the requests of one event-loop turn share a commit.
 */
import {
  type CompiledQuery,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';
import type { GroupTransaction, SqliteGroupCommit } from './group-commit.js';

class GroupCommitConnection implements DatabaseConnection {
  transaction: GroupTransaction | undefined;

  constructor(readonly groupCommit: SqliteGroupCommit) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const outcome = this.transaction ? this.groupCommit.runInTransaction(this.transaction, compiledQuery) : await this.groupCommit.run(compiledQuery);
    return outcome as QueryResult<R>;
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on SQLite; page through results instead');
  }
}

class GroupCommitDriver implements Driver {
  constructor(private readonly groupCommit: SqliteGroupCommit) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    // One handle per use: it only remembers whether it is in a transaction.
    return new GroupCommitConnection(this.groupCommit);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const handle = connection as GroupCommitConnection;
    if (handle.transaction) throw new Error('a transaction is already open on this connection');
    handle.transaction = await this.groupCommit.beginTransaction();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const handle = connection as GroupCommitConnection;
    const transaction = handle.transaction;
    if (!transaction) throw new Error('no transaction to commit');
    handle.transaction = undefined;
    await this.groupCommit.commitTransaction(transaction);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const handle = connection as GroupCommitConnection;
    const transaction = handle.transaction;
    if (!transaction) return;
    handle.transaction = undefined;
    await this.groupCommit.rollbackTransaction(transaction);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    // A transaction left open (its callback never settled) must not keep the write lock forever.
    await this.rollbackTransaction(connection);
  }

  async destroy(): Promise<void> {
    await this.groupCommit.close();
  }
}

/**
 * SQLite runs DDL inside transactions, so the migrator may run all pending migrations in one
 * transaction. That transaction holds the write lock, which is what keeps two simultaneous
 * `migrateToLatest` from applying a migration twice (Kysely's SQLite adapter relied on its driver
 * locking the one connection instead).
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

export class GroupCommitSqliteDialect implements Dialect {
  constructor(private readonly groupCommit: SqliteGroupCommit) {}

  createDriver(): Driver {
    return new GroupCommitDriver(this.groupCommit);
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return new TransactionalDdlSqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new SqliteIntrospector(db);
  }
}
