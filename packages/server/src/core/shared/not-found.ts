import { AkweError } from '../errors/index.js';
import type { Environment, TenantScope } from './environment.js';

function otherEnvironment(environment: Environment): Environment {
  return environment === 'test' ? 'live' : 'test';
}

/**
 * The 404 for an object the scope does not hold. When the scope's own merchant holds it in the
 * other environment (a test key asking for a live object), the message says so; another
 * merchant's objects are never looked for, so nothing of theirs can show.
 * `heldIn` looks the same id or reference up in a scope; it runs only on this error path.
 */
export async function notFoundIn(scope: TenantScope, noun: string, key: string, heldIn: (scope: TenantScope) => Promise<unknown>): Promise<AkweError> {
  const other = { merchantId: scope.merchantId, environment: otherEnvironment(scope.environment) };
  if ((await heldIn(other)) === undefined) return new AkweError('not_found', `No ${noun} ${key}.`);
  return new AkweError('not_found', `No ${noun} ${key} in ${scope.environment}; your merchant has one in ${other.environment}: use a ${other.environment} key.`);
}
