import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * `payments_payment_link` holds only the payments made through a link. Every query that reads it
 * names a link (`payment_link_id = …` or `in (…)`, which both databases know excludes null), so
 * nothing is lost, and a payment made without a link (nearly all of them) writes one index entry
 * fewer. It also stops PostgreSQL, without statistics yet, from reading a payment by reference
 * through this index on its merchant alone (docs/performance.md, "Indexes").
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('payments_payment_link').execute();
  await db.schema
    .createIndex('payments_payment_link')
    .on('payments')
    .columns(['merchant_id', 'environment', 'payment_link_id', 'id'])
    .where('payment_link_id', 'is not', null)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('payments_payment_link').execute();
  await db.schema.createIndex('payments_payment_link').on('payments').columns(['merchant_id', 'environment', 'payment_link_id', 'id']).execute();
}
