import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * A TOTP code works once (docs/dashboard.md "Two-factor sign-in"): the user row keeps the last
 * 30-second step whose code was accepted and when, so the same code (or an older one) and a sign-in
 * challenge issued before that moment are refused, by one conditional update.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('totp_last_step', 'integer').execute();
  await db.schema.alterTable('users').addColumn('totp_used_at', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').dropColumn('totp_used_at').execute();
  await db.schema.alterTable('users').dropColumn('totp_last_step').execute();
}
