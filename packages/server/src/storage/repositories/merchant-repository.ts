import type { Kysely } from 'kysely';
import type { ApiKey } from '../../core/merchants/api-key.js';
import type { Merchant } from '../../core/merchants/merchant.js';
import type { MerchantStore } from '../../core/ports.js';
import type { Database } from '../schema.js';
import { apiKeyToRow, merchantFromRow, merchantToRow } from './row-mappers.js';

export class MerchantRepository implements MerchantStore {
  constructor(private readonly db: Kysely<Database>) {}

  async createWithKeys(merchant: Merchant, keys: ApiKey[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('merchants').values(merchantToRow(merchant)).execute();
      if (keys.length > 0) await trx.insertInto('api_keys').values(keys.map(apiKeyToRow)).execute();
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

  async update(id: string, changes: Parameters<MerchantStore['update']>[1]): Promise<Merchant | undefined> {
    const row = await this.db
      .updateTable('merchants')
      .set({
        updated_at: changes.updatedAt,
        ...(changes.status !== undefined ? { status: changes.status } : {}),
        ...(changes.kycStatus !== undefined ? { kyc_status: changes.kycStatus } : {}),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && merchantFromRow(row);
  }
}
