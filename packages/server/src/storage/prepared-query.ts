import type { CompiledQuery, Compilable, Insertable, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema.js';

/** Stands in for an argument while the query is built; each run puts the real value in its place. */
class Placeholder {
  constructor(readonly position: number) {}
}

/** The compiled statement with each placeholder replaced by the value for its position. */
function bind<Row>(template: CompiledQuery<Row>, valueAt: (position: number) => unknown): CompiledQuery<Row> {
  return { ...template, parameters: template.parameters.map((p) => (p instanceof Placeholder ? valueAt(p.position) : p)) };
}

/**
 * A query built and compiled by Kysely once, then run many times with new values.
 *
 * Building and compiling a Kysely query costs more than SQLite takes to run it (15–20 µs against
 * 5–30 µs), and the hottest queries (authentication, idempotency, payment creation) have a fixed
 * shape. `build` is called once with placeholders for its arguments; Kysely passes them through as
 * bound parameters, and each run swaps in the real values. So `build` must use each argument as a
 * plain value (`where(column, '=', arg)`, `values({ column: arg })`), never inspect or branch on it.
 * The SQL is compiled for the given database's dialect: keep one PreparedQuery per database.
 */
export class PreparedQuery<Args extends unknown[], Row> {
  private readonly template: CompiledQuery<Row>;

  constructor(db: Kysely<Database>, build: (db: Kysely<Database>, ...args: Args) => Compilable<Row>) {
    // build.length counts the database too; default values or rest arguments would hide arguments.
    const placeholders = Array.from({ length: build.length - 1 }, (_, position) => new Placeholder(position));
    this.template = build(db, ...(placeholders as unknown as Args)).compile();
    const used = new Set(this.template.parameters.filter((p) => p instanceof Placeholder).map((p) => (p as Placeholder).position));
    if (used.size !== placeholders.length) throw new Error(`prepared query uses ${used.size} of its ${placeholders.length} arguments: ${this.template.sql}`);
  }

  get sql(): string {
    return this.template.sql;
  }

  /** Runs on `executor`: the database it was built for, or a transaction of it. */
  execute(executor: Kysely<Database>, ...args: Args): Promise<QueryResult<Row>> {
    return executor.executeQuery(bind(this.template, (position) => args[position]));
  }

  async first(executor: Kysely<Database>, ...args: Args): Promise<Row | undefined> {
    return (await this.execute(executor, ...args)).rows[0];
  }
}

/** Statement shapes kept per table; rows of other shapes are built afresh each time. */
const MAX_INSERT_SHAPES = 32;

/**
 * INSERTs of whole rows into one table, compiled once per shape (row count and columns), for the
 * inserts every payment creation makes. The values are bound, never built into the SQL.
 */
export class PreparedInsert<T extends keyof Database & string> {
  private readonly shapes = new Map<string, { template: CompiledQuery; columns: string[] }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly table: T,
  ) {}

  /** Inserts `rows` (at least one; all with the same columns, in the same order) through `executor`. */
  async execute(executor: Kysely<Database>, rows: readonly Insertable<Database[T]>[]): Promise<QueryResult<unknown>> {
    if (rows.length === 0) throw new RangeError('PreparedInsert needs at least one row');
    const columns = Object.keys(rows[0]!);
    const shape = `${rows.length}:${columns.join(',')}`;
    let prepared = this.shapes.get(shape);
    if (!prepared) {
      const placeholderRows = rows.map((_, row) => Object.fromEntries(columns.map((column, index) => [column, new Placeholder(row * columns.length + index)])));
      const template = this.db
        .insertInto(this.table)
        .values(placeholderRows as Insertable<Database[T]>[])
        .compile();
      prepared = { template, columns };
      if (this.shapes.size < MAX_INSERT_SHAPES) this.shapes.set(shape, prepared);
    }
    const { template, columns: names } = prepared;
    const width = names.length;
    return executor.executeQuery(bind(template, (position) => (rows[Math.floor(position / width)] as Record<string, unknown>)[names[position % width]!]));
  }
}

/**
 * UPDATEs of one table that set the given columns where the given columns equal the given values,
 * compiled once per shape (the column names of both), like PreparedInsert. For the version-checked
 * payment update every phase after the first makes.
 */
export class PreparedUpdate<T extends keyof Database & string> {
  private readonly shapes = new Map<string, { template: CompiledQuery; columns: string[] }>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly table: T,
  ) {}

  /** `update table set <set> where <column = value for each of where>` through `executor`. */
  async execute(executor: Kysely<Database>, set: Record<string, unknown>, where: Record<string, unknown>): Promise<QueryResult<unknown>> {
    const setColumns = Object.keys(set);
    const whereColumns = Object.keys(where);
    const shape = `${setColumns.join(',')}|${whereColumns.join(',')}`;
    let prepared = this.shapes.get(shape);
    if (!prepared) {
      const placeholders = Object.fromEntries(setColumns.map((column, index) => [column, new Placeholder(index)]));
      // Kysely's typed builder cannot follow columns chosen at run time; the names come from our own row mappers.
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      let query = (this.db as Kysely<any>).updateTable(this.table as string).set(placeholders);
      whereColumns.forEach((column, index) => {
        query = query.where(column, '=', new Placeholder(setColumns.length + index));
      });
      prepared = { template: query.compile(), columns: [...setColumns, ...whereColumns] };
      if (this.shapes.size < MAX_INSERT_SHAPES) this.shapes.set(shape, prepared);
    }
    const values = [...setColumns.map((column) => set[column]), ...whereColumns.map((column) => where[column])];
    return executor.executeQuery(bind(prepared.template, (position) => values[position]));
  }
}
