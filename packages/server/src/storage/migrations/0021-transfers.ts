import { sql, SqliteAdapter, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const KINDS_BEFORE = `'fees', 'sandbox_float')`;
const KINDS_AFTER = `'fees', 'sandbox_float', 'transfer_clearing')`;

/**
 * Wallet transfers between merchants (docs/transfers.md). A transfer is stored as one row per party
 * (the sender's `sent` row, the receiver's `received` row, same id), so each merchant's list and
 * detail read its own rows by (merchant, environment, id) like every other resource. The ledger
 * gains the `transfer_clearing` account kind: each side's posting balances against it, and the two
 * sides' clearing lines cancel out.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('transfers')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('merchant_id', 'text', (c) => c.notNull().references('merchants.id'))
    .addColumn('environment', 'text', (c) => c.notNull().check(sql`environment in ('test', 'live')`))
    .addColumn('direction', 'text', (c) => c.notNull().check(sql`direction in ('sent', 'received')`))
    .addColumn('sender_id', 'text', (c) => c.notNull())
    .addColumn('receiver_id', 'text', (c) => c.notNull())
    // The sender's own reference and metadata: kept on the sender's row only.
    .addColumn('reference', 'text')
    .addColumn('amount_minor', 'bigint', (c) => c.notNull().check(sql`amount_minor > 0`))
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('transfers_pk', ['id', 'direction'])
    .addCheckConstraint('transfers_not_to_self', sql`sender_id <> receiver_id`)
    .execute();
  // A reference names one transfer per sender and environment (409 duplicate_reference).
  await db.schema
    .createIndex('transfers_reference')
    .unique()
    .on('transfers')
    .columns(['merchant_id', 'environment', 'reference'])
    .where(sql.ref('direction'), '=', 'sent')
    .execute();
  // Lists and detail of each party, both directions or one; the per-day sum of a sender.
  await db.schema.createIndex('transfers_scope_id').on('transfers').columns(['merchant_id', 'environment', 'id']).execute();
  await db.schema.createIndex('transfers_scope_direction').on('transfers').columns(['merchant_id', 'environment', 'direction', 'id']).execute();
  await db.schema
    .createIndex('transfers_daily')
    .on('transfers')
    .columns(['merchant_id', 'environment', 'currency', 'created_at'])
    .where(sql.ref('direction'), '=', 'sent')
    .execute();

  if (db.getExecutor().adapter instanceof SqliteAdapter) return rebuildSqliteLedger(db, KINDS_BEFORE, KINDS_AFTER);
  await sql`alter table ledger_accounts drop constraint ledger_accounts_kind_check`.execute(db);
  await sql
    .raw(`alter table ledger_accounts add constraint ledger_accounts_kind_check check (kind in ('available', 'reserved', 'operator_clearing', ${KINDS_AFTER.slice(0, -1)}))`)
    .execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('transfers').execute();
  if (db.getExecutor().adapter instanceof SqliteAdapter) return rebuildSqliteLedger(db, KINDS_AFTER, KINDS_BEFORE);
  await sql`alter table ledger_accounts drop constraint ledger_accounts_kind_check`.execute(db);
  await sql
    .raw(`alter table ledger_accounts add constraint ledger_accounts_kind_check check (kind in ('available', 'reserved', 'operator_clearing', ${KINDS_BEFORE.slice(0, -1)}))`)
    .execute(db);
}

/**
 * SQLite cannot alter a CHECK: ledger_accounts is rebuilt with the one change (as 0012 does for
 * bulk batches), ledger_entries with it since its foreign key points there: new tables from the
 * stored CREATE statements, rows copied, the old ones dropped (entries first), the new ones renamed
 * (which repoints the foreign key) and the indexes made again, in one transaction.
 */
async function rebuildSqliteLedger(db: AnyDb, before: string, after: string): Promise<void> {
  const rebuild = async (trx: AnyDb) => {
    const { rows: objects } = await sql<{ type: string; name: string; sql: string }>`
      select type, name, sql from sqlite_master where tbl_name in ('ledger_accounts', 'ledger_entries') and sql is not null`.execute(trx);
    const definition = (name: string) => objects.find((object) => object.type === 'table' && object.name === name)?.sql ?? '';
    const accounts = definition('ledger_accounts');
    if (accounts.split(before).length !== 2) throw new Error('ledger_accounts is not as the earlier migrations made it; not changing it');
    const renamed = (create: string) => create.replace(/"(ledger_accounts|ledger_entries)"/g, '"$1_new"');
    await sql.raw(renamed(accounts.replace(before, after))).execute(trx);
    await sql.raw(renamed(definition('ledger_entries'))).execute(trx);
    await sql`insert into ledger_accounts_new select * from ledger_accounts`.execute(trx);
    await sql`insert into ledger_entries_new select * from ledger_entries`.execute(trx);
    await sql`drop table ledger_entries`.execute(trx);
    await sql`drop table ledger_accounts`.execute(trx);
    await sql`alter table ledger_accounts_new rename to ledger_accounts`.execute(trx);
    await sql`alter table ledger_entries_new rename to ledger_entries`.execute(trx);
    for (const index of objects.filter((object) => object.type === 'index')) await sql.raw(index.sql).execute(trx);
  };
  await (db.isTransaction ? rebuild(db) : db.transaction().execute(rebuild));
}
