import type { Services } from '../services.js';
import type { WorkerJob } from './worker-pool.js';

/**
 * The background jobs every worker runs. Payment expiry, webhook delivery and payout processing
 * register here as their issues land; until then the pool runs with no jobs.
 */
export function createJobs(_services: Services): WorkerJob[] {
  return [];
}
