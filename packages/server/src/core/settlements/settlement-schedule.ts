import type { Currency } from '../catalog/operator-catalog.js';
import type { Environment } from '../shared/environment.js';

export const settlementIntervals = ['off', 'daily', 'weekly', 'monthly'] as const;
export type SettlementInterval = (typeof settlementIntervals)[number];

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
  /** The next run (null when off). */
  nextRunAt: string | null;
  lastRunAt: string | null;
  /** What the last run did: `settled`, or why it settled nothing. */
  lastOutcome: string | null;
  lastSettlementId: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}
