/**
 * The port behind idempotency keys (PRODUCT.md "Idempotency"). A key is claimed once per
 * (merchant, environment, method, route pattern, key): the storage refuses a second claim itself,
 * so two simultaneous requests can never both run. Timestamps are ISO-8601 UTC text, as everywhere.
 */
import type { Environment } from '../shared/environment.js';

/** Whose key it is and where it was used: the identity of one record. */
export interface IdempotencyScope {
  merchantId: string;
  environment: Environment;
  /** HTTP method in upper case. */
  method: string;
  /** The route pattern, not the raw URL. */
  route: string;
  key: string;
}

export type IdempotencyState = 'in_progress' | 'completed';

export interface IdempotencyRecord extends IdempotencyScope {
  /** Fingerprint of the request that claimed the key (see request-fingerprint.ts). */
  requestHash: string;
  state: IdempotencyState;
  /** Set once completed. */
  responseStatus: number | null;
  /** The response body as sent (JSON text), set once completed. */
  responseBody: string | null;
  /** When the key was claimed; also tells one claim of a key from a later one. */
  createdAt: string;
  /** From this instant on the record no longer counts and may be replaced or purged. */
  expiresAt: string;
}

export interface IdempotencyClaim extends IdempotencyScope {
  requestHash: string;
  /** The current time: the new record's `createdAt`, and the instant expiry is judged at. */
  now: string;
  expiresAt: string;
}

export type ClaimResult =
  /** The key is now ours, in progress: run the request, then complete or release it. */
  | { outcome: 'claimed'; record: IdempotencyRecord }
  /** A live record holds the key (in progress or completed); the caller compares fingerprints. */
  | { outcome: 'existing'; record: IdempotencyRecord }
  /** The record kept changing under us (released or replaced between two reads): retry later. */
  | { outcome: 'contended' };

export interface IdempotencyStore {
  /**
   * Claims the key by inserting an in-progress record. If a record exists and has expired
   * (`expiresAt <= now`), it is removed and the claim tried again; a live one is returned as is.
   */
  claim(claim: IdempotencyClaim): Promise<ClaimResult>;
  /**
   * Stores the response of a claim still in progress. False when that claim is no longer there
   * (released, purged, or replaced by a later claim after expiry); nothing is written then.
   */
  complete(record: IdempotencyRecord, response: { status: number; body: string }): Promise<boolean>;
  /** Deletes a claim still in progress so the key can be used again. False when it was gone. */
  release(record: IdempotencyRecord): Promise<boolean>;
  /** Deletes at most `limit` records with `expiresAt <= now`; returns how many it deleted. */
  purgeExpired(now: string, limit: number): Promise<number>;
}
