/**
 * An export's period from its query (`from` inclusive, `to` exclusive): a calendar date (midnight
 * UTC) or an RFC 3339 date-time with its offset. Anything else is 400 `validation_error` naming the
 * parameter, before a byte of the file is sent.
 */
import { AkweError } from '../errors/index.js';

export interface ExportPeriod {
  /** ISO instants (UTC, milliseconds). */
  from?: string;
  to?: string;
  /** How each bound appears in the file name. */
  fromLabel: string;
  toLabel: string;
}

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const dateTimePattern = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Whether year-month-day names a real day (no 2026-02-30). */
function realDay(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function refuse(field: string, value: string): never {
  throw new AkweError(
    'validation_error',
    `${field} must be a date (2026-06-01, midnight UTC) or a date-time with its offset (2026-06-01T09:30:00Z, 2026-06-01T09:30:00+01:00); got ${JSON.stringify(value.slice(0, 60))}.`,
    { field },
  );
}

/** One bound: its instant, and its label for the file name (the date as given, else the UTC instant without colons). */
export function parseBound(value: string, field: string): { instant: string; label: string } {
  const date = datePattern.exec(value);
  if (date) {
    const [year, month, day] = date.slice(1, 4).map(Number) as [number, number, number];
    if (!realDay(year, month, day)) refuse(field, value);
    return { instant: new Date(Date.UTC(year, month - 1, day)).toISOString(), label: value };
  }
  const dateTime = dateTimePattern.exec(value);
  if (!dateTime) refuse(field, value);
  const [year, month, day, hour, minute, second = 0] = dateTime.slice(1, 7).map((part) => Number(part ?? 0)) as number[];
  const offset = dateTime[8]!;
  const offsetValid = offset.length === 1 || (Number(offset.slice(1, 3)) < 24 && Number(offset.slice(4, 6)) < 60);
  // A leap second (23:59:60) is refused: JavaScript dates cannot hold it.
  if (!realDay(year!, month!, day!) || hour! > 23 || minute! > 59 || second > 59 || !offsetValid) refuse(field, value);
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) refuse(field, value);
  const iso = instant.toISOString();
  return { instant: iso, label: iso.replace('.000Z', 'Z').replaceAll(':', '') };
}

/** The period of `from` and `to` (either may be absent: no bound on that side); `from` must come before `to`. */
export function exportPeriod(query: { from?: string; to?: string }): ExportPeriod {
  const from = query.from === undefined ? undefined : parseBound(query.from, 'from');
  const to = query.to === undefined ? undefined : parseBound(query.to, 'to');
  if (from && to && from.instant >= to.instant) {
    throw new AkweError('validation_error', `from (${from.instant}) must be earlier than to (${to.instant}): to is exclusive.`, { field: 'to' });
  }
  return { from: from?.instant, to: to?.instant, fromLabel: from?.label ?? 'start', toLabel: to?.label ?? 'now' };
}
