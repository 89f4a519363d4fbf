import type { SettlementInterval } from './settlement-schedule.js';

/**
 * When schedules run: at 00:00 UTC of every day (daily), of one ISO weekday (weekly, anchor 1 =
 * Monday .. 7 = Sunday) or of one day of the month (monthly, anchor 1..28, a day every month has).
 * UTC has no daylight-saving jumps, so every run is exactly on a midnight.
 */

const DAY_MS = 86_400_000;

function startOfUtcDay(at: Date): number {
  return Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
}

/** 1 = Monday .. 7 = Sunday, of the UTC day starting at `dayStart`. */
function isoWeekday(dayStart: number): number {
  return ((new Date(dayStart).getUTCDay() + 6) % 7) + 1;
}

/** The first run strictly after `after`; null when off. */
export function nextRunAfter(interval: SettlementInterval, anchor: number | null, after: Date): Date | null {
  const today = startOfUtcDay(after);
  switch (interval) {
    case 'off':
      return null;
    case 'daily':
      return new Date(today + DAY_MS);
    case 'weekly': {
      const tomorrow = today + DAY_MS;
      const ahead = ((anchor ?? 1) - isoWeekday(tomorrow) + 7) % 7;
      return new Date(tomorrow + ahead * DAY_MS);
    }
    case 'monthly': {
      const thisMonth = Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), anchor ?? 1);
      // Date.UTC carries month 12 into January of the next year.
      return new Date(thisMonth > after.getTime() ? thisMonth : Date.UTC(after.getUTCFullYear(), after.getUTCMonth() + 1, anchor ?? 1));
    }
  }
}

/**
 * The latest run at or before `at`: the one a run happening at `at` stands for, whose date names it
 * (a late run, after the server was down, stands for the latest run it missed). Null when off.
 */
export function runAtOrBefore(interval: SettlementInterval, anchor: number | null, at: Date): Date | null {
  const today = startOfUtcDay(at);
  switch (interval) {
    case 'off':
      return null;
    case 'daily':
      return new Date(today);
    case 'weekly':
      return new Date(today - ((isoWeekday(today) - (anchor ?? 1) + 7) % 7) * DAY_MS);
    case 'monthly': {
      const thisMonth = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), anchor ?? 1);
      // Date.UTC carries month -1 into December of the year before.
      return new Date(thisMonth <= at.getTime() ? thisMonth : Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - 1, anchor ?? 1));
    }
  }
}
