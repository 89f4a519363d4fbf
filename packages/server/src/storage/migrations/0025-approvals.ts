import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Maker-checker approvals (docs/dashboard.md "Approvals"). `approval_policies` holds, per merchant
 * and currency, the live amount above which money-out needs a second user; no row: no approval.
 * `approval_requests` keeps every dashboard submission of a payout or a batch execution, as
 * submitted, with who made it, who decided, and what its execution gave.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('approval_policies')
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('threshold_minor', 'bigint', (c) => c.notNull().check(sql`threshold_minor >= 0`))
    .addColumn('updated_by', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('approval_policies_pk', ['merchant_id', 'currency'])
    .execute();

  await db.schema
    .createTable('approval_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('test', 'live')`))
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('payout', 'batch')`))
    // The request as submitted: the payout's fields, or {"batch_id": …}, as JSON.
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    // 0: at or below the threshold, or in test: executed at submission without a second user.
    .addColumn('approval_required', 'integer', (c) => c.notNull())
    .addColumn('maker_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('pending', 'approved', 'executed', 'rejected', 'failed')`))
    .addColumn('decided_by', 'text', (c) => c.references('users.id'))
    .addColumn('decided_at', 'text')
    .addColumn('reason', 'text')
    // What the execution made: the payout's id, or the batch's id, and its status then.
    .addColumn('result_id', 'text')
    .addColumn('result_status', 'text')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // Lists: one merchant and environment, newest first, optionally one status.
  await db.schema.createIndex('approval_requests_list').on('approval_requests').columns(['merchant_id', 'environment', 'id']).execute();
  await db.schema.createIndex('approval_requests_status').on('approval_requests').columns(['merchant_id', 'environment', 'status', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('approval_requests').execute();
  await db.schema.dropTable('approval_policies').execute();
}
