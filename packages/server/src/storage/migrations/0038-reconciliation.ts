import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** Every column of 0018's table, in its order: what is copied across the rebuild. */
const DISCREPANCY_COLUMNS_0018 = [
  'id',
  'merchant_id',
  'environment',
  'resource_type',
  'resource_id',
  'reference',
  'operator',
  'our_status',
  'operator_status',
  'operator_reference',
  'message',
  'created_at',
  'resolved_at',
  'resolution',
] as const;

/**
 * Reconciliation against providers' reports (docs/operations.md "Reconciliation").
 *
 * `operator_discrepancies` is made again, wider: a `kind` (`operator_answer` for the rows 0018 kept,
 * or `missing_at_provider`, `missing_at_akwe`, `amount_differs`, `status_differs`), the route, both
 * amounts, the currency and the run that found it; `merchant_id` and `resource_id` may be null (a
 * provider's line we have no record of belongs to no merchant we know). One row per kind, resource
 * and reported status as before, and one per kind, route and provider reference, so importing the
 * same report twice never doubles a discrepancy. The rebuild (new table, copy, drop, rename) is the
 * same on SQLite, which cannot drop a NOT NULL, and PostgreSQL.
 *
 * `reconciliation_runs` holds each run's summary; `reconciliation_lines` each line of it, ours and
 * theirs side by side, for its downloadable report.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('operator_discrepancies_next')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('kind', 'text', (col) => col.notNull().defaultTo('operator_answer'))
    .addColumn('merchant_id', 'text')
    .addColumn('environment', 'text', (col) => col.notNull())
    .addColumn('resource_type', 'text', (col) => col.notNull())
    .addColumn('resource_id', 'text')
    .addColumn('reference', 'text', (col) => col.notNull())
    .addColumn('operator', 'text', (col) => col.notNull())
    .addColumn('our_status', 'text', (col) => col.notNull())
    .addColumn('operator_status', 'text', (col) => col.notNull())
    .addColumn('operator_reference', 'text')
    .addColumn('message', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolution', 'text')
    .addColumn('route', 'text')
    .addColumn('currency', 'text')
    .addColumn('our_amount_minor', 'bigint')
    .addColumn('operator_amount_minor', 'bigint')
    .addColumn('reconciliation_run_id', 'text')
    .addUniqueConstraint('operator_discrepancies_answer_once', ['kind', 'resource_type', 'resource_id', 'operator_status'])
    .addUniqueConstraint('operator_discrepancies_line_once', ['kind', 'route', 'operator_reference'])
    .execute();
  const columns = DISCREPANCY_COLUMNS_0018.join(', ');
  await sql.raw(`insert into operator_discrepancies_next (${columns}) select ${columns} from operator_discrepancies`).execute(db);
  await db.schema.dropTable('operator_discrepancies').execute();
  await db.schema.alterTable('operator_discrepancies_next').renameTo('operator_discrepancies').execute();
  await db.schema.createIndex('operator_discrepancies_created').on('operator_discrepancies').columns(['created_at']).execute();

  await db.schema
    .createTable('reconciliation_runs')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('route', 'text', (col) => col.notNull())
    .addColumn('provider', 'text', (col) => col.notNull())
    .addColumn('environment', 'text', (col) => col.notNull())
    .addColumn('period_start', 'text', (col) => col.notNull())
    .addColumn('period_end', 'text', (col) => col.notNull())
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('file_name', 'text')
    .addColumn('file_sha256', 'text', (col) => col.notNull())
    .addColumn('line_count', 'integer', (col) => col.notNull())
    .addColumn('matched_count', 'integer', (col) => col.notNull())
    .addColumn('missing_at_provider_count', 'integer', (col) => col.notNull())
    .addColumn('missing_at_akwe_count', 'integer', (col) => col.notNull())
    .addColumn('amount_differs_count', 'integer', (col) => col.notNull())
    .addColumn('status_differs_count', 'integer', (col) => col.notNull())
    .addColumn('provider_collected_minor', 'bigint', (col) => col.notNull())
    .addColumn('provider_paid_out_minor', 'bigint', (col) => col.notNull())
    .addColumn('akwe_collected_minor', 'bigint', (col) => col.notNull())
    .addColumn('akwe_paid_out_minor', 'bigint', (col) => col.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addUniqueConstraint('reconciliation_runs_file_once', ['route', 'file_sha256'])
    .execute();
  await db.schema.createIndex('reconciliation_runs_created').on('reconciliation_runs').columns(['created_at', 'id']).execute();

  await db.schema
    .createTable('reconciliation_lines')
    .addColumn('run_id', 'text', (col) => col.notNull())
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('resource_type', 'text', (col) => col.notNull())
    .addColumn('resource_id', 'text')
    .addColumn('merchant_id', 'text')
    .addColumn('provider_reference', 'text')
    .addColumn('currency', 'text', (col) => col.notNull())
    .addColumn('akwe_amount_minor', 'bigint')
    .addColumn('provider_amount_minor', 'bigint')
    .addColumn('akwe_status', 'text')
    .addColumn('provider_status', 'text')
    .addColumn('occurred_at', 'text')
    .addColumn('discrepancy_id', 'text')
    .addPrimaryKeyConstraint('reconciliation_lines_pk', ['run_id', 'position'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('reconciliation_lines').execute();
  await db.schema.dropTable('reconciliation_runs').execute();
  await db.deleteFrom('operator_discrepancies').where('kind', '!=', 'operator_answer').execute();
  await db.schema
    .createTable('operator_discrepancies_before')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('merchant_id', 'text', (col) => col.notNull())
    .addColumn('environment', 'text', (col) => col.notNull())
    .addColumn('resource_type', 'text', (col) => col.notNull())
    .addColumn('resource_id', 'text', (col) => col.notNull())
    .addColumn('reference', 'text', (col) => col.notNull())
    .addColumn('operator', 'text', (col) => col.notNull())
    .addColumn('our_status', 'text', (col) => col.notNull())
    .addColumn('operator_status', 'text', (col) => col.notNull())
    .addColumn('operator_reference', 'text')
    .addColumn('message', 'text')
    .addColumn('created_at', 'text', (col) => col.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolution', 'text')
    .addUniqueConstraint('operator_discrepancies_once', ['resource_type', 'resource_id', 'operator_status'])
    .execute();
  const columns = DISCREPANCY_COLUMNS_0018.join(', ');
  await sql.raw(`insert into operator_discrepancies_before (${columns}) select ${columns} from operator_discrepancies`).execute(db);
  await db.schema.dropTable('operator_discrepancies').execute();
  await db.schema.alterTable('operator_discrepancies_before').renameTo('operator_discrepancies').execute();
  await db.schema.createIndex('operator_discrepancies_created').on('operator_discrepancies').columns(['created_at']).execute();
}
