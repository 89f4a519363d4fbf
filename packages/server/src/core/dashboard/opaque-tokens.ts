import { createHash, randomBytes } from 'node:crypto';

/**
 * Refresh tokens and email-link tokens: 32 random bytes, given out once, stored only as their
 * SHA-256 (a random 256-bit value needs no slow hash), looked up by that hash.
 */
export function newOpaqueToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashOpaqueToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** What a presented token must look like before it is hashed and looked up (43 base64url characters). */
export function looksLikeOpaqueToken(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}
