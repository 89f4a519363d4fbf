import type BetterSqlite3 from 'better-sqlite3';

/**
 * Prepared statements of one better-sqlite3 connection, kept by SQL text (least recently used
 * dropped first). Preparing costs as much as running a small statement, and Kysely's own SQLite
 * driver prepares every statement again on each call. Statements are reusable because we never
 * leave one half-iterated.
 */
export class StatementCache {
  private readonly statements = new Map<string, BetterSqlite3.Statement>();

  constructor(
    readonly connection: BetterSqlite3.Database,
    private readonly capacity = 500,
  ) {
    if (!(capacity >= 1)) throw new RangeError(`statement cache capacity must be at least 1, got ${capacity}`);
  }

  prepare(text: string): BetterSqlite3.Statement {
    const cached = this.statements.get(text);
    if (cached) {
      // Most recently used last, so the first key is always the one to drop.
      this.statements.delete(text);
      this.statements.set(text, cached);
      return cached;
    }
    const statement = this.connection.prepare(text);
    this.statements.set(text, statement);
    if (this.statements.size > this.capacity) this.statements.delete(this.statements.keys().next().value!);
    return statement;
  }

  clear(): void {
    this.statements.clear();
  }
}
