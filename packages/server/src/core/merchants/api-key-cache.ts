import { LRUCache } from 'lru-cache';
import type { ApiKey } from './api-key.js';
import type { Merchant } from './merchant.js';

/** What a valid key resolved to: the key and its merchant. Only valid keys are kept, never an unknown or revoked one. */
export interface CachedKey {
  key: ApiKey;
  merchant: Merchant;
}

/** What changed, for the caches of every process: a key (revoked), or a merchant (its statuses). */
export type KeyInvalidation = { kind: 'key'; id: string } | { kind: 'merchant'; id: string };

/** Keys remembered at most; the least recently used go first. */
const MAX_CACHED_KEYS = 10_000;

/**
 * Key hash -> key and merchant, for a short lifetime, so a request with a known key reads nothing
 * to authenticate. Revoking a key or changing a merchant forgets what depends on it at once in this
 * process; other processes forget on a notice (PostgreSQL LISTEN/NOTIFY), or when the lifetime ends.
 *
 * A lookup that was in flight while something was forgotten is not remembered: it may have read the
 * row before the change committed. Hence the ticket: `ticket()` before reading, `remember()` after.
 */
export class ApiKeyCache {
  private readonly entries: LRUCache<string, CachedKey> | undefined;
  private forgettings = 0;

  /** @param lifetimeMs how long an entry serves; 0 turns the cache off */
  constructor(lifetimeMs: number, maxEntries = MAX_CACHED_KEYS) {
    this.entries = lifetimeMs > 0 ? new LRUCache({ max: maxEntries, ttl: lifetimeMs }) : undefined;
  }

  get(hash: string): CachedKey | undefined {
    return this.entries?.get(hash);
  }

  /** Taken before the read whose answer may be remembered. */
  ticket(): number {
    return this.forgettings;
  }

  remember(hash: string, entry: CachedKey, ticket: number): void {
    if (ticket === this.forgettings) this.entries?.set(hash, entry);
  }

  forget(invalidation: KeyInvalidation): void {
    this.forgettings++;
    if (!this.entries) return;
    const matches = (entry: CachedKey) => (invalidation.kind === 'key' ? entry.key.id === invalidation.id : entry.merchant.id === invalidation.id);
    const stale = [...this.entries.entries()].filter(([, entry]) => matches(entry)).map(([hash]) => hash);
    for (const hash of stale) this.entries.delete(hash);
  }

  /** Notices may have been missed (the listening connection dropped): nothing cached can be trusted. */
  forgetAll(): void {
    this.forgettings++;
    this.entries?.clear();
  }
}
