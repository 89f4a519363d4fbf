/**
 * The dashboard's home figures: completed collection volume per day and currency over the last
 * days, for one merchant and environment. Read from the payments, aggregated by the database.
 */
import type { Clock } from '../shared/clock.js';
import type { Environment } from '../shared/environment.js';

export interface DailyVolume {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  currency: string;
  count: number;
  amountMinor: number;
}

export interface PaymentVolumes {
  /** Completed (including since refunded) payments created on or after `since`, per UTC day and currency. */
  dailyCompleted(merchantId: string, environment: Environment, since: string): Promise<DailyVolume[]>;
}

export interface Overview {
  /** Oldest first, one entry per day of the window (zeros included) and currency seen. */
  days: DailyVolume[];
  since: string;
}

export const OVERVIEW_MAX_DAYS = 90;

export class DashboardOverview {
  constructor(private readonly deps: { volumes: PaymentVolumes; clock: Clock }) {}

  async volumes(merchantId: string, environment: Environment, dayCount: number): Promise<Overview> {
    const today = this.deps.clock.now();
    const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (dayCount - 1)));
    const since = start.toISOString();
    const found = await this.deps.volumes.dailyCompleted(merchantId, environment, since);
    const currencies = [...new Set(found.map((row) => row.currency))].sort();
    const byKey = new Map(found.map((row) => [`${row.day}|${row.currency}`, row]));
    const days: DailyVolume[] = [];
    for (let offset = 0; offset < dayCount; offset++) {
      const day = new Date(start.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
      for (const currency of currencies) days.push(byKey.get(`${day}|${currency}`) ?? { day, currency, count: 0, amountMinor: 0 });
    }
    return { days, since };
  }
}
