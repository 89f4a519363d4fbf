import { sql, SqliteAdapter, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const KINDS_BEFORE = `kind in ('payout', 'batch')`;
const KINDS_AFTER = `kind in ('payout', 'batch', 'transfer', 'settlement', 'refund')`;
/** What a request waiting in 0025's table is given: the period in force when this was written. */
const EXISTING_PENDING_TTL_MS = 72 * 3_600_000;

/**
 * Maker-checker over every live money-out, and invitations that can be listed and revoked
 * (docs/dashboard.md "Approvals", "Team and roles"): `approval_requests.kind` gains transfer,
 * settlement and refund; a request that waits gets `expires_at` (those waiting now: 72 hours from
 * their submission); `email_tokens` gains `revoked_at` and `revoked_by`, and an index for a
 * merchant's invitations, newest first.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('approval_requests').addColumn('expires_at', 'text').execute();
  if (db.getExecutor().adapter instanceof SqliteAdapter) await rebuildSqliteApprovals(db, KINDS_BEFORE, KINDS_AFTER);
  else {
    await sql`alter table approval_requests drop constraint approval_requests_kind_check`.execute(db);
    await sql.raw(`alter table approval_requests add constraint approval_requests_kind_check check (${KINDS_AFTER})`).execute(db);
  }
  const waiting = await db.selectFrom('approval_requests').select(['id', 'created_at']).where('status', '=', 'pending').execute();
  for (const row of waiting as Array<{ id: string; created_at: string }>) {
    const expiresAt = new Date(Date.parse(row.created_at) + EXISTING_PENDING_TTL_MS).toISOString();
    await db.updateTable('approval_requests').set({ expires_at: expiresAt }).where('id', '=', row.id).execute();
  }

  await db.schema.alterTable('email_tokens').addColumn('revoked_at', 'text').execute();
  await db.schema.alterTable('email_tokens').addColumn('revoked_by', 'text').execute();
  await db.schema.createIndex('email_tokens_invitations').on('email_tokens').columns(['merchant_id', 'purpose', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('email_tokens_invitations').execute();
  await db.schema.alterTable('email_tokens').dropColumn('revoked_by').execute();
  await db.schema.alterTable('email_tokens').dropColumn('revoked_at').execute();
  await db.deleteFrom('approval_requests').where('kind', 'in', ['transfer', 'settlement', 'refund']).execute();
  if (db.getExecutor().adapter instanceof SqliteAdapter) await rebuildSqliteApprovals(db, KINDS_AFTER, KINDS_BEFORE);
  else {
    await sql`alter table approval_requests drop constraint approval_requests_kind_check`.execute(db);
    await sql.raw(`alter table approval_requests add constraint approval_requests_kind_check check (${KINDS_BEFORE})`).execute(db);
  }
  await db.schema.alterTable('approval_requests').dropColumn('expires_at').execute();
}

/**
 * SQLite cannot alter a constraint: the table is made again from its stored CREATE statement with
 * the one change, the rows copied, the old table dropped, the new one renamed and its indexes made
 * again, in one transaction (the migrator's, where it opens one). No table refers to this one.
 */
async function rebuildSqliteApprovals(db: AnyDb, before: string, after: string): Promise<void> {
  const rebuild = async (trx: AnyDb) => {
    const { rows: objects } = await sql<{ type: string; name: string; sql: string }>`
      select type, name, sql from sqlite_master where tbl_name = 'approval_requests' and sql is not null`.execute(trx);
    const table = objects.find((object) => object.type === 'table')?.sql ?? '';
    if (table.split(before).length !== 2) throw new Error('approval_requests is not as migration 0025 made it; not changing it');
    await sql.raw(table.replace(before, after).replace(/"approval_requests"/, '"approval_requests_new"')).execute(trx);
    await sql`insert into approval_requests_new select * from approval_requests`.execute(trx);
    await sql`drop table approval_requests`.execute(trx);
    await sql`alter table approval_requests_new rename to approval_requests`.execute(trx);
    for (const index of objects.filter((object) => object.type === 'index')) await sql.raw(index.sql).execute(trx);
  };
  await (db.isTransaction ? rebuild(db) : db.transaction().execute(rebuild));
}
