import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * When each API key was last used (docs/dashboard.md "Developers"): written at most once a minute
 * per key and process, after authentication and off the request's path (key-use-recorder.ts).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('last_used_at', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('last_used_at').execute();
}
