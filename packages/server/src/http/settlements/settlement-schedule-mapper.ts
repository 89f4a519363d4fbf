import type { SettlementSchedule } from '../../core/settlements/settlement-schedule.js';

/** Domain -> the settlement schedule object (centimes, `_minor` fields). */
export function settlementScheduleToWire(schedule: SettlementSchedule) {
  return {
    object: 'settlement_schedule' as const,
    currency: schedule.currency,
    interval: schedule.interval,
    anchor: schedule.anchor,
    settlement_account: schedule.accountId,
    minimum_minor: schedule.minimumMinor,
    reserve_minor: schedule.reserveMinor,
    next_run_at: schedule.nextRunAt,
    last_run_at: schedule.lastRunAt,
    last_outcome: schedule.lastOutcome,
    last_settlement: schedule.lastSettlementId,
    environment: schedule.environment,
    updated_at: schedule.updatedAt,
  };
}
