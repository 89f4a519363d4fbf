import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Provider floats (docs/operations.md "Floats"): what each live route's provider account held when
 * it was read. `route_float_readings` keeps every reading with its time; `route_floats` is one row
 * per route (`mtn_bj/mtn-momo`) with the last reading, whether it is under the route's threshold
 * (`low`, since `low_since`), when the administrators were told of this low spell (`alerted_at`),
 * the last failed read, and when the route is next due to be read (`next_read_at`: a worker claims
 * a route by moving it forward, so several workers never read one route twice in a period).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('route_floats')
    .addColumn('route_label', 'text', (c) => c.primaryKey())
    .addColumn('balance_minor', 'bigint')
    .addColumn('currency', 'text')
    .addColumn('read_at', 'text')
    .addColumn('threshold_minor', 'bigint')
    .addColumn('low', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`low in (0, 1)`),
    )
    .addColumn('low_since', 'text')
    .addColumn('alerted_at', 'text')
    .addColumn('last_error', 'text')
    .addColumn('last_error_at', 'text')
    .addColumn('next_read_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('route_float_readings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('route_label', 'text', (c) => c.notNull())
    .addColumn('balance_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('read_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('route_float_readings_route').on('route_float_readings').columns(['route_label', 'read_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('route_float_readings').execute();
  await db.schema.dropTable('route_floats').execute();
}
