import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Payment links (docs/payment-links.md): a merchant's public page `/pay/<slug>` in front of the hosted
 * checkout. A link holds a fixed amount (`amount_minor`) or bounds for an open one (`min_amount_minor`,
 * `max_amount_minor`), the countries a customer may pay from (JSON array), and its limits (single use,
 * `max_payments`, `expires_at`). Each payment made through a link names it in `payments.payment_link_id`;
 * how many were paid is counted from there, never kept twice.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('payment_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('test', 'live')`))
    // The public page's secret: 24 random bytes, base64url (32 characters).
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('amount_minor', 'bigint')
    .addColumn('min_amount_minor', 'bigint')
    .addColumn('max_amount_minor', 'bigint')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('countries', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('reusable', 'integer', (c) => c.notNull())
    .addColumn('max_payments', 'integer')
    .addColumn('expires_at', 'text')
    .addColumn('return_url', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('deactivated_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addCheckConstraint(
      'payment_links_amount',
      sql`(amount_minor is not null and amount_minor > 0 and min_amount_minor is null and max_amount_minor is null) or (amount_minor is null and (min_amount_minor is null or max_amount_minor is null or min_amount_minor <= max_amount_minor))`,
    )
    .execute();
  await db.schema.createIndex('payment_links_scope').on('payment_links').columns(['merchant_id', 'environment', 'id']).execute();

  await db.schema.alterTable('payments').addColumn('payment_link_id', 'text').execute();
  // GET /collect/payments?payment_link=…, and the count of a link's paid payments.
  await db.schema.createIndex('payments_payment_link').on('payments').columns(['merchant_id', 'environment', 'payment_link_id', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('payments_payment_link').execute();
  await db.schema.alterTable('payments').dropColumn('payment_link_id').execute();
  await db.schema.dropTable('payment_links').execute();
}
