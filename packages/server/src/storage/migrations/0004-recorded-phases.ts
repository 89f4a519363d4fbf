import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Recorded phases (docs/architecture.md "Recorded phases"): an idempotency claim is held under a
 * lease and remembers how far its request got; a payment remembers the operator call in flight.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('idempotency_records').addColumn('lease_token', 'text').execute();
  // Until this instant the claim's holder is presumed alive; after it, a retry may take over.
  await db.schema.alterTable('idempotency_records').addColumn('locked_until', 'text').execute();
  await db.schema
    .alterTable('idempotency_records')
    .addColumn('recovery_point', 'text', (c) =>
      c
        .notNull()
        .defaultTo('started')
        .check(sql`recovery_point in ('started', 'operator_call_started', 'finished')`),
    )
    .execute();
  // What the request created (a payment's or a refund's id), so a takeover resumes that very resource.
  await db.schema.alterTable('idempotency_records').addColumn('resource_id', 'text').execute();

  // Which operator call is in flight for the payment (null: none) and since when (its lease).
  await db.schema
    .alterTable('payments')
    .addColumn('operator_call', 'text', (c) => c.check(sql`operator_call in ('start_collection', 'pay_checkout', 'confirm_otp')`))
    .execute();
  await db.schema.alterTable('payments').addColumn('operator_call_started_at', 'text').execute();
  // The recovery worker looks for calls left open past their lease; few rows ever have one.
  await db.schema.createIndex('payments_open_calls').on('payments').column('operator_call_started_at').where(sql.ref('operator_call_started_at'), 'is not', null).execute();
  // Pending refunds are the refunds' recovery points: the worker finds the abandoned ones here.
  await db.schema.createIndex('refunds_pending').on('refunds').column('updated_at').where(sql.ref('status'), '=', 'pending').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('refunds_pending').execute();
  await db.schema.dropIndex('payments_open_calls').execute();
  for (const column of ['operator_call_started_at', 'operator_call']) await db.schema.alterTable('payments').dropColumn(column).execute();
  for (const column of ['resource_id', 'recovery_point', 'locked_until', 'lease_token']) await db.schema.alterTable('idempotency_records').dropColumn(column).execute();
}
