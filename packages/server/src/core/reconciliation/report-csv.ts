/**
 * What every provider's CSV parser shares: the rows by column name (any order, extra columns
 * ignored, the delimiter read from the header), amounts in major units to centimes, dates to UTC
 * instants, and one `invalid_report` error listing every line at fault, so nothing is recorded
 * from a file that is partly wrong.
 */
import { parse } from 'csv-parse/sync';
import { AkweError, type ErrorDetail } from '../errors/index.js';
import type { ProviderReportLine, ReportResourceType, ReportStatus } from './provider-report.js';

/** The largest report read at once (bytes of text). */
export const MAX_REPORT_BYTES = 5 * 1024 * 1024;

export interface ReportRow {
  /** The number a spreadsheet shows: the header is row 1. */
  row: number;
  cell(column: string): string;
}

/** Collects the problems of a file, then throws them together. */
export class ReportProblems {
  private readonly details: ErrorDetail[] = [];

  add(row: number, field: string, message: string): void {
    if (this.details.length < 100) this.details.push({ row, field, message });
  }

  throwIfAny(provider: string): void {
    if (this.details.length === 0) return;
    const first = this.details[0]!;
    throw new AkweError('invalid_report', `This is not a ${provider} report Akwe can read: row ${first.row}, ${first.field}: ${first.message}`, {
      field: 'file',
      details: this.details,
    });
  }
}

function fileError(provider: string, message: string): AkweError {
  return new AkweError('invalid_report', `This is not a ${provider} report Akwe can read: ${message}`, { field: 'file', details: [{ field: 'file', message }] });
}

/** The rows of a CSV report whose header names at least `required` (letter case and spaces around ignored). */
export function readReportRows(provider: string, text: string, required: readonly string[]): ReportRow[] {
  if (Buffer.byteLength(text) > MAX_REPORT_BYTES) throw fileError(provider, `the file is over ${MAX_REPORT_BYTES / 1024 / 1024} MB.`);
  const body = text.replace(/^\ufeff/, '');
  const headerLine = body.split(/\r?\n/, 1)[0] ?? '';
  const delimiter = (headerLine.match(/;/g)?.length ?? 0) > (headerLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  let records: string[][];
  try {
    records = parse(body, { delimiter, relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  } catch (error) {
    throw fileError(provider, `it is not CSV (${(error as Error).message}).`);
  }
  const [header, ...lines] = records;
  if (!header) throw fileError(provider, 'the file is empty.');
  const positions = new Map(header.map((name, index) => [name.trim().toLowerCase(), index]));
  const missing = required.filter((name) => !positions.has(name.toLowerCase()));
  if (missing.length > 0) throw fileError(provider, `the header lacks ${missing.map((name) => `"${name}"`).join(', ')}.`);
  return lines.map((cells, index) => ({
    row: index + 2,
    cell: (column) => {
      const at = positions.get(column.toLowerCase());
      return at === undefined ? '' : (cells[at] ?? '').trim();
    },
  }));
}

/** "5000", "5 000", "5000.50", "-5000" (major units) -> centimes; undefined when it is no amount. */
export function minorUnitsOf(text: string): number | undefined {
  const compact = text.replace(/[\s\u00a0\u202f]/g, '');
  const match = /^-?(\d+)(?:[.,](\d{1,2}))?$/.exec(compact);
  if (!match) return undefined;
  const minor = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(minor) ? minor : undefined;
}

/**
 * A date-time to an ISO instant: with an offset or Z as given; without one it is read as UTC
 * (pawaPay and Wave write UTC; the providers whose format we define write it so).
 */
export function instantOf(text: string): string | undefined {
  const normalized = text.trim().replace(' ', 'T');
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(normalized)) return undefined;
  const withZone = /(Z|[+-]\d{2}:?\d{2})$/.test(normalized) ? normalized : `${normalized.length === 10 ? `${normalized}T00:00:00` : normalized}Z`;
  const at = Date.parse(withZone);
  return Number.isNaN(at) ? undefined : new Date(at).toISOString();
}

/** The common checks of a line: amount, currency and date; each problem is added and undefined returned. */
export function commonCells(
  row: ReportRow,
  problems: ReportProblems,
  columns: { amount: string; currency: string; date: string },
): { amountMinor: number; currency: string; occurredAt: string } | undefined {
  const amountMinor = minorUnitsOf(row.cell(columns.amount));
  if (amountMinor === undefined) problems.add(row.row, columns.amount, `"${row.cell(columns.amount)}" is not an amount.`);
  const currency = row.cell(columns.currency).toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) problems.add(row.row, columns.currency, `"${row.cell(columns.currency)}" is not a currency code.`);
  const occurredAt = instantOf(row.cell(columns.date));
  if (occurredAt === undefined) problems.add(row.row, columns.date, `"${row.cell(columns.date)}" is not a date-time.`);
  if (amountMinor === undefined || occurredAt === undefined || !/^[A-Z]{3}$/.test(currency)) return undefined;
  return { amountMinor: Math.abs(amountMinor), currency, occurredAt };
}

/** A cell's value looked up in a table of the provider's words; the problem added when it is not there. */
export function oneOf<T>(row: ReportRow, problems: ReportProblems, column: string, table: Readonly<Record<string, T>>): T | undefined {
  const value = row.cell(column);
  const found = table[value.toUpperCase()];
  if (found === undefined) problems.add(row.row, column, `"${value}" is not one of ${Object.keys(table).join(', ')}.`);
  return found;
}

/** An empty cell is null. */
export function optional(text: string): string | null {
  return text === '' ? null : text;
}

/** A provider's CSV format as data: its column names and what its words mean to us. */
export interface TabularReportSpec {
  provider: string;
  columns: {
    date: string;
    akweId: string;
    providerReference?: string;
    type: string;
    amount: string;
    currency: string;
    /** None: the report lists completed movements only (a wallet statement). */
    status?: string;
  };
  /** Its transaction types; null: a movement that is none of ours (a fee, a top-up), skipped. */
  types: Readonly<Record<string, ReportResourceType | null>>;
  statuses?: Readonly<Record<string, ReportStatus>>;
}

/** The lines of a report in a tabular format; every line at fault is reported at once, and nothing is returned then. */
export function parseTabularReport(spec: TabularReportSpec, text: string): ProviderReportLine[] {
  const { columns } = spec;
  const required = [columns.date, columns.akweId, columns.type, columns.amount, columns.currency, ...(columns.status ? [columns.status] : [])];
  const rows = readReportRows(spec.provider, text, required);
  const problems = new ReportProblems();
  const lines: ProviderReportLine[] = [];
  for (const row of rows) {
    const resourceType = oneOf(row, problems, columns.type, spec.types);
    const status = columns.status && spec.statuses ? oneOf(row, problems, columns.status, spec.statuses) : 'completed';
    const common = commonCells(row, problems, columns);
    const akweId = optional(row.cell(columns.akweId));
    const providerReference = columns.providerReference ? optional(row.cell(columns.providerReference)) : null;
    if (resourceType !== null && akweId === null && providerReference === null) problems.add(row.row, columns.akweId, 'the line names no transaction.');
    if (resourceType === undefined || resourceType === null || status === undefined || common === undefined) continue;
    lines.push({ row: row.row, resourceType, akweId, providerReference, status, ...common });
  }
  problems.throwIfAny(spec.provider);
  return lines;
}
