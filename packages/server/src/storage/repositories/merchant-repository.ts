import type { Kysely } from 'kysely';
import type { ApiKey } from '../../core/merchants/api-key.js';
import type { Merchant } from '../../core/merchants/merchant.js';
import type { MerchantStatusChange } from '../../core/merchants/merchant-status-change.js';
import type { MerchantStore } from '../../core/ports.js';
import type { DatabaseCapabilities } from '../database.js';
import type { Database } from '../schema.js';
import { insertStatusChanges, statusChangeFromRow, statusChangesQuery } from './merchant-status-changes.js';
import { apiKeyToRow, merchantFromRow, merchantToRow } from './row-mappers.js';
import { EventOutbox } from './event-repository.js';

export class MerchantRepository implements MerchantStore {
  private readonly outbox: EventOutbox;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: Pick<DatabaseCapabilities, 'rowLocks'>,
  ) {
    this.outbox = new EventOutbox(db);
  }

  async createWithKeys(merchant: Merchant, keys: ApiKey[], history: MerchantStatusChange[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('merchants').values(merchantToRow(merchant)).execute();
      if (keys.length > 0) await trx.insertInto('api_keys').values(keys.map(apiKeyToRow)).execute();
      await insertStatusChanges(trx, merchant.id, history);
    });
  }

  async findById(id: string): Promise<Merchant | undefined> {
    const row = await this.db.selectFrom('merchants').selectAll().where('id', '=', id).executeTakeFirst();
    return row && merchantFromRow(row);
  }

  async list(): Promise<Merchant[]> {
    const rows = await this.db.selectFrom('merchants').selectAll().orderBy('id').execute();
    return rows.map(merchantFromRow);
  }

  async count(): Promise<number> {
    const { count } = await this.db
      .selectFrom('merchants')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(count);
  }

  async changeStatuses(
    id: string,
    decide: Parameters<MerchantStore['changeStatuses']>[1],
    eventsFor?: Parameters<MerchantStore['changeStatuses']>[2],
  ): Promise<Merchant | undefined> {
    return this.db.transaction().execute(async (trx) => {
      // PostgreSQL: two changes of one merchant queue here, so the second sees the first's result
      // as its "from". SQLite runs one write transaction at a time, which gives the same order.
      let query = trx.selectFrom('merchants').selectAll().where('id', '=', id);
      if (this.capabilities.rowLocks) query = query.forUpdate();
      const row = await query.executeTakeFirst();
      if (!row) return undefined;
      const current = merchantFromRow(row);
      const update = decide(current);
      if (!update) return current;
      await trx
        .updateTable('merchants')
        .set({ status: update.merchant.status, kyc_status: update.merchant.kycStatus, updated_at: update.merchant.updatedAt })
        .where('id', '=', id)
        .execute();
      await insertStatusChanges(trx, id, update.changes);
      if (eventsFor) await this.outbox.insert(trx, eventsFor(update.merchant));
      return update.merchant;
    });
  }

  async listStatusChanges(merchantId: string): Promise<MerchantStatusChange[]> {
    const rows = await statusChangesQuery(this.db, merchantId).execute();
    return rows.map(statusChangeFromRow);
  }
}
