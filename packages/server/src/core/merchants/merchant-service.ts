import type { StoredEvent } from '../events/stored-event.js';
import { AkweError } from '../errors/index.js';
import type { ApiKeyStore, Clock, IdSource, KeyInvalidations, MerchantStore } from '../ports.js';
import { isoNow } from '../shared/clock.js';
import type { Environment } from '../shared/environment.js';
import { ApiKeyCache, type KeyInvalidation } from './api-key-cache.js';
import { KeyUseRecorder } from './key-use-recorder.js';
import { generateApiKeySecret, hashApiKey, hashesMatch, looksLikeApiKey, type ApiKey } from './api-key.js';
import type { KycStatus, Merchant, MerchantStatus } from './merchant.js';
import { applyStatusChanges, initialStatusChanges, type MerchantStatusChange, type RequestedStatusChanges } from './merchant-status-change.js';
import type { Authentication, Principal } from './principal.js';
import type { Scope } from './scopes.js';

export interface IssuedKey {
  key: ApiKey;
  /** The full key, shown once to whoever created it and never stored. */
  secret: string;
}

/** Who makes a change, for the status history (`cli`, `demo-setup`, …); `system` when not said. */
export interface ChangeActor {
  actor?: string;
}

const UNNAMED_ACTOR = 'system';

export interface MerchantServiceDeps {
  merchants: MerchantStore;
  apiKeys: ApiKeyStore;
  clock: Clock;
  newId: IdSource;
  /** Authenticated keys kept in memory (API_KEY_CACHE_MS); none: every request reads its key. */
  keyCache?: ApiKeyCache;
  /** Where revocations and merchant changes are announced to other processes (PostgreSQL); none on SQLite. */
  keyInvalidations?: KeyInvalidations;
  /** A failed `last_used_at` write (counted in the metrics; the request never sees it). */
  onKeyUseWriteFailure?: (error: unknown) => void;
}

export class MerchantService {
  private readonly keyCache: ApiKeyCache;
  /** Writes each key's last use at most once a minute, never on the request's path. */
  readonly keyUses: KeyUseRecorder;

  constructor(private readonly deps: MerchantServiceDeps) {
    this.keyCache = deps.keyCache ?? new ApiKeyCache(0);
    this.keyUses = new KeyUseRecorder(deps.apiKeys, deps.clock, deps.onKeyUseWriteFailure);
  }

  async createMerchant(
    input: {
      name: string;
      kycStatus?: KycStatus;
      status?: MerchantStatus;
      keyEnvironments?: Environment[];
    } & ChangeActor,
  ): Promise<{ merchant: Merchant; keys: IssuedKey[] }> {
    const name = input.name.trim();
    if (name.length === 0 || name.length > 200) {
      throw new AkweError('validation_error', 'name must be 1 to 200 characters', { field: 'name' });
    }
    const now = isoNow(this.deps.clock);
    const merchant: Merchant = {
      id: this.deps.newId(),
      name,
      status: input.status ?? 'active',
      kycStatus: input.kycStatus ?? 'pending',
      createdAt: now,
      updatedAt: now,
    };
    const keys = (input.keyEnvironments ?? ['test', 'live']).map((environment) => this.issueKey(merchant.id, environment, [], now));
    const history = initialStatusChanges(merchant, { actor: input.actor ?? UNNAMED_ACTOR, at: now, newId: this.deps.newId });
    await this.deps.merchants.createWithKeys(
      merchant,
      keys.map((k) => k.key),
      history,
    );
    return { merchant, keys };
  }

  /** `createdByUserId`: the dashboard user whose session asks (DashboardDevelopers has bounded the scopes by their role); absent for the CLI. */
  async createKey(input: { merchantId: string; environment: Environment; scopes?: Scope[]; createdByUserId?: string }): Promise<IssuedKey> {
    const merchant = await this.deps.merchants.findById(input.merchantId);
    if (!merchant) throw new AkweError('not_found', `no merchant with id ${input.merchantId}`, { field: 'merchant' });
    const issued = this.issueKey(merchant.id, input.environment, input.scopes ?? [], isoNow(this.deps.clock), input.createdByUserId ?? null);
    await this.deps.apiKeys.insert(issued.key);
    return issued;
  }

  async revokeKey(keyId: string): Promise<ApiKey> {
    const revoked = await this.deps.apiKeys.revoke(keyId, isoNow(this.deps.clock));
    if (!revoked) throw new AkweError('not_found', `no API key with id ${keyId}`);
    await this.invalidate({ kind: 'key', id: keyId });
    return revoked;
  }

  listKeys(filter: { merchantId?: string } = {}): Promise<ApiKey[]> {
    return this.deps.apiKeys.list(filter);
  }

  async getMerchant(id: string): Promise<Merchant> {
    const merchant = await this.deps.merchants.findById(id);
    if (!merchant) throw new AkweError('not_found', `no merchant with id ${id}`);
    return merchant;
  }

  listMerchants(): Promise<Merchant[]> {
    return this.deps.merchants.list();
  }

  countMerchants(): Promise<number> {
    return this.deps.merchants.count();
  }

  /**
   * Sets the account status and/or the KYC status, recording each status that really changes
   * (from, to, when, by whom) in the same transaction. Setting a status to the value it has
   * already changes nothing: no history row, no event, and `updated_at` stays. `eventsFor` gives
   * the events of a change that happens, committed with it (the outbox).
   */
  async updateMerchant(id: string, requested: RequestedStatusChanges, by: ChangeActor = {}, eventsFor?: (updated: Merchant) => StoredEvent[]): Promise<Merchant> {
    const actor = by.actor ?? UNNAMED_ACTOR;
    // The time is read once the merchant is locked, so history times follow the order of the changes.
    const updated = await this.deps.merchants.changeStatuses(
      id,
      (current) => applyStatusChanges(current, requested, { actor, at: isoNow(this.deps.clock), newId: this.deps.newId }),
      eventsFor,
    );
    if (!updated) throw new AkweError('not_found', `no merchant with id ${id}`);
    // Principals carry the merchant (its status decides what a key may do): every cached copy goes.
    await this.invalidate({ kind: 'merchant', id });
    return updated;
  }

  /** The merchant's status changes, newest first, its creation last. */
  async statusHistory(merchantId: string): Promise<MerchantStatusChange[]> {
    await this.getMerchant(merchantId);
    return this.deps.merchants.listStatusChanges(merchantId);
  }

  /** Resolves a presented key. Only its hash is looked up; the comparison runs in constant time. */
  async authenticate(presented: string | undefined): Promise<Authentication> {
    if (presented === undefined || !looksLikeApiKey(presented)) return { outcome: 'invalid_key' };
    const hash = hashApiKey(presented);
    const cached = this.keyCache.get(hash);
    if (cached) {
      this.keyUses.noteUse(cached.key.id);
      return { outcome: 'authenticated', principal: principalFor(cached.key, cached.merchant) };
    }
    const ticket = this.keyCache.ticket();
    const found = await this.deps.apiKeys.findByHash(hash);
    if (!found || !hashesMatch(found.key.keyHash, hash) || found.key.revokedAt !== null) return { outcome: 'invalid_key' };
    if (!found.merchant) return { outcome: 'merchant_not_found' };
    const { key, merchant } = found;
    this.keyCache.remember(hash, { key, merchant }, ticket);
    this.keyUses.noteUse(key.id);
    return { outcome: 'authenticated', principal: principalFor(key, merchant) };
  }

  /** A notice from another process: forget what this one cached of that key or merchant. */
  forgetCached(invalidation: KeyInvalidation): void {
    this.keyCache.forget(invalidation);
  }

  /** Notices may have been missed (the listening connection dropped): forget every cached key. */
  forgetAllCached(): void {
    this.keyCache.forgetAll();
  }

  /**
   * Forgets at once in this process, then tells the others. The change is committed already, so a
   * notice that cannot be sent is not an error: the other processes' cache lifetime bounds it.
   */
  private async invalidate(invalidation: KeyInvalidation): Promise<void> {
    this.keyCache.forget(invalidation);
    await this.deps.keyInvalidations?.publish(invalidation).catch(() => {});
  }

  private issueKey(merchantId: string, environment: Environment, scopes: Scope[], createdAt: string, createdByUserId: string | null = null): IssuedKey {
    const generated = generateApiKeySecret(environment);
    return {
      secret: generated.secret,
      key: {
        id: this.deps.newId(),
        merchantId,
        environment,
        keyHash: generated.hash,
        keyPrefix: generated.prefix,
        keyLastFour: generated.lastFour,
        scopes,
        createdAt,
        revokedAt: null,
        lastUsedAt: null,
        createdByUserId,
      },
    };
  }
}

function principalFor(key: ApiKey, merchant: Merchant): Principal {
  return { merchant, merchantId: merchant.id, environment: key.environment, scopes: key.scopes, keyId: key.id };
}
