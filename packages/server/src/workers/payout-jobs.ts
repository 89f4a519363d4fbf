import type { BulkService } from '../core/bulk/bulk-service.js';
import type { PayoutService } from '../core/payouts/payout-service.js';
import type { WorkerJob } from './worker-pool.js';

/** Hands new payouts to their operators as soon as they commit (signal `payouts`), at most once each. */
export function payoutHandoffJob(payouts: PayoutService, options: { batchSize?: number; idleDelayMs?: number } = {}): WorkerJob {
  return { name: 'payout-handoff', idleDelayMs: options.idleDelayMs ?? 1_000, wakeOn: ['payouts'], runOnce: () => payouts.handOffDue(options.batchSize ?? 50) };
}

/** Asks operators about payouts they are processing and records the final ones. */
export function payoutCheckJob(payouts: PayoutService, options: { batchSize?: number; idleDelayMs?: number } = {}): WorkerJob {
  return { name: 'payout-check', idleDelayMs: options.idleDelayMs ?? 500, runOnce: () => payouts.checkDue(options.batchSize ?? 100) };
}

/** Moves the lines of batches being executed to their payouts' final status, and each batch to its own. */
export function bulkFollowJob(bulk: BulkService, options: { batchSize?: number; idleDelayMs?: number } = {}): WorkerJob {
  return { name: 'bulk-follow', idleDelayMs: options.idleDelayMs ?? 1_000, wakeOn: ['bulk'], runOnce: () => bulk.followDue(options.batchSize ?? 20) };
}
