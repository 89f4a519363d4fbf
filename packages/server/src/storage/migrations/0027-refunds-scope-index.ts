import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The merchant-wide refund list (GET /api/v1/collect/refunds) reads a scope's refunds newest
 * first: `refunds_scope_id` serves it as payments_scope_id serves the payment list. Refunds are
 * few beside payments, so the extra index entry per refund costs little.
 *
 * `refunds_payment` gains the scope's columns: a payment's refund list filters on the payment and
 * the scope, and with only `(payment_id, id)` SQLite's planner would rather take the new scope
 * index (two equalities against one) and walk all the merchant's refunds.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('refunds_scope_id').on('refunds').columns(['merchant_id', 'environment', 'id']).execute();
  await db.schema.dropIndex('refunds_payment').execute();
  await db.schema.createIndex('refunds_payment').on('refunds').columns(['payment_id', 'merchant_id', 'environment', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('refunds_payment').execute();
  await db.schema.createIndex('refunds_payment').on('refunds').columns(['payment_id', 'id']).execute();
  await db.schema.dropIndex('refunds_scope_id').execute();
}
