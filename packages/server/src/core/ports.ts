/**
 * The interfaces the core needs from the outside world. Storage implements the stores;
 * tests and workers supply a Clock. Nothing here knows HTTP, SQL dialects or contract versions.
 */
import type { ApiKey } from './merchants/api-key.js';
import type { KycStatus, Merchant, MerchantStatus } from './merchants/merchant.js';
import type { StoredEvent } from './events/stored-event.js';
import type { TenantScope } from './shared/environment.js';

export type { Clock } from './shared/clock.js';
export type { IdSource } from './shared/ids.js';

export interface MerchantStore {
  /** Creates the merchant and its first keys atomically. */
  createWithKeys(merchant: Merchant, keys: ApiKey[]): Promise<void>;
  findById(id: string): Promise<Merchant | undefined>;
  list(): Promise<Merchant[]>;
  count(): Promise<number>;
  update(id: string, changes: { status?: MerchantStatus; kycStatus?: KycStatus; updatedAt: string }): Promise<Merchant | undefined>;
}

export interface ApiKeyStore {
  insert(key: ApiKey): Promise<void>;
  /** The key with this hash, revoked or not, with its merchant when the merchant still exists. */
  findByHash(hash: string): Promise<{ key: ApiKey; merchant: Merchant | undefined } | undefined>;
  list(filter: { merchantId?: string }): Promise<ApiKey[]>;
  revoke(id: string, at: string): Promise<ApiKey | undefined>;
}

export interface EventStore {
  findById(scope: TenantScope, id: string): Promise<StoredEvent | undefined>;
}
