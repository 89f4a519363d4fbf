import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The merchant-wide refund list (GET /api/v1/collect/refunds) reads a scope's refunds newest
 * first: this index serves it as payments_scope_id serves the payment list. Refunds are few
 * beside payments, so the extra index entry per refund costs little.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('refunds_scope_id').on('refunds').columns(['merchant_id', 'environment', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('refunds_scope_id').execute();
}
