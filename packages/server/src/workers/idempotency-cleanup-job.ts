import type { IdempotencyStore } from '../core/idempotency/idempotency-store.js';
import type { Clock } from '../core/ports.js';
import type { WorkerJob } from './worker-pool.js';

export const IDEMPOTENCY_CLEANUP_BATCH_SIZE = 500;

export interface IdempotencyCleanupDeps {
  store: IdempotencyStore;
  clock: Clock;
  /** Records deleted per pass at most; the pool runs the next pass at once while passes are full. */
  batchSize?: number;
  /** Pause after a pass that found nothing expired. */
  idleDelayMs?: number;
}

/**
 * Deletes idempotency records past their `expires_at`, one bounded batch per pass, so a large
 * backlog never becomes one long statement holding locks. Expired records already no longer count
 * (a new claim replaces them); this only keeps the table small.
 */
export function idempotencyCleanupJob({ store, clock, batchSize = IDEMPOTENCY_CLEANUP_BATCH_SIZE, idleDelayMs = 60_000 }: IdempotencyCleanupDeps): WorkerJob {
  if (!Number.isInteger(batchSize) || batchSize <= 0) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
  return {
    name: 'idempotency-cleanup',
    idleDelayMs,
    runOnce: () => store.purgeExpired(clock.now().toISOString(), batchSize),
  };
}
