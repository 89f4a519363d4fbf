import { AkweError } from '../errors/index.js';
import type { ApiKeyStore, Clock, IdempotencyProbe, IdSource, MerchantStore } from '../ports.js';
import { isoNow } from '../shared/clock.js';
import type { Environment } from '../shared/environment.js';
import { generateApiKeySecret, hashApiKey, hashesMatch, looksLikeApiKey, type ApiKey } from './api-key.js';
import type { KycStatus, Merchant, MerchantStatus } from './merchant.js';
import { applyStatusChanges, initialStatusChanges, type MerchantStatusChange, type RequestedStatusChanges } from './merchant-status-change.js';
import type { Authentication } from './principal.js';
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
}

export class MerchantService {
  constructor(private readonly deps: MerchantServiceDeps) {}

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

  async createKey(input: { merchantId: string; environment: Environment; scopes?: Scope[] }): Promise<IssuedKey> {
    const merchant = await this.deps.merchants.findById(input.merchantId);
    if (!merchant) throw new AkweError('not_found', `no merchant with id ${input.merchantId}`, { field: 'merchant' });
    const issued = this.issueKey(merchant.id, input.environment, input.scopes ?? [], isoNow(this.deps.clock));
    await this.deps.apiKeys.insert(issued.key);
    return issued;
  }

  async revokeKey(keyId: string): Promise<ApiKey> {
    const revoked = await this.deps.apiKeys.revoke(keyId, isoNow(this.deps.clock));
    if (!revoked) throw new AkweError('not_found', `no API key with id ${keyId}`);
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
   * already changes nothing: no history row, and `updated_at` stays.
   */
  async updateMerchant(id: string, requested: RequestedStatusChanges, by: ChangeActor = {}): Promise<Merchant> {
    const actor = by.actor ?? UNNAMED_ACTOR;
    // The time is read once the merchant is locked, so history times follow the order of the changes.
    const updated = await this.deps.merchants.changeStatuses(id, (current) =>
      applyStatusChanges(current, requested, { actor, at: isoNow(this.deps.clock), newId: this.deps.newId }),
    );
    if (!updated) throw new AkweError('not_found', `no merchant with id ${id}`);
    return updated;
  }

  /** The merchant's status changes, newest first, its creation last. */
  async statusHistory(merchantId: string): Promise<MerchantStatusChange[]> {
    await this.getMerchant(merchantId);
    return this.deps.merchants.listStatusChanges(merchantId);
  }

  /** Resolves a presented key. Only its hash is looked up; the comparison runs in constant time. */
  /** With a probe, also tells whether that idempotency key has a live record (one read for both). */
  async authenticate(presented: string | undefined, probe?: IdempotencyProbe): Promise<Authentication> {
    if (presented === undefined || !looksLikeApiKey(presented)) return { outcome: 'invalid_key' };
    const hash = hashApiKey(presented);
    const found = await this.deps.apiKeys.findByHash(hash, probe);
    if (!found || !hashesMatch(found.key.keyHash, hash) || found.key.revokedAt !== null) return { outcome: 'invalid_key' };
    if (!found.merchant) return { outcome: 'merchant_not_found' };
    const { key, merchant } = found;
    return {
      outcome: 'authenticated',
      principal: { merchant, merchantId: merchant.id, environment: key.environment, scopes: key.scopes, keyId: key.id },
      ...(found.idempotencyRecordLive === undefined ? {} : { idempotencyRecordLive: found.idempotencyRecordLive }),
    };
  }

  private issueKey(merchantId: string, environment: Environment, scopes: Scope[], createdAt: string): IssuedKey {
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
      },
    };
  }
}
