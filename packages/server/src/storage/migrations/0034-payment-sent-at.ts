import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * `payments.operator_sent_at`: when the open operator call was last sent, kept once the call's
 * lease has been taken over (recovery, a retry). The first send's time is the lease's own start
 * (`operator_call_started_at`), so a payment whose call settles without being taken over never
 * writes it. Recovery trusts "the operator does not know this payment" as "never sent" only two
 * leases after this instant (docs/operators.md "Faults"), as payouts do with `sent_at`.
 * `refunds.sent_at`: the same for a refund sent again by recovery (null: its creation was its send).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('payments').addColumn('operator_sent_at', 'text').execute();
  await db.schema.alterTable('refunds').addColumn('sent_at', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('refunds').dropColumn('sent_at').execute();
  await db.schema.alterTable('payments').dropColumn('operator_sent_at').execute();
}
