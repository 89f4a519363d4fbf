import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * `users.language`: the language the person chose in the dashboard (`fr` or `en`), in which the
 * emails sent to them are written (docs/dashboard.md "Language"). Null: never chosen (accounts
 * made before this column, or through the API without one); their emails stay in English, as
 * they were.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('language', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').dropColumn('language').execute();
}
