import type { Environment } from '../shared/environment.js';
import type { Merchant } from './merchant.js';
import type { Scope } from './scopes.js';

/** Who is calling: the key's merchant and environment, and what the key may do. */
export interface Principal {
  merchant: Merchant;
  merchantId: string;
  environment: Environment;
  scopes: Scope[];
  keyId: string;
}

export type Authentication =
  | {
      outcome: 'authenticated';
      principal: Principal;
      /** Asked for with a probe: whether the key's merchant has a live record of that idempotency key. */
      idempotencyRecordLive?: boolean;
    }
  /** Absent, malformed, unknown or revoked: the caller cannot tell which (the contract: 401 for all). */
  | { outcome: 'invalid_key' }
  /** A valid key whose merchant no longer exists (the earlier contract answers 403). */
  | { outcome: 'merchant_not_found' };
