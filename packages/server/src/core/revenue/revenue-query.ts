/**
 * The revenue report's query: whole UTC days (`from` inclusive, `to` exclusive, as the exports'
 * periods), one grouping, one environment (live unless asked). A bad value is 400
 * `validation_error` naming the parameter.
 */
import { AkweError } from '../errors/index.js';
import type { Environment } from '../shared/environment.js';
import type { RevenuePeriod } from './revenue-ledger.js';

export const revenueGroupings = ['day', 'operator', 'route', 'merchant'] as const;
export type RevenueGrouping = (typeof revenueGroupings)[number];

/** A year and a day: enough for a yearly close, small enough to stay a quick read. */
export const MAX_REVENUE_DAYS = 366;

export interface RevenueQuery {
  period: RevenuePeriod;
  /** The days as asked, for file names and titles. */
  fromDay: string;
  toDay: string;
  groupBy: RevenueGrouping;
  environment: Environment;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

function dayInstant(value: string, field: string): Date {
  const match = DAY.exec(value);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
  if (!date || date.toISOString().slice(0, 10) !== value) {
    throw new AkweError('validation_error', `${field} must be a calendar day, 2026-11-01 (UTC); got ${JSON.stringify(value.slice(0, 40))}.`, { field });
  }
  return date;
}

export function revenueQuery(input: { from: string; to: string; groupBy?: RevenueGrouping; environment?: Environment }): RevenueQuery {
  const from = dayInstant(input.from, 'from');
  const to = dayInstant(input.to, 'to');
  if (to <= from) throw new AkweError('validation_error', `to (${input.to}) must be later than from (${input.from}): to is exclusive.`, { field: 'to' });
  if ((to.getTime() - from.getTime()) / DAY_MS > MAX_REVENUE_DAYS) {
    throw new AkweError('validation_error', `A report covers at most ${MAX_REVENUE_DAYS} days; ask for several.`, { field: 'to' });
  }
  return {
    period: { from: from.toISOString(), to: to.toISOString() },
    fromDay: input.from,
    toDay: input.to,
    groupBy: input.groupBy ?? 'day',
    environment: input.environment ?? 'live',
  };
}
