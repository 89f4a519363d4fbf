import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Live money under operator faults (docs/operators.md "Faults"):
 * - `payments.expiry_grace_until`: a live payment the operator still held as pending when its
 *   lifetime ended is asked about again until this instant before it expires (null: no grace
 *   taken yet). The expiry worker's lookup skips a payment whose grace runs.
 * - `payouts.sent_at`: when the last send of the payout to its operator began; recovery trusts
 *   "the operator does not know this reference" as "never sent" only some time after it.
 * - `payouts_reversal_checks`: completed payouts whose operator can still reverse them are read
 *   again (their `next_check_at`), found through this index instead of a scan of every payout.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('payments').addColumn('expiry_grace_until', 'text').execute();
  await db.schema.alterTable('payouts').addColumn('sent_at', 'text').execute();
  await db.schema.createIndex('payouts_reversal_checks').on('payouts').column('next_check_at').where(sql.ref('status'), '=', sql.lit('COMPLETED')).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('payouts_reversal_checks').execute();
  await db.schema.alterTable('payouts').dropColumn('sent_at').execute();
  await db.schema.alterTable('payments').dropColumn('expiry_grace_until').execute();
}
