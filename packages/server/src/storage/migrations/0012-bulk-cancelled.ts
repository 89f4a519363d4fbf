import { sql, SqliteAdapter, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const BEFORE = `status in ('draft', 'processing', 'completed', 'partially_completed', 'failed')`;
const AFTER = `status in ('draft', 'processing', 'completed', 'partially_completed', 'failed', 'cancelled')`;

/** A draft batch can be cancelled (docs/bulk.md "Lifecycle"): `bulk_batches.status` gains `cancelled`. */
export async function up(db: AnyDb): Promise<void> {
  // SQLite cannot alter a table's constraints; it is rebuilt there instead.
  if (db.getExecutor().adapter instanceof SqliteAdapter) return rebuildSqliteTable(db, BEFORE, AFTER);
  await sql`alter table bulk_batches drop constraint bulk_batches_status_check`.execute(db);
  await sql.raw(`alter table bulk_batches add constraint bulk_batches_status_check check (${AFTER})`).execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.deleteFrom('bulk_batches').where('status', '=', 'cancelled').execute();
  if (db.getExecutor().adapter instanceof SqliteAdapter) return rebuildSqliteTable(db, AFTER, BEFORE);
  await sql`alter table bulk_batches drop constraint bulk_batches_status_check`.execute(db);
  await sql.raw(`alter table bulk_batches add constraint bulk_batches_status_check check (${BEFORE})`).execute(db);
}

/**
 * SQLite's documented way to change a table's definition, done with foreign keys on: new tables
 * from the stored CREATE statements with the one change, the rows copied, the old tables dropped
 * (the lines first, so no line is left without its batch), the new ones renamed (which points the
 * lines' foreign key at the new batches table) and the indexes made again; in one transaction
 * (the migrator's, where it opens one).
 */
async function rebuildSqliteTable(db: AnyDb, before: string, after: string): Promise<void> {
  const rebuild = async (trx: AnyDb) => {
    const { rows: objects } = await sql<{ type: string; name: string; sql: string }>`
      select type, name, sql from sqlite_master where tbl_name in ('bulk_batches', 'bulk_batch_items') and sql is not null`.execute(trx);
    const definition = (name: string) => objects.find((object) => object.type === 'table' && object.name === name)?.sql ?? '';
    const batches = definition('bulk_batches');
    if (batches.split(before).length !== 2) throw new Error('bulk_batches is not as migration 0011 made it; not changing it');
    const renamed = (create: string) => create.replace(/"(bulk_batches|bulk_batch_items)"/g, '"$1_new"');
    await sql.raw(renamed(batches.replace(before, after))).execute(trx);
    await sql.raw(renamed(definition('bulk_batch_items'))).execute(trx);
    await sql`insert into bulk_batches_new select * from bulk_batches`.execute(trx);
    await sql`insert into bulk_batch_items_new select * from bulk_batch_items`.execute(trx);
    await sql`drop table bulk_batch_items`.execute(trx);
    await sql`drop table bulk_batches`.execute(trx);
    await sql`alter table bulk_batches_new rename to bulk_batches`.execute(trx);
    await sql`alter table bulk_batch_items_new rename to bulk_batch_items`.execute(trx);
    for (const index of objects.filter((object) => object.type === 'index')) await sql.raw(index.sql).execute(trx);
  };
  await (db.isTransaction ? rebuild(db) : db.transaction().execute(rebuild));
}
