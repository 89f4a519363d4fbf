import type { Currency } from '../catalog/operator-catalog.js';
import type { Environment } from '../shared/environment.js';

export const settlementIntervals = ['off', 'daily', 'weekly', 'monthly'] as const;
export type SettlementInterval = (typeof settlementIntervals)[number];

/** 1 000 FCFA: a run that would settle less settles nothing (centimes). */
export const DEFAULT_SCHEDULE_MINIMUM_MINOR = 100_000;

/** The anchors each interval takes: an ISO weekday (1 = Monday) or a day of the month every month has. */
export const scheduleAnchorRanges = { weekly: { min: 1, max: 7 }, monthly: { min: 1, max: 28 } } as const;

/**
 * What a run did: `settled` (a settlement was made, or found made by an earlier try of the same run),
 * `below_minimum`, `account_cooling`, `account_removed`, or the error code that stopped it
 * (`kyc_required`, `insufficient_balance`, ...).
 */
export type ScheduleRunOutcome = 'settled' | 'below_minimum' | 'account_cooling' | 'account_removed' | (string & {});

/**
 * When a merchant's available balance in one currency and environment is settled by itself
 * (docs/settlements.md "Schedule"): at 00:00 UTC every day, on one weekday (`anchor` 1 = Monday to
 * 7 = Sunday) or on one day of the month (`anchor` 1 to 28), to `accountId`, keeping `reserveMinor`
 * back and only when at least `minimumMinor` would leave.
 */
export interface SettlementSchedule {
  merchantId: string;
  environment: Environment;
  currency: Currency;
  interval: SettlementInterval;
  anchor: number | null;
  accountId: string | null;
  minimumMinor: number;
  reserveMinor: number;
  /** The next run (null when off). While a worker runs it, the end of that worker's claim. */
  nextRunAt: string | null;
  lastRunAt: string | null;
  /** What the last run did. */
  lastOutcome: ScheduleRunOutcome | null;
  lastSettlementId: string | null;
  /** Null for a currency whose schedule was never set (it reads as `off` with the defaults). */
  createdAt: string | null;
  updatedAt: string | null;
  /** 0 for a schedule never set. */
  version: number;
}

/** A currency's schedule before anyone set it: off, with the defaults. */
export function unsetSchedule(scope: { merchantId: string; environment: Environment }, currency: Currency): SettlementSchedule {
  return {
    merchantId: scope.merchantId,
    environment: scope.environment,
    currency,
    interval: 'off',
    anchor: null,
    accountId: null,
    minimumMinor: DEFAULT_SCHEDULE_MINIMUM_MINOR,
    reserveMinor: 0,
    nextRunAt: null,
    lastRunAt: null,
    lastOutcome: null,
    lastSettlementId: null,
    createdAt: null,
    updatedAt: null,
    version: 0,
  };
}
