import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * A hosted payment paid on the operator's own page (Wave's checkout) keeps the address the
 * operator gave, so the checkout page can send the customer back to it.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('payments').addColumn('operator_redirect_url', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('payments').dropColumn('operator_redirect_url').execute();
}
