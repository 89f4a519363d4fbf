/**
 * The interfaces the core needs from the outside world. Storage implements the stores;
 * tests and workers supply a Clock. Nothing here knows HTTP, SQL dialects or contract versions.
 */
import type { ApiKey } from './merchants/api-key.js';
import type { Merchant } from './merchants/merchant.js';
import type { MerchantStatusChange, MerchantStatusUpdate } from './merchants/merchant-status-change.js';
import type { StoredEvent } from './events/stored-event.js';
import type { TenantScope } from './shared/environment.js';

export type { Clock } from './shared/clock.js';
export type { IdSource } from './shared/ids.js';

export interface MerchantStore {
  /** Creates the merchant, its first keys and the history rows of its first statuses atomically. */
  createWithKeys(merchant: Merchant, keys: ApiKey[], history: MerchantStatusChange[]): Promise<void>;
  findById(id: string): Promise<Merchant | undefined>;
  list(): Promise<Merchant[]>;
  count(): Promise<number>;
  /**
   * Reads the merchant under a lock no other change of it can pass, lets `decide` say what changes,
   * and writes the new merchant and its history rows in that same transaction; `decide` answering
   * undefined writes nothing. Resolves to the merchant as it is afterwards, or undefined when
   * there is no such merchant.
   */
  changeStatuses(id: string, decide: (current: Merchant) => MerchantStatusUpdate | undefined): Promise<Merchant | undefined>;
  /** The merchant's recorded status changes, newest first. */
  listStatusChanges(merchantId: string): Promise<MerchantStatusChange[]>;
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
