import { hash, verify } from '@node-rs/argon2';
import { AkweError } from '../errors/index.js';

/** argon2id (the library's algorithm 2) with OWASP's smallest recommended memory and passes. */
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

export function checkPasswordRules(password: string, field = 'password'): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw AkweError.ofField('validation_error', field, `${field} must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`);
  }
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

export async function passwordMatches(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let decoy: Promise<string> | undefined;

/**
 * A hash to check a password against when the address has no account, so an unknown address costs
 * the same time as a wrong password and the timing tells nothing either.
 */
export function decoyPasswordHash(): Promise<string> {
  decoy ??= hashPassword('not-a-password-of-anyone');
  return decoy;
}
