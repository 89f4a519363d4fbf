/**
 * The port behind idempotency keys (docs/decisions.md). A key is claimed once per
 * (merchant, environment, method, route pattern, key): the storage refuses a second claim itself,
 * so two simultaneous requests can never both run. A claim is held under a lease: while it runs
 * the holder is presumed alive; after it, a retry with the same request takes the claim over and
 * resumes from the recovery point the claim recorded. Timestamps are ISO-8601 UTC text.
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

/**
 * How far a request got, recorded in the transaction of each phase (docs/architecture.md):
 * `started` nothing durable yet; `operator_call_started` its resource is stored and the operator
 * call may have been made; `finished` its response is stored.
 */
export type RecoveryPoint = 'started' | 'operator_call_started' | 'finished';

export interface StoredResponse {
  status: number;
  /** The body as sent (JSON text). */
  body: string;
  /** The body shows a secret (a signing secret at creation): stored sealed, never in clear. */
  holdsSecret?: boolean;
}

export interface IdempotencyRecord extends IdempotencyScope {
  /** Fingerprint of the request that claimed the key (see request-fingerprint.ts). */
  requestHash: string;
  state: IdempotencyState;
  /** Set once completed. */
  responseStatus: number | null;
  /** The response body as sent (JSON text), set once completed. */
  responseBody: string | null;
  /** When the key was first claimed; also tells one claim of a key from a later one. */
  createdAt: string;
  /** From this instant on the record no longer counts and may be replaced or purged. */
  expiresAt: string;
  /** Who holds the claim now: a random token per claim or takeover. */
  leaseToken: string | null;
  /** End of the holder's lease; null (records from before leases) counts as ended. */
  lockedUntil: string | null;
  recoveryPoint: RecoveryPoint;
  /** The payment or refund the request created, once its first phase committed. */
  resourceId: string | null;
}

export interface IdempotencyClaim extends IdempotencyScope {
  requestHash: string;
  /** The current time: the new record's `createdAt`, and the instant expiry is judged at. */
  now: string;
  expiresAt: string;
  leaseToken: string;
  lockedUntil: string;
}

export type ClaimResult =
  /** The key is now ours, in progress: run the request, then complete or release it. */
  | { outcome: 'claimed'; record: IdempotencyRecord }
  /** A live record holds the key (in progress or completed); the caller compares fingerprints. */
  | { outcome: 'existing'; record: IdempotencyRecord }
  /** The record kept changing under us (released or replaced between two reads): retry later. */
  | { outcome: 'contended' };

/**
 * One write to a request's own claim, made inside the transaction of a phase so the claim, the
 * phase's writes and (at the end) the response commit together. `insert` claims the key for the
 * first time (a record whose window has passed is replaced); otherwise the claim is updated only
 * while `leaseToken` still holds it. Either way, a claim held by someone else makes the write fail
 * with IdempotencyClaimLost and the whole transaction roll back.
 */
export interface ClaimWrite {
  claim: IdempotencyClaim;
  insert: boolean;
  recoveryPoint: RecoveryPoint;
  resourceId: string | null;
  /** Present on the last write: the request's response, which completes the claim. */
  response: StoredResponse | null;
}

export interface IdempotencyStore {
  /**
   * Claims the key by inserting an in-progress record. If a record exists and has expired
   * (`expiresAt <= now`), it is removed and the claim tried again; a live one is returned as is.
   */
  claim(claim: IdempotencyClaim): Promise<ClaimResult>;
  /** The live record of this key (not expired at `now`), if any. */
  find(scope: IdempotencyScope, now: string): Promise<IdempotencyRecord | undefined>;
  /**
   * Takes over a claim whose lease has ended: gives it the new token and lease if it is still the
   * record read (same token, still in progress, lease still ended at `now`). Undefined when another
   * request changed it first.
   */
  takeOver(record: IdempotencyRecord, leaseToken: string, lockedUntil: string, now: string): Promise<IdempotencyRecord | undefined>;
  /** Makes one claim write on its own (its own transaction). */
  write(write: ClaimWrite): Promise<void>;
  /** Ends the lease of a claim still held with this token, so a retry may take over at once. */
  endLease(record: IdempotencyScope, leaseToken: string, now: string): Promise<void>;
  /**
   * Stores the response of a claim still in progress. False when that claim is no longer there
   * (released, purged, or replaced by a later claim after expiry); nothing is written then.
   */
  complete(record: IdempotencyRecord, response: StoredResponse): Promise<boolean>;
  /** Deletes a claim still in progress so the key can be used again. False when it was gone. */
  release(record: IdempotencyRecord): Promise<boolean>;
  /** Deletes at most `limit` records with `expiresAt <= now`; returns how many it deleted. */
  purgeExpired(now: string, limit: number): Promise<number>;
}
