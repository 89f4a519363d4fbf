import type { Environment } from '../shared/environment.js';
import type { Merchant } from './merchant.js';
import type { Scope } from './scopes.js';
import type { Role } from '../dashboard/permissions.js';

/** Who is calling: the key's merchant and environment, and what the key may do. */
export interface Principal {
  merchant: Merchant;
  merchantId: string;
  environment: Environment;
  scopes: Scope[];
  /** The key's id; for a dashboard session, `session:<user id>` (rate limits count per user). */
  keyId: string;
  /** Set when a signed-in dashboard user calls, not a key: who, and their role in the merchant. */
  actor?: { userId: string; role: Role };
}

export type Authentication =
  | {
      outcome: 'authenticated';
      principal: Principal;
    }
  /** Absent, malformed, unknown or revoked: the caller cannot tell which (the contract: 401 for all). */
  | { outcome: 'invalid_key' }
  /** A valid key whose merchant no longer exists (the earlier contract answers 403). */
  | { outcome: 'merchant_not_found' };
