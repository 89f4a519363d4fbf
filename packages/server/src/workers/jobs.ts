import type { Services } from '../services.js';
import { idempotencyCleanupJob } from './idempotency-cleanup-job.js';
import { paymentExpiryJob } from './payment-expiry-job.js';
import type { WorkerJob } from './worker-pool.js';

/** The background jobs every worker runs (webhook delivery and payouts join with their issues). */
export function createJobs(services: Services): WorkerJob[] {
  return [paymentExpiryJob(services.payments), idempotencyCleanupJob({ store: services.idempotency, clock: services.clock })];
}
