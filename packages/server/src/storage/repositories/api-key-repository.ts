import type { Kysely } from 'kysely';
import type { ApiKey } from '../../core/merchants/api-key.js';
import type { ApiKeyStore } from '../../core/ports.js';
import { PreparedQuery } from '../prepared-query.js';
import type { Database } from '../schema.js';
import { apiKeyFromRow, apiKeyToRow, merchantFromRow } from './row-mappers.js';

export class ApiKeyRepository implements ApiKeyStore {
  /** Every authenticated request runs one of these: built once. */
  private readonly keyByHash;

  constructor(private readonly db: Kysely<Database>) {
    const keyWithMerchant = (db: Kysely<Database>, hash: string) =>
      db
        .selectFrom('api_keys as k')
        .leftJoin('merchants as m', 'm.id', 'k.merchant_id')
        .selectAll('k')
        .select(['m.id as m_id', 'm.name as m_name', 'm.status as m_status', 'm.kyc_status as m_kyc_status', 'm.created_at as m_created_at', 'm.updated_at as m_updated_at'])
        .where('k.key_hash', '=', hash);
    this.keyByHash = new PreparedQuery(db, keyWithMerchant);
  }

  async insert(key: ApiKey): Promise<void> {
    await this.db.insertInto('api_keys').values(apiKeyToRow(key)).execute();
  }

  async findByHash(hash: string): Promise<Awaited<ReturnType<ApiKeyStore['findByHash']>>> {
    const row = await this.keyByHash.first(this.db, hash);
    if (!row) return undefined;
    const merchant =
      row.m_id === null
        ? undefined
        : merchantFromRow({
            id: row.m_id,
            name: row.m_name ?? '',
            status: row.m_status ?? 'active',
            kyc_status: row.m_kyc_status ?? 'pending',
            created_at: row.m_created_at ?? '',
            updated_at: row.m_updated_at ?? '',
          });
    return { key: apiKeyFromRow(row), merchant };
  }

  async list(filter: { merchantId?: string }): Promise<ApiKey[]> {
    let query = this.db.selectFrom('api_keys').selectAll().orderBy('id');
    if (filter.merchantId !== undefined) query = query.where('merchant_id', '=', filter.merchantId);
    return (await query.execute()).map(apiKeyFromRow);
  }

  async recordKeyUse(id: string, at: string): Promise<void> {
    // Another process may have written a later time meanwhile: never move it back.
    await this.db
      .updateTable('api_keys')
      .set({ last_used_at: at })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
      .execute();
  }

  async revoke(id: string, at: string): Promise<ApiKey | undefined> {
    // Revoking twice keeps the first time, so the record says when the key really stopped working.
    await this.db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();
    const row = await this.db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
    return row && apiKeyFromRow(row);
  }
}
