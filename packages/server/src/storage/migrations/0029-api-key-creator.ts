import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Who made each API key (docs/dashboard.md "Developers"): the dashboard user whose session created
 * it, null for a key the CLI or the demo setup made. A key made in a session holds at most its
 * creator's role, so keys that now exceed it can be listed. Keys made in a session before this
 * column existed get their creator from the audit log's `api_key.created` row, whose target begins
 * with the key's id.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('created_by_user_id', 'text').execute();
  await backfillKeyCreators(db);
}

/** Each key with no creator yet and an `api_key.created` audit row gets that row's user (exported for its test). */
export async function backfillKeyCreators(db: AnyDb): Promise<void> {
  await sql`
    update api_keys set created_by_user_id = (
      select a.user_id from audit_log a
      where a.action = 'api_key.created' and a.merchant_id = api_keys.merchant_id and a.target like api_keys.id || ' %'
      order by a.id limit 1
    )
    where created_by_user_id is null
  `.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('created_by_user_id').execute();
}
