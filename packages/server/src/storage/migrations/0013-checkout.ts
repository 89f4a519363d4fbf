import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The hosted checkout page (docs/checkout.md): a hosted payment's page is found by an unguessable
 * token (32 random bytes, base64url), stored as is under a unique index so `checkout_url` can be
 * shown again on every read; and the merchant's optional `return_url`, linked from the final page.
 * Hosted payments made before this migration get a token now (their old id-based URL stops working).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('payments').addColumn('checkout_token', 'text').execute();
  await db.schema.alterTable('payments').addColumn('return_url', 'text').execute();
  const hosted = await db.selectFrom('payments').select('id').where('mode', '=', 'hosted').execute();
  for (const { id } of hosted) {
    await db
      .updateTable('payments')
      .set({ checkout_token: randomBytes(32).toString('base64url') })
      .where('id', '=', id)
      .execute();
  }
  // NULLs (direct payments) never collide in a unique index, on either database.
  await db.schema.createIndex('payments_checkout_token').on('payments').column('checkout_token').unique().execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('payments_checkout_token').execute();
  for (const column of ['return_url', 'checkout_token']) await db.schema.alterTable('payments').dropColumn(column).execute();
}
