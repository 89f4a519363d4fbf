import type { Kysely, Selectable } from 'kysely';
import type { DiscrepancyKind, DiscrepancyStore, OperatorDiscrepancy } from '../../core/operators/operator-discrepancy.js';
import type { Environment } from '../../core/shared/environment.js';
import type { Database, OperatorDiscrepancyTable } from '../schema.js';

function fromRow(row: Selectable<OperatorDiscrepancyTable>): OperatorDiscrepancy {
  return {
    id: row.id,
    kind: row.kind as DiscrepancyKind,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    resourceType: row.resource_type as OperatorDiscrepancy['resourceType'],
    resourceId: row.resource_id,
    reference: row.reference,
    operator: row.operator,
    ourStatus: row.our_status,
    operatorStatus: row.operator_status,
    operatorReference: row.operator_reference,
    message: row.message,
    createdAt: row.created_at,
    resolvedAt: row.resolved_at,
    resolution: row.resolution,
    route: row.route,
    currency: row.currency,
    ourAmountMinor: row.our_amount_minor === null ? null : Number(row.our_amount_minor),
    operatorAmountMinor: row.operator_amount_minor === null ? null : Number(row.operator_amount_minor),
    reconciliationRunId: row.reconciliation_run_id,
  };
}

/** The stored row, which is also what `akwe reconcile --json` prints (snake_case, as the API speaks). */
export function discrepancyRow(d: OperatorDiscrepancy): Selectable<OperatorDiscrepancyTable> {
  return {
    id: d.id,
    kind: d.kind,
    merchant_id: d.merchantId,
    environment: d.environment,
    resource_type: d.resourceType,
    resource_id: d.resourceId,
    reference: d.reference,
    operator: d.operator,
    our_status: d.ourStatus,
    operator_status: d.operatorStatus,
    operator_reference: d.operatorReference,
    message: d.message,
    created_at: d.createdAt,
    resolved_at: d.resolvedAt,
    resolution: d.resolution,
    route: d.route,
    currency: d.currency,
    our_amount_minor: d.ourAmountMinor,
    operator_amount_minor: d.operatorAmountMinor,
    reconciliation_run_id: d.reconciliationRunId,
  };
}

export class DiscrepancyRepository implements DiscrepancyStore {
  constructor(private readonly db: Kysely<Database>) {}

  async record(d: OperatorDiscrepancy): Promise<boolean> {
    const result = await this.db
      .insertInto('operator_discrepancies')
      .values(discrepancyRow(d))
      // Either unique key (docs: migration 0038) makes it a repeat.
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  async list(filter: { unresolvedOnly: boolean; limit: number }): Promise<OperatorDiscrepancy[]> {
    let query = this.db.selectFrom('operator_discrepancies').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit);
    if (filter.unresolvedOnly) query = query.where('resolved_at', 'is', null);
    return (await query.execute()).map(fromRow);
  }

  async resolve(id: string, resolution: string, at: string): Promise<OperatorDiscrepancy | undefined> {
    await this.db.updateTable('operator_discrepancies').set({ resolved_at: at, resolution }).where('id', '=', id).where('resolved_at', 'is', null).execute();
    const row = await this.db.selectFrom('operator_discrepancies').selectAll().where('id', '=', id).executeTakeFirst();
    return row && fromRow(row);
  }
}
