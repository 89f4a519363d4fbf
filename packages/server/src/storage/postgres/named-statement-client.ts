import { createHash } from 'node:crypto';
import pg from 'pg';

/** Runs of one SQL text after which it becomes a named statement. */
const RUNS_BEFORE_NAMING = 2;
/** Named statements per process (each connection keeps those it has run); later texts stay unnamed. */
const MAX_NAMED_STATEMENTS = 256;
/**
 * Starts a text that must be planned on every run: PostgreSQL would otherwise settle on a generic
 * plan made while its tables were small (a hash join over a sequential scan) and keep it as they grow.
 */
export const PLAN_EACH_RUN = '/* planned each run */ ';

/**
 * Which SQL texts run often enough to deserve a server-side prepared statement, and their names.
 * Kysely binds every value as a parameter, so the texts are the code's query shapes: few, and the
 * same on every request.
 */
class StatementNames {
  private readonly runs = new Map<string, number>();
  private readonly names = new Map<string, string>();

  nameFor(text: string): string | undefined {
    if (text.startsWith(PLAN_EACH_RUN)) return undefined;
    const name = this.names.get(text);
    if (name || this.names.size >= MAX_NAMED_STATEMENTS) return name;
    const runs = (this.runs.get(text) ?? 0) + 1;
    if (runs < RUNS_BEFORE_NAMING) {
      if (this.runs.size < MAX_NAMED_STATEMENTS * 4) this.runs.set(text, runs);
      return undefined;
    }
    this.runs.delete(text);
    const named = `akwe_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    this.names.set(text, named);
    return named;
  }
}

const statementNames = new StatementNames();

/**
 * A pg client that runs the statements Akwe repeats as named prepared statements: PostgreSQL then
 * parses and plans each once per connection and afterwards only binds and executes it, which
 * takes about a quarter off a payment creation's cost on the database. Kysely calls
 * `query(text, values)`; every other form passes through unchanged.
 */
export class NamedStatementClient extends pg.Client {
  // pg's overloads make a typed override impractical; Kysely's call is (text, values).
  override query(...args: unknown[]): never {
    const [text, values] = args;
    const run = super.query as (...a: unknown[]) => never;
    if (args.length === 2 && typeof text === 'string' && Array.isArray(values)) {
      const name = statementNames.nameFor(text);
      if (name) return run.call(this, { name, text, values });
    }
    return run.apply(this, args);
  }
}
