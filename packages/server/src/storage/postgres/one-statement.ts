/**
 * A recorded phase as ONE PostgreSQL statement: a chain of data-modifying CTEs (`with a as (insert …
 * returning 1), b as (update … where exists (select 1 from a) returning 1), …`). A single statement
 * is atomic on its own, so the phase needs no BEGIN and COMMIT, and makes one round trip instead of
 * one per write (docs/performance.md). PostgreSQL only (capability `oneStatementPhases`); SQLite
 * runs the same phase as a transaction of several statements, which costs it no round trip.
 *
 * Each write that may find nothing to do (a claim held by someone else, a version that moved on)
 * is a **gate**: it returns one row when it wrote, and every later write of the chain is made only
 * `where exists (select 1 from <gate>)`. So a gate that writes nothing stops the whole chain, and the
 * final select reports each gate's row count, from which the caller tells what stopped it (exactly
 * the error the transaction would have thrown at that write, which would have rolled back the rest).
 *
 * Values are always bound parameters, never SQL text; the text depends only on the shape of the
 * phase (which writes, how many rows), so each shape becomes one named prepared statement.
 */
import { CompiledQuery } from 'kysely';

export class OneStatement {
  private readonly parameters: unknown[] = [];
  private readonly ctes: string[] = [];
  private readonly gates: string[] = [];
  private gate: string | undefined;

  /** A bound parameter for `value`; `cast` for a context that does not give it a type (VALUES lists). */
  param(value: unknown, cast?: string): string {
    this.parameters.push(value);
    return cast ? `$${this.parameters.length}::${cast}` : `$${this.parameters.length}`;
  }

  /** The gate later writes are guarded by (undefined: none yet). */
  get currentGate(): string | undefined {
    return this.gate;
  }

  /**
   * Starts another chain from `gate` (undefined: unguarded): the writes of several requests share
   * one statement, each chain guarded by its own gates and only by those.
   */
  from(gate: string | undefined): void {
    this.gate = gate;
  }

  /** The condition every write after the last gate must carry (`true` when there is no gate yet). */
  get guard(): string {
    return this.gate ? `exists (select 1 from ${quote(this.gate)})` : 'true';
  }

  /** Adds a CTE; a gate (returning one row when it wrote) guards every write added after it. */
  add(name: string, body: string, options: { gate?: boolean } = {}): void {
    this.ctes.push(`${quote(name)} as (${body})`);
    if (options.gate) {
      this.gate = name;
      this.gates.push(name);
    }
  }

  /** `insert into table (columns) select values where <guard>` for one row. */
  insertRow(table: string, row: Record<string, unknown>, returning?: string): string {
    const columns = Object.keys(row);
    const values = columns.map((column) => this.param(row[column]));
    return `insert into ${quote(table)} (${columns.map(quote).join(', ')}) select ${values.join(', ')} where ${this.guard}${returning ? ` returning ${returning}` : ''}`;
  }

  /** The statement: its final select counts the rows of each gate (`<gate name>` columns, integers). */
  compile(): CompiledQuery<Record<string, number>> {
    const counts = this.gates.length === 0 ? '1 as "none"' : this.gates.map((gate) => `(select count(*) from ${quote(gate)})::int as ${quote(gate)}`).join(', ');
    return CompiledQuery.raw(`with ${this.ctes.join(', ')} select ${counts}`, this.parameters) as CompiledQuery<Record<string, number>>;
  }
}

export function quote(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}
