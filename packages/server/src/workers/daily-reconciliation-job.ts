import type { DailyStatements } from '../core/reconciliation/daily-statements.js';
import type { WorkerJob } from './worker-pool.js';

/**
 * The daily reconciliation of the routes whose provider offers statements (docs/operations.md
 * "Reconciliation"). Its day comes once a day: a look every ten minutes is soon enough, and a
 * route that failed (the provider down) is tried again at the next look.
 */
export function dailyReconciliationJob(daily: DailyStatements, options: { idleDelayMs?: number } = {}): WorkerJob {
  return { name: 'daily-reconciliation', idleDelayMs: options.idleDelayMs ?? 600_000, runOnce: () => daily.runDue() };
}
