/**
 * The rows of `merchant_status_changes`: written only inside the transaction of the change they
 * record (see MerchantRepository), read newest first.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { MerchantStatusChange, RecordedStatusField } from '../../core/merchants/merchant-status-change.js';
import type { Database, MerchantStatusChangeTable } from '../schema.js';

/**
 * Numbers the changes after the merchant's last recorded one and inserts them. The caller holds
 * the merchant locked (or, on SQLite, the database's one write lock), so the last number it reads
 * is still the last when these commit.
 */
export async function insertStatusChanges(trx: Transaction<Database>, merchantId: string, changes: readonly MerchantStatusChange[]): Promise<void> {
  if (changes.length === 0) return;
  const { last } = await trx
    .selectFrom('merchant_status_changes')
    .select((eb) => eb.fn.max<number | null>('change_number').as('last'))
    .where('merchant_id', '=', merchantId)
    .executeTakeFirstOrThrow();
  const first = Number(last ?? 0) + 1;
  await trx
    .insertInto('merchant_status_changes')
    .values(changes.map((change, i) => statusChangeToRow(change, first + i)))
    .execute();
}

/** Newest first: the reverse of the order the changes committed in. */
export function statusChangesQuery(db: Kysely<Database>, merchantId: string) {
  return db.selectFrom('merchant_status_changes').selectAll().where('merchant_id', '=', merchantId).orderBy('change_number', 'desc');
}

function statusChangeToRow(change: MerchantStatusChange, changeNumber: number): Selectable<MerchantStatusChangeTable> {
  return {
    id: change.id,
    merchant_id: change.merchantId,
    change_number: changeNumber,
    field: change.field,
    from_value: change.from,
    to_value: change.to,
    actor: change.actor,
    changed_at: change.changedAt,
  };
}

export function statusChangeFromRow(row: Selectable<MerchantStatusChangeTable>): MerchantStatusChange {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    field: row.field as RecordedStatusField,
    from: row.from_value,
    to: row.to_value,
    actor: row.actor,
    changedAt: row.changed_at,
  };
}
