import type { TenantScope } from '../shared/environment.js';
import type { SettlementOrigin } from './settlement.js';
import type { ScheduleRunOutcome, SettlementSchedule } from './settlement-schedule.js';

/** A schedule a worker claimed, with the instant it was due (its `nextRunAt` is now the claim's end). */
export interface ClaimedSchedule {
  schedule: SettlementSchedule;
  dueAt: string;
}

/** What a finished run writes. */
export interface ScheduleRun {
  lastRunAt: string;
  lastOutcome: ScheduleRunOutcome;
  lastSettlementId: string | null;
  /** The next future run; kept only if nobody set the schedule since the claim. */
  nextRunAt: string | null;
}

export interface SettlementScheduleStore {
  find(scope: TenantScope, currency: string): Promise<SettlementSchedule | undefined>;
  /** The scope's schedules, by currency. */
  list(scope: TenantScope): Promise<SettlementSchedule[]>;
  /**
   * Writes the schedule's settings (interval, anchor, account, minimum, reserve, next run), creating
   * it or replacing them; its last run is kept. Resolves to the schedule as stored.
   */
  put(schedule: SettlementSchedule): Promise<SettlementSchedule>;
  /**
   * Takes up to `limit` schedules due at `now`, moving each one's next run to `claimedUntil` in the
   * same write, so no other worker takes it meanwhile and a worker that dies leaves it due again
   * once the claim ends.
   */
  claimDue(now: string, claimedUntil: string, limit: number): Promise<ClaimedSchedule[]>;
  /** Records a claimed run's outcome; the next run only if the schedule was not set since the claim. */
  recordRun(claimed: SettlementSchedule, run: ScheduleRun): Promise<void>;
  /** The scope's settlement with this reference (what an earlier try of the same run made). */
  findSettlement(scope: TenantScope, reference: string): Promise<{ id: string; origin: SettlementOrigin } | undefined>;
}
