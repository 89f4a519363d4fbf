import type { OperatorDiscrepancy } from '../operators/operator-discrepancy.js';
import type { AkweRecord, LineOutcome, MismatchKind } from './reconciliation-matcher.js';
import type { ReportResourceType } from './provider-report.js';

export type RunSource = 'upload' | 'cli' | 'scheduled';

/** One reconciliation of a route's report: what it covered and its summary. */
export interface ReconciliationRun {
  id: string;
  /** The route whose report it is (the operators file's route name, by default the connector family). */
  route: string;
  /** The report's format: the connector family. */
  provider: string;
  environment: 'live';
  /** The UTC days covered: [periodStart, periodEnd). */
  periodStart: string;
  periodEnd: string;
  source: RunSource;
  fileName: string | null;
  fileSha256: string;
  lineCount: number;
  counts: Record<'matched' | MismatchKind, number>;
  providerCollectedMinor: number;
  providerPaidOutMinor: number;
  akweCollectedMinor: number;
  akwePaidOutMinor: number;
  /** The back office user who uploaded it; null from the CLI or the worker. */
  createdBy: string | null;
  createdAt: string;
}

/** One line of a run: theirs, ours, or both side by side. */
export interface ReconciliationLine {
  runId: string;
  position: number;
  outcome: LineOutcome;
  resourceType: ReportResourceType;
  resourceId: string | null;
  merchantId: string | null;
  providerReference: string | null;
  currency: string;
  akweAmountMinor: number | null;
  providerAmountMinor: number | null;
  akweStatus: string | null;
  providerStatus: string | null;
  occurredAt: string | null;
  discrepancyId: string | null;
}

export interface RunPage {
  data: ReconciliationRun[];
  hasMore: boolean;
}

export interface ReconciliationStore {
  /** Our records a report's lines name (by our id, a refund's payment id, or the provider's reference), whenever they were made, live only. */
  recordsNamed(names: { ids: string[]; pspReferences: string[] }): Promise<AkweRecord[]>;
  /** Our live records on `route` made in the period that moved money. */
  recordsMadeIn(route: string, period: { start: string; end: string }): Promise<AkweRecord[]>;
  /**
   * Writes the run, its lines and its new discrepancies in one transaction; a run of the same
   * file for the same route already stored is returned instead, with nothing written.
   */
  saveRun(run: ReconciliationRun, lines: ReconciliationLine[], discrepancies: OperatorDiscrepancy[]): Promise<{ run: ReconciliationRun; created: boolean }>;
  /** Whether a run of the route covers the whole period. */
  hasRunCovering(route: string, period: { start: string; end: string }): Promise<boolean>;
  listRuns(filter: { route?: string; limit: number; startingAfter?: string }): Promise<RunPage>;
  getRun(id: string): Promise<ReconciliationRun | undefined>;
  runLines(id: string): Promise<ReconciliationLine[]>;
}
