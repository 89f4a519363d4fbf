/**
 * Matches a provider's report against our records (pure: no I/O). Each line is paired with our
 * record by our id (every connector sends it) or, failing that, the provider's reference; the
 * pair agrees when both moved the same money (both completed with the same amount and currency,
 * or neither completed). What is left: a completed line we have no record of (missing_at_akwe), a
 * record of ours completed in the period that no line names (missing_at_provider), and pairs whose
 * amount or status differ. A line that moved no money and that we do not know is ignored.
 */
import type { ProviderReportLine, ReportResourceType } from './provider-report.js';

export const mismatchKinds = ['missing_at_provider', 'missing_at_akwe', 'amount_differs', 'status_differs'] as const;
export type MismatchKind = (typeof mismatchKinds)[number];
export type LineOutcome = 'matched' | 'ignored' | MismatchKind;

/** One of our payments, payouts or refunds, as reconciliation sees it. */
export interface AkweRecord {
  resourceType: ReportResourceType;
  id: string;
  merchantId: string;
  /** The merchant's reference. */
  reference: string;
  operator: string;
  amountMinor: number;
  currency: string;
  /** Our status in its own casing (payouts are uppercase). */
  status: string;
  pspReference: string | null;
  createdAt: string;
  /** A refund's payment (Wave's report names a refund by the payment's reference). */
  paymentId: string | null;
}

export interface MatchedLine {
  outcome: LineOutcome;
  resourceType: ReportResourceType;
  line: ProviderReportLine | null;
  record: AkweRecord | null;
}

export interface MatchResult {
  lines: MatchedLine[];
  counts: Record<'matched' | MismatchKind, number>;
  providerCollectedMinor: number;
  providerPaidOutMinor: number;
  akweCollectedMinor: number;
  akwePaidOutMinor: number;
}

/** Whether our record moved money: a refunded payment was collected first. */
export function movedMoney(record: AkweRecord): boolean {
  const status = record.status.toLowerCase();
  return status === 'completed' || (record.resourceType === 'payment' && status === 'refunded');
}

function inPeriod(at: string, period: { start: string; end: string }): boolean {
  return at >= period.start && at < period.end;
}

function pairOf(line: ProviderReportLine, records: readonly AkweRecord[], taken: Set<string>): AkweRecord | undefined {
  const free = records.filter((record) => record.resourceType === line.resourceType && !taken.has(`${record.resourceType}:${record.id}`));
  if (line.akweId !== null) {
    const own = free.find((record) => record.id === line.akweId);
    if (own) return own;
    // A refund named by its payment's id: the refund of that payment with the line's amount first.
    const refunds = line.resourceType === 'refund' ? free.filter((record) => record.paymentId === line.akweId) : [];
    const refund = refunds.find((record) => record.amountMinor === line.amountMinor) ?? refunds[0];
    if (refund) return refund;
  }
  return line.providerReference === null ? undefined : free.find((record) => record.pspReference === line.providerReference);
}

function outcomeOf(line: ProviderReportLine, record: AkweRecord): LineOutcome {
  const theirs = line.status === 'completed';
  const ours = movedMoney(record);
  if (theirs !== ours) return 'status_differs';
  if (!theirs) return 'matched';
  return line.amountMinor === record.amountMinor && line.currency === record.currency ? 'matched' : 'amount_differs';
}

/**
 * `records` holds every record of ours a line may name (whenever it was made) and every record on
 * the route made in `period` (the report's days, UTC); the matcher pairs and counts them.
 */
export function matchReport(lines: readonly ProviderReportLine[], records: readonly AkweRecord[], period: { start: string; end: string }): MatchResult {
  const taken = new Set<string>();
  const matched: MatchedLine[] = [];
  for (const line of lines) {
    const record = pairOf(line, records, taken);
    if (record) {
      taken.add(`${record.resourceType}:${record.id}`);
      matched.push({ outcome: outcomeOf(line, record), resourceType: line.resourceType, line, record });
    } else {
      matched.push({ outcome: line.status === 'completed' ? 'missing_at_akwe' : 'ignored', resourceType: line.resourceType, line, record: null });
    }
  }
  for (const record of records) {
    if (taken.has(`${record.resourceType}:${record.id}`) || !movedMoney(record) || !inPeriod(record.createdAt, period)) continue;
    matched.push({ outcome: 'missing_at_provider', resourceType: record.resourceType, line: null, record });
  }
  const counts = { matched: 0, missing_at_provider: 0, missing_at_akwe: 0, amount_differs: 0, status_differs: 0 };
  for (const { outcome } of matched) if (outcome !== 'ignored') counts[outcome] += 1;
  const collected = (type: ReportResourceType) => type === 'payment';
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const theirLines = matched.flatMap(({ line }) => (line && line.status === 'completed' ? [line] : []));
  const ourRecords = matched.flatMap(({ record }) => (record && movedMoney(record) ? [record] : []));
  return {
    lines: matched,
    counts,
    providerCollectedMinor: sum(theirLines.filter((line) => collected(line.resourceType)).map((line) => line.amountMinor)),
    providerPaidOutMinor: sum(theirLines.filter((line) => !collected(line.resourceType)).map((line) => line.amountMinor)),
    akweCollectedMinor: sum(ourRecords.filter((record) => collected(record.resourceType)).map((record) => record.amountMinor)),
    akwePaidOutMinor: sum(ourRecords.filter((record) => !collected(record.resourceType)).map((record) => record.amountMinor)),
  };
}
