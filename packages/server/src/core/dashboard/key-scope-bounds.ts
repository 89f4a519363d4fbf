import { AkweError } from '../errors/index.js';
import type { ApiKey } from '../merchants/api-key.js';
import { heldScopes, moneyOutScopes, type Scope } from '../merchants/scopes.js';
import type { Environment } from '../shared/environment.js';
import { scopesOf, type Role } from './permissions.js';

/**
 * The scopes a key made in a dashboard session holds (docs/dashboard.md "Developers"): at most its
 * creator's role, never "every scope". An empty request means the creator's scopes. Asking for a
 * scope the role lacks is 403 `insufficient_role`; in live before the KYC is validated, asking for
 * a money-out scope is 403 `kyc_required`, and an empty request leaves them out. Both name the scopes.
 */
export function sessionKeyScopes(input: { role: Role; requested: readonly Scope[]; environment: Environment; kycValidated: boolean }): Scope[] {
  const allowed = scopesOf(input.role);
  const requested = [...new Set(input.requested)];
  const beyondRole = requested.filter((scope) => !allowed.includes(scope));
  if (beyondRole.length > 0) {
    throw AkweError.ofField('insufficient_role', 'scopes', `Your role (${input.role}) cannot give a key ${beyondRole.join(', ')}; it may give ${allowed.join(', ')}.`);
  }
  const waitsForKyc = input.environment === 'live' && !input.kycValidated;
  if (requested.length > 0) {
    const moneyOut = waitsForKyc ? requested.filter((scope) => moneyOutScopes.includes(scope)) : [];
    if (moneyOut.length > 0) {
      throw AkweError.ofField(
        'kyc_required',
        'scopes',
        `A live key gets ${moneyOut.join(', ')} once the merchant's KYC is validated; until then it may collect (${allowed.filter((s) => !moneyOutScopes.includes(s)).join(', ')}).`,
      );
    }
    return requested;
  }
  return waitsForKyc ? allowed.filter((scope) => !moneyOutScopes.includes(scope)) : allowed;
}

/**
 * What a key holds beyond its creator's current role: empty for the CLI's keys (no creator), for
 * revoked keys (they hold nothing) and for keys within the role; every scope it holds when its
 * creator is no longer a member (`role` undefined).
 */
export function scopesBeyondCreator(key: ApiKey, creatorRole: Role | undefined): Scope[] {
  if (key.createdByUserId === null || key.revokedAt !== null) return [];
  const allowed = creatorRole === undefined ? [] : scopesOf(creatorRole);
  return heldScopes(key.scopes).filter((scope) => !allowed.includes(scope));
}
