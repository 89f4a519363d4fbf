import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Search by phone (the `phone` filter of the payment and payout lists; the dashboard's search):
 * a scope's rows of one number, newest first, read through an index rather than by walking the
 * merchant's history. One more index entry per payment and payout created (measured in
 * docs/decisions.md "Dashboard").
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('payments_scope_phone').on('payments').columns(['merchant_id', 'environment', 'phone', 'id']).execute();
  await db.schema.createIndex('payouts_scope_phone').on('payouts').columns(['merchant_id', 'environment', 'phone', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('payouts_scope_phone').execute();
  await db.schema.dropIndex('payments_scope_phone').execute();
}
