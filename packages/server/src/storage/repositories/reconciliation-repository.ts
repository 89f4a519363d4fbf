import type { Kysely, Selectable } from 'kysely';
import type { OperatorDiscrepancy } from '../../core/operators/operator-discrepancy.js';
import type { AkweRecord, LineOutcome } from '../../core/reconciliation/reconciliation-matcher.js';
import type { ReconciliationLine, ReconciliationRun, ReconciliationStore, RunPage, RunSource } from '../../core/reconciliation/reconciliation-run.js';
import type { ReportResourceType } from '../../core/reconciliation/provider-report.js';
import type { Database, ReconciliationLineTable, ReconciliationRunTable } from '../schema.js';
import { isUniqueViolation } from '../unique-violation.js';
import { discrepancyRow } from './discrepancy-repository.js';

/** Values per `in (...)` list: well under SQLite's bound on a statement's parameters. */
const IN_LIST_CHUNK = 500;

function chunks<T>(values: readonly T[]): T[][] {
  const unique = [...new Set(values)];
  const out: T[][] = [];
  for (let at = 0; at < unique.length; at += IN_LIST_CHUNK) out.push(unique.slice(at, at + IN_LIST_CHUNK));
  return out;
}

function runFromRow(row: Selectable<ReconciliationRunTable>): ReconciliationRun {
  return {
    id: row.id,
    route: row.route,
    provider: row.provider,
    environment: 'live',
    periodStart: row.period_start,
    periodEnd: row.period_end,
    source: row.source as RunSource,
    fileName: row.file_name,
    fileSha256: row.file_sha256,
    lineCount: Number(row.line_count),
    counts: {
      matched: Number(row.matched_count),
      missing_at_provider: Number(row.missing_at_provider_count),
      missing_at_akwe: Number(row.missing_at_akwe_count),
      amount_differs: Number(row.amount_differs_count),
      status_differs: Number(row.status_differs_count),
    },
    providerCollectedMinor: Number(row.provider_collected_minor),
    providerPaidOutMinor: Number(row.provider_paid_out_minor),
    akweCollectedMinor: Number(row.akwe_collected_minor),
    akwePaidOutMinor: Number(row.akwe_paid_out_minor),
    createdBy: row.created_by,
    createdAt: row.created_at,
  };
}

function runToRow(run: ReconciliationRun): Selectable<ReconciliationRunTable> {
  return {
    id: run.id,
    route: run.route,
    provider: run.provider,
    environment: run.environment,
    period_start: run.periodStart,
    period_end: run.periodEnd,
    source: run.source,
    file_name: run.fileName,
    file_sha256: run.fileSha256,
    line_count: run.lineCount,
    matched_count: run.counts.matched,
    missing_at_provider_count: run.counts.missing_at_provider,
    missing_at_akwe_count: run.counts.missing_at_akwe,
    amount_differs_count: run.counts.amount_differs,
    status_differs_count: run.counts.status_differs,
    provider_collected_minor: run.providerCollectedMinor,
    provider_paid_out_minor: run.providerPaidOutMinor,
    akwe_collected_minor: run.akweCollectedMinor,
    akwe_paid_out_minor: run.akwePaidOutMinor,
    created_by: run.createdBy,
    created_at: run.createdAt,
  };
}

const nullableNumber = (value: number | string | null) => (value === null ? null : Number(value));

function lineFromRow(row: Selectable<ReconciliationLineTable>): ReconciliationLine {
  return {
    runId: row.run_id,
    position: Number(row.position),
    outcome: row.outcome as LineOutcome,
    resourceType: row.resource_type as ReportResourceType,
    resourceId: row.resource_id,
    merchantId: row.merchant_id,
    providerReference: row.provider_reference,
    currency: row.currency,
    akweAmountMinor: nullableNumber(row.akwe_amount_minor),
    providerAmountMinor: nullableNumber(row.provider_amount_minor),
    akweStatus: row.akwe_status,
    providerStatus: row.provider_status,
    occurredAt: row.occurred_at,
    discrepancyId: row.discrepancy_id,
  };
}

function lineToRow(line: ReconciliationLine): Selectable<ReconciliationLineTable> {
  return {
    run_id: line.runId,
    position: line.position,
    outcome: line.outcome,
    resource_type: line.resourceType,
    resource_id: line.resourceId,
    merchant_id: line.merchantId,
    provider_reference: line.providerReference,
    currency: line.currency,
    akwe_amount_minor: line.akweAmountMinor,
    provider_amount_minor: line.providerAmountMinor,
    akwe_status: line.akweStatus,
    provider_status: line.providerStatus,
    occurred_at: line.occurredAt,
    discrepancy_id: line.discrepancyId,
  };
}

interface RecordRow {
  id: string;
  merchant_id: string;
  reference: string;
  operator: string | null;
  amount_minor: number | string;
  currency: string;
  status: string;
  psp_reference: string | null;
  created_at: string;
  route: string | null;
  payment_id?: string | null;
}

function recordOf(resourceType: ReportResourceType, row: RecordRow): AkweRecord {
  return {
    resourceType,
    id: row.id,
    merchantId: row.merchant_id,
    reference: row.reference,
    operator: row.operator ?? row.route ?? '',
    amountMinor: Number(row.amount_minor),
    currency: row.currency,
    status: row.status,
    pspReference: row.psp_reference,
    createdAt: row.created_at,
    paymentId: row.payment_id ?? null,
  };
}

const recordColumns = ['id', 'merchant_id', 'reference', 'operator', 'amount_minor', 'currency', 'status', 'psp_reference', 'created_at', 'route'] as const;

export class ReconciliationRepository implements ReconciliationStore {
  constructor(private readonly db: Kysely<Database>) {}

  private payments() {
    return this.db.selectFrom('payments').select(recordColumns).where('environment', '=', 'live');
  }

  private payouts() {
    return this.db.selectFrom('payouts').select(recordColumns).where('environment', '=', 'live');
  }

  private refunds() {
    return this.db
      .selectFrom('refunds')
      .innerJoin('payments', 'payments.id', 'refunds.payment_id')
      .select([
        'refunds.id as id',
        'refunds.merchant_id as merchant_id',
        'payments.reference as reference',
        'payments.operator as operator',
        'refunds.amount_minor as amount_minor',
        'refunds.currency as currency',
        'refunds.status as status',
        'refunds.psp_reference as psp_reference',
        'refunds.created_at as created_at',
        'payments.route as route',
        'refunds.payment_id as payment_id',
      ])
      .where('refunds.environment', '=', 'live');
  }

  async recordsNamed(names: { ids: string[]; pspReferences: string[] }): Promise<AkweRecord[]> {
    const found: AkweRecord[] = [];
    for (const ids of chunks(names.ids)) {
      found.push(...(await this.payments().where('id', 'in', ids).execute()).map((row) => recordOf('payment', row)));
      found.push(...(await this.payouts().where('id', 'in', ids).execute()).map((row) => recordOf('payout', row)));
      const refunds = await this.refunds()
        .where((eb) => eb.or([eb('refunds.id', 'in', ids), eb('refunds.payment_id', 'in', ids)]))
        .execute();
      found.push(...refunds.map((row) => recordOf('refund', row)));
    }
    for (const references of chunks(names.pspReferences)) {
      found.push(...(await this.payments().where('psp_reference', 'in', references).execute()).map((row) => recordOf('payment', row)));
      found.push(...(await this.payouts().where('psp_reference', 'in', references).execute()).map((row) => recordOf('payout', row)));
      found.push(...(await this.refunds().where('refunds.psp_reference', 'in', references).execute()).map((row) => recordOf('refund', row)));
    }
    return found;
  }

  async recordsMadeIn(route: string, period: { start: string; end: string }): Promise<AkweRecord[]> {
    const payments = await this.payments()
      .where('route', '=', route)
      .where('status', 'in', ['completed', 'refunded'])
      .where('created_at', '>=', period.start)
      .where('created_at', '<', period.end)
      .execute();
    const payouts = await this.payouts()
      .where('route', '=', route)
      .where('status', '=', 'COMPLETED')
      .where('created_at', '>=', period.start)
      .where('created_at', '<', period.end)
      .execute();
    const refunds = await this.refunds()
      .where('payments.route', '=', route)
      .where('refunds.status', '=', 'completed')
      .where('refunds.created_at', '>=', period.start)
      .where('refunds.created_at', '<', period.end)
      .execute();
    return [...payments.map((row) => recordOf('payment', row)), ...payouts.map((row) => recordOf('payout', row)), ...refunds.map((row) => recordOf('refund', row))];
  }

  private async runOfFile(db: Kysely<Database>, route: string, sha256: string): Promise<ReconciliationRun | undefined> {
    const row = await db.selectFrom('reconciliation_runs').selectAll().where('route', '=', route).where('file_sha256', '=', sha256).executeTakeFirst();
    return row && runFromRow(row);
  }

  async saveRun(run: ReconciliationRun, lines: ReconciliationLine[], discrepancies: OperatorDiscrepancy[]): Promise<{ run: ReconciliationRun; created: boolean }> {
    const earlier = await this.runOfFile(this.db, run.route, run.fileSha256);
    if (earlier) return { run: earlier, created: false };
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx.insertInto('reconciliation_runs').values(runToRow(run)).execute();
        const keptAs = new Map<string, string>();
        for (const discrepancy of discrepancies) {
          const inserted = await trx
            .insertInto('operator_discrepancies')
            .values(discrepancyRow(discrepancy))
            .onConflict((oc) => oc.doNothing())
            .executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1) continue;
          // Found before (an earlier report): the line points at that one.
          const existing = await trx
            .selectFrom('operator_discrepancies')
            .select('id')
            .where('kind', '=', discrepancy.kind)
            .where((eb) =>
              discrepancy.resourceId === null
                ? eb.and([eb('route', '=', discrepancy.route), eb('operator_reference', '=', discrepancy.operatorReference)])
                : eb.and([eb('resource_type', '=', discrepancy.resourceType), eb('resource_id', '=', discrepancy.resourceId)]),
            )
            .executeTakeFirst();
          if (existing) keptAs.set(discrepancy.id, existing.id);
        }
        const rows = lines.map((line) => lineToRow({ ...line, discrepancyId: line.discrepancyId && (keptAs.get(line.discrepancyId) ?? line.discrepancyId) }));
        for (let at = 0; at < rows.length; at += 200)
          await trx
            .insertInto('reconciliation_lines')
            .values(rows.slice(at, at + 200))
            .execute();
      });
    } catch (error) {
      // The same file imported at the same moment by someone else: theirs is the run.
      const raced = isUniqueViolation(error) ? await this.runOfFile(this.db, run.route, run.fileSha256) : undefined;
      if (raced) return { run: raced, created: false };
      throw error;
    }
    return { run, created: true };
  }

  async hasRunCovering(route: string, period: { start: string; end: string }): Promise<boolean> {
    const row = await this.db
      .selectFrom('reconciliation_runs')
      .select('id')
      .where('route', '=', route)
      .where('period_start', '<=', period.start)
      .where('period_end', '>=', period.end)
      .executeTakeFirst();
    return row !== undefined;
  }

  async listRuns(filter: { route?: string; limit: number; startingAfter?: string }): Promise<RunPage> {
    let query = this.db
      .selectFrom('reconciliation_runs')
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit + 1);
    if (filter.route !== undefined) query = query.where('route', '=', filter.route);
    if (filter.startingAfter !== undefined) {
      const after = await this.db.selectFrom('reconciliation_runs').select(['created_at', 'id']).where('id', '=', filter.startingAfter).executeTakeFirst();
      if (after) query = query.where((eb) => eb.or([eb('created_at', '<', after.created_at), eb.and([eb('created_at', '=', after.created_at), eb('id', '<', after.id)])]));
    }
    const rows = await query.execute();
    return { data: rows.slice(0, filter.limit).map(runFromRow), hasMore: rows.length > filter.limit };
  }

  async getRun(id: string): Promise<ReconciliationRun | undefined> {
    const row = await this.db.selectFrom('reconciliation_runs').selectAll().where('id', '=', id).executeTakeFirst();
    return row && runFromRow(row);
  }

  async runLines(id: string): Promise<ReconciliationLine[]> {
    const rows = await this.db.selectFrom('reconciliation_lines').selectAll().where('run_id', '=', id).orderBy('position').execute();
    return rows.map(lineFromRow);
  }
}
