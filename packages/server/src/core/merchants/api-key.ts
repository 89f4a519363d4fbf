import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Environment } from '../shared/environment.js';
import type { Scope } from './scopes.js';

/** What is stored of a key: never the key itself. */
export interface ApiKey {
  id: string;
  merchantId: string;
  environment: Environment;
  keyHash: string;
  /** First characters, enough to recognise a key in a list (`ak_test_Xy3k`). */
  keyPrefix: string;
  keyLastFour: string;
  scopes: Scope[];
  createdAt: string;
  revokedAt: string | null;
  /** Recorded at most once a minute per key and process (key-use-recorder.ts): a lower bound, to the minute. */
  lastUsedAt: string | null;
  /** The dashboard user whose session made the key; null for the CLI's and the demo setup's keys (empty scopes: every scope). */
  createdByUserId: string | null;
}

const keyPattern = /^ak_(test|live)_[A-Za-z0-9_-]{43}$/;

export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A new key: `ak_<env>_` then 32 random bytes in base64url. The secret is returned once, never stored. */
export function generateApiKeySecret(environment: Environment): { secret: string; hash: string; prefix: string; lastFour: string } {
  const secret = `ak_${environment}_${randomBytes(32).toString('base64url')}`;
  return { secret, hash: hashApiKey(secret), prefix: secret.slice(0, 12), lastFour: secret.slice(-4) };
}

/** Cheap shape check so garbage never reaches the database. */
export function looksLikeApiKey(value: string): boolean {
  return keyPattern.test(value);
}

export function hashesMatch(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
