import type { SettlementService } from '../core/settlements/settlement-service.js';
import type { WorkerJob } from './worker-pool.js';

/** Moves wallet settlements to their payout's outcome (in transit, paid, failed), with their events. */
export function settlementFollowJob(settlements: SettlementService, options: { batchSize?: number; idleDelayMs?: number } = {}): WorkerJob {
  return { name: 'settlement-follow', idleDelayMs: options.idleDelayMs ?? 500, runOnce: () => settlements.followDue(options.batchSize ?? 50) };
}
