import type { SettlementScheduleService } from '../core/settlements/settlement-schedule-service.js';
import type { WorkerJob } from './worker-pool.js';

/**
 * Runs the settlement schedules that are due. Runs fall on midnights UTC, so a look every minute is
 * soon enough; a pass that ran some looks again at once for more.
 */
export function settlementScheduleJob(schedules: SettlementScheduleService, options: { batchSize?: number; idleDelayMs?: number } = {}): WorkerJob {
  return { name: 'settlement-schedules', idleDelayMs: options.idleDelayMs ?? 60_000, runOnce: () => schedules.runDue(options.batchSize ?? 20) };
}
