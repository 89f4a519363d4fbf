/**
 * The interfaces the core needs from the outside world. Storage implements the stores;
 * tests and workers supply a Clock. Nothing here knows HTTP, SQL dialects or contract versions.
 */
import type { ApiKey } from './merchants/api-key.js';
import type { KeyInvalidation } from './merchants/api-key-cache.js';
import type { Merchant } from './merchants/merchant.js';
import type { MerchantStatusChange, MerchantStatusUpdate } from './merchants/merchant-status-change.js';
import type { EventSubject, StoredEvent } from './events/stored-event.js';
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
  /** `eventsFor`: outbox rows written in the same transaction when the change happens. */
  changeStatuses(id: string, decide: (current: Merchant) => MerchantStatusUpdate | undefined, eventsFor?: (updated: Merchant) => StoredEvent[]): Promise<Merchant | undefined>;
  /** The merchant's recorded status changes, newest first. */
  listStatusChanges(merchantId: string): Promise<MerchantStatusChange[]>;
}

export interface ApiKeyStore {
  insert(key: ApiKey): Promise<void>;
  /** The key with this hash, revoked or not, with its merchant when the merchant still exists. */
  findByHash(hash: string): Promise<{ key: ApiKey; merchant: Merchant | undefined } | undefined>;
  list(filter: { merchantId?: string }): Promise<ApiKey[]>;
  revoke(id: string, at: string): Promise<ApiKey | undefined>;
  /** Sets the key's `last_used_at` to `at` unless it holds a later time already. */
  recordKeyUse(id: string, at: string): Promise<void>;
}

/** Tells the other processes sharing the database to forget what they cached of a key or merchant. */
export interface KeyInvalidations {
  publish(invalidation: KeyInvalidation): Promise<void>;
}

export interface EventStore {
  findById(scope: TenantScope, id: string): Promise<StoredEvent | undefined>;
}

/**
 * What the contract versions decide for the core; the contract registry (http/contracts) supplies
 * it at construction, so the core names no version: which webhook versions an endpoint may choose,
 * the default, what a payment's callback_url receives, and what each version can carry.
 */
export interface ContractVersions {
  /** Every webhook version an endpoint may choose. */
  readonly webhookVersions: readonly string[];
  /** The version of an endpoint created without one. */
  readonly defaultWebhookVersion: string;
  /** The version a payment's callback_url receives. */
  readonly callbackWebhookVersion: string;
  /** What an endpoint of `version` is limited to; undefined: it can carry every event. */
  receivingLimit(version: string): ReceivingLimit | undefined;
}

/** A webhook version that carries only some events (the earlier collect contract: payments only). */
export interface ReceivingLimit {
  /** The subjects whose events it can carry. */
  subjects: readonly EventSubject['kind'][];
  /** The event family of those events (`collect.payment.*`): a pattern outside it would never reach the endpoint. */
  family: string;
  /** For refusals: what it receives (`payment events`) and what needs another version (`refund, payout and bulk events`). */
  receives: string;
  others: string;
}
