/**
 * Reconciliation against a provider's report (docs/operations.md "Reconciliation"): read the
 * file with the provider's parser, gather our records it names and those made on the route in its
 * days, match them, and store the run with its lines and a discrepancy for each mismatch, all in
 * one write. The same file imported again for the same route gives back its first run.
 */
import { createHash } from 'node:crypto';
import { AkweError } from '../errors/index.js';
import type { OperatorDiscrepancy } from '../operators/operator-discrepancy.js';
import type { Clock, IdSource } from '../ports.js';
import type { ProviderReportFormat, ProviderReportLine } from './provider-report.js';
import { matchReport, type MatchedLine } from './reconciliation-matcher.js';
import type { ReconciliationLine, ReconciliationRun, ReconciliationStore, RunPage, RunSource } from './reconciliation-run.js';

const DAY_MS = 86_400_000;
const dayShape = /^\d{4}-\d{2}-\d{2}$/;

export interface ReportImport {
  /** The connector family whose format the file is in. */
  provider: string;
  /** The route it is the report of; by default the provider's name (the family's default route). */
  route?: string;
  text: string;
  fileName?: string | null;
  /** The UTC day the report covers (YYYY-MM-DD); by default the days of its lines. */
  day?: string;
  source: RunSource;
  createdBy?: string | null;
}

const routeShape = /^[a-z0-9_-]{1,32}$/;

function startOfDay(at: string): number {
  return Math.floor(Date.parse(at) / DAY_MS) * DAY_MS;
}

/** The run's days: the one given, or from the first line's day to the end of the last one's. */
function periodOf(lines: readonly ProviderReportLine[], day: string | undefined, provider: string): { start: string; end: string } {
  if (day !== undefined) {
    const start = Date.parse(`${day}T00:00:00Z`);
    if (!dayShape.test(day) || Number.isNaN(start) || new Date(start).toISOString().slice(0, 10) !== day) {
      throw AkweError.ofField('validation_error', 'date', `date must be a day, YYYY-MM-DD (got "${day}").`);
    }
    return { start: new Date(start).toISOString(), end: new Date(start + DAY_MS).toISOString() };
  }
  if (lines.length === 0) {
    throw new AkweError('invalid_report', `This ${provider} report has no lines: name the day it covers (date) to reconcile it.`, {
      field: 'file',
      details: [{ field: 'file', message: 'no lines, and no date given' }],
    });
  }
  const starts = lines.map((line) => startOfDay(line.occurredAt));
  return { start: new Date(Math.min(...starts)).toISOString(), end: new Date(Math.max(...starts) + DAY_MS).toISOString() };
}

function describe(matched: MatchedLine, route: string): string {
  const { line, record } = matched;
  const theirs = line ? `${line.amountMinor} ${line.currency} ${line.status}` : '';
  const ours = record ? `${record.amountMinor} ${record.currency} ${record.status}` : '';
  switch (matched.outcome) {
    case 'missing_at_akwe':
      return `${route}'s report (row ${line?.row}) shows a ${matched.resourceType} of ${theirs} that Akwe has no record of.`;
    case 'missing_at_provider':
      return `Akwe's ${matched.resourceType} of ${ours} is not in ${route}'s report.`;
    case 'amount_differs':
      return `${route}'s report (row ${line?.row}) shows ${theirs}; Akwe recorded ${ours}.`;
    default:
      return `${route}'s report (row ${line?.row}) says ${line?.status}; Akwe's ${matched.resourceType} is ${record?.status}.`;
  }
}

export class ReconciliationService {
  constructor(
    private readonly deps: {
      store: ReconciliationStore;
      formats: Readonly<Record<string, ProviderReportFormat>>;
      clock: Clock;
      newId: IdSource;
    },
  ) {}

  /** The names of the providers whose reports can be read. */
  providers(): string[] {
    return Object.keys(this.deps.formats);
  }

  formatOf(provider: string): ProviderReportFormat {
    const format = this.deps.formats[provider];
    if (!format) throw AkweError.ofField('unknown_provider', 'provider', `No report format for "${provider}"; Akwe reads ${this.providers().join(', ')}.`);
    return format;
  }

  /** Reads, matches and stores; nothing is written when the file or an argument is refused. */
  async importReport(input: ReportImport): Promise<{ run: ReconciliationRun; created: boolean }> {
    const format = this.formatOf(input.provider);
    const route = input.route ?? input.provider;
    if (!routeShape.test(route)) throw AkweError.ofField('validation_error', 'route', 'route must be a route name of the operators file (lowercase letters, digits, - and _).');
    const reportLines = format.parse(input.text);
    const period = periodOf(reportLines, input.day, input.provider);
    const named = await this.deps.store.recordsNamed({
      ids: reportLines.flatMap((line) => (line.akweId === null ? [] : [line.akweId])),
      pspReferences: reportLines.flatMap((line) => (line.providerReference === null ? [] : [line.providerReference])),
    });
    const made = await this.deps.store.recordsMadeIn(route, period);
    const records = [...new Map([...named, ...made].map((record) => [`${record.resourceType}:${record.id}`, record])).values()];
    const result = matchReport(reportLines, records, period);

    const runId = this.deps.newId();
    const now = this.deps.clock.now().toISOString();
    const discrepancies: OperatorDiscrepancy[] = [];
    const lines: ReconciliationLine[] = result.lines.map((matched, index) => {
      const { line, record } = matched;
      let discrepancyId: string | null = null;
      if (matched.outcome !== 'matched' && matched.outcome !== 'ignored') {
        discrepancyId = this.deps.newId();
        discrepancies.push({
          id: discrepancyId,
          kind: matched.outcome,
          merchantId: record?.merchantId ?? null,
          environment: 'live',
          resourceType: matched.resourceType,
          resourceId: record?.id ?? null,
          reference: record?.reference ?? line?.akweId ?? line?.providerReference ?? '',
          operator: record?.operator ?? route,
          ourStatus: record?.status ?? 'absent',
          operatorStatus: line?.status ?? 'absent',
          operatorReference: line ? (line.providerReference ?? line.akweId) : (record?.pspReference ?? null),
          message: describe(matched, route),
          createdAt: now,
          resolvedAt: null,
          resolution: null,
          route,
          currency: line?.currency ?? record?.currency ?? null,
          ourAmountMinor: record?.amountMinor ?? null,
          operatorAmountMinor: line?.amountMinor ?? null,
          reconciliationRunId: runId,
        });
      }
      return {
        runId,
        position: index + 1,
        outcome: matched.outcome,
        resourceType: matched.resourceType,
        resourceId: record?.id ?? null,
        merchantId: record?.merchantId ?? null,
        // A line we have no record of is named by what the provider wrote: its reference, else the id it claims is ours.
        providerReference: line?.providerReference ?? (record ? record.pspReference : (line?.akweId ?? null)),
        currency: line?.currency ?? record?.currency ?? '',
        akweAmountMinor: record?.amountMinor ?? null,
        providerAmountMinor: line?.amountMinor ?? null,
        akweStatus: record?.status ?? null,
        providerStatus: line?.status ?? null,
        occurredAt: line?.occurredAt ?? record?.createdAt ?? null,
        discrepancyId,
      };
    });
    const run: ReconciliationRun = {
      id: runId,
      route,
      provider: input.provider,
      environment: 'live',
      periodStart: period.start,
      periodEnd: period.end,
      source: input.source,
      fileName: input.fileName ?? null,
      // The import's identity: the same bytes for the same period are one report (imported once);
      // the same bytes for another day (an idle route's empty statements) are that day's own.
      fileSha256: createHash('sha256').update(`${period.start}/${period.end}\n`).update(input.text).digest('hex'),
      lineCount: reportLines.length,
      counts: result.counts,
      providerCollectedMinor: result.providerCollectedMinor,
      providerPaidOutMinor: result.providerPaidOutMinor,
      akweCollectedMinor: result.akweCollectedMinor,
      akwePaidOutMinor: result.akwePaidOutMinor,
      createdBy: input.createdBy ?? null,
      createdAt: now,
    };
    return this.deps.store.saveRun(run, lines, discrepancies);
  }

  /** Whether a run of `route` covers the whole UTC day `day` (YYYY-MM-DD) already. */
  hasRunFor(route: string, day: string): Promise<boolean> {
    const start = new Date(`${day}T00:00:00Z`);
    return this.deps.store.hasRunCovering(route, { start: start.toISOString(), end: new Date(start.getTime() + DAY_MS).toISOString() });
  }

  listRuns(filter: { route?: string; limit: number; startingAfter?: string }): Promise<RunPage> {
    return this.deps.store.listRuns(filter);
  }

  async getRun(id: string): Promise<{ run: ReconciliationRun; lines: ReconciliationLine[] }> {
    const run = await this.deps.store.getRun(id);
    if (!run) throw new AkweError('not_found', `No reconciliation run ${id}.`);
    return { run, lines: await this.deps.store.runLines(id) };
  }
}
