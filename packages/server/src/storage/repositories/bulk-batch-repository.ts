import type { Kysely, Selectable } from 'kysely';
import type { CountryCode, Currency } from '../../core/catalog/operator-catalog.js';
import type { BulkBatch, BulkBatchItem, BulkBatchSource, BulkBatchStatus, BulkItemStatus, BulkLineProblem, BulkStatusTotal } from '../../core/bulk/bulk-batch.js';
import type { BulkBatchFilters, BulkBatchStore } from '../../core/bulk/bulk-batch-store.js';
import type { StoredEvent } from '../../core/events/stored-event.js';
import type { ClaimWrite } from '../../core/idempotency/idempotency-store.js';
import type { WorkSignals } from '../../core/shared/work-signals.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
import type { FailureCode } from '../../core/shared/failure-codes.js';
import type { Metadata } from '../../core/shared/metadata.js';
import type { Page, PageRequest } from '../../core/shared/pagination.js';
import { keysetQuery } from '../keyset-page.js';
import { createdWithin, listPage, listRows } from '../list-query.js';
import type { BulkBatchItemTable, BulkBatchTable, Database } from '../schema.js';
import { EventOutbox } from './event-repository.js';
import { metadataEntries } from './metadata-entries.js';
import { looksLikeId } from '../../core/shared/ids.js';

/** Rows per INSERT: 20 columns x 500 stays under every database's bound on statement parameters. */
const INSERT_CHUNK = 500;
/** References per IN list when looking for existing payouts. */
const LOOKUP_CHUNK = 500;

function batchFromRow(row: Selectable<BulkBatchTable>): BulkBatch {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    name: row.name,
    description: row.description,
    status: row.status as BulkBatchStatus,
    source: row.source as BulkBatchSource,
    currency: row.currency as Currency,
    itemCount: Number(row.item_count),
    totalAmountMinor: Number(row.total_amount_minor),
    totalFeeMinor: Number(row.total_fee_minor),
    metadata: JSON.parse(row.metadata) as Metadata,
    validatedAt: row.validated_at,
    completedAt: row.completed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

/** The batch's own columns; `followed_at` is the worker's (see `visited`). */
function batchToRow(b: BulkBatch): Omit<Selectable<BulkBatchTable>, 'followed_at'> {
  return {
    id: b.id,
    merchant_id: b.merchantId,
    environment: b.environment,
    name: b.name,
    description: b.description,
    status: b.status,
    source: b.source,
    currency: b.currency,
    item_count: b.itemCount,
    total_amount_minor: b.totalAmountMinor,
    total_fee_minor: b.totalFeeMinor,
    metadata: JSON.stringify(b.metadata),
    validated_at: b.validatedAt,
    completed_at: b.completedAt,
    created_at: b.createdAt,
    updated_at: b.updatedAt,
    version: b.version,
  };
}

function itemFromRow(row: Selectable<BulkBatchItemTable>): BulkBatchItem {
  return {
    id: row.id,
    batchId: row.batch_id,
    row: Number(row.row_number),
    beneficiaryName: row.beneficiary_name,
    phone: row.phone,
    amountMinor: Number(row.amount_minor),
    feeMinor: Number(row.fee_minor),
    currency: row.currency as Currency,
    country: row.country as CountryCode,
    operator: row.operator,
    reference: row.reference,
    description: row.description,
    metadata: JSON.parse(row.metadata) as Metadata,
    status: row.status as BulkItemStatus,
    problems: row.problems === null ? null : (JSON.parse(row.problems) as BulkLineProblem[]),
    payoutId: row.payout_id,
    failureCode: row.failure_code as FailureCode | null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function itemToRow(i: BulkBatchItem): Selectable<BulkBatchItemTable> {
  return {
    id: i.id,
    batch_id: i.batchId,
    row_number: i.row,
    beneficiary_name: i.beneficiaryName,
    phone: i.phone,
    amount_minor: i.amountMinor,
    fee_minor: i.feeMinor,
    currency: i.currency,
    country: i.country,
    operator: i.operator,
    reference: i.reference,
    description: i.description,
    metadata: JSON.stringify(i.metadata),
    status: i.status,
    problems: i.problems === null ? null : JSON.stringify(i.problems),
    payout_id: i.payoutId,
    failure_code: i.failureCode,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
  };
}

/** A page of the scope's batches, newest first (exported for query-plan tests). */
export function bulkBatchListQuery(db: Kysely<Database>, scope: TenantScope, filters: BulkBatchFilters, page: PageRequest) {
  const { query, idColumn } = bulkBatchListRows(db, scope, filters);
  return keysetQuery(query, idColumn, page);
}

/** The scope's batches that the filters keep, before paging. */
export function bulkBatchListRows(db: Kysely<Database>, scope: TenantScope, filters: BulkBatchFilters) {
  return listRows(db.selectFrom('bulk_batches').selectAll(), { scope, filters: [['status', '=', filters.status], ...createdWithin(filters)] });
}

class VersionConflict extends Error {}

export class BulkBatchRepository implements BulkBatchStore {
  private readonly outbox: EventOutbox;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly claims: { writeIn(executor: Kysely<Database>, write: ClaimWrite): Promise<void> },
    private readonly signals?: Pick<WorkSignals, 'notify'>,
  ) {
    this.outbox = new EventOutbox(db);
  }

  async insert(batch: BulkBatch, items: BulkBatchItem[], claim?: ClaimWrite): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (claim) await this.claims.writeIn(trx, claim);
      await trx.insertInto('bulk_batches').values(batchToRow(batch)).execute();
      const entries = metadataEntries('bulk_batch', batch);
      if (entries.length > 0) await trx.insertInto('metadata_entries').values(entries).execute();
      for (let start = 0; start < items.length; start += INSERT_CHUNK) {
        await trx
          .insertInto('bulk_batch_items')
          .values(items.slice(start, start + INSERT_CHUNK).map(itemToRow))
          .execute();
      }
    });
  }

  async find(scope: TenantScope, id: string): Promise<BulkBatch | undefined> {
    if (!looksLikeId(id)) return undefined;
    const row = await this.db
      .selectFrom('bulk_batches')
      .selectAll()
      .where('merchant_id', '=', scope.merchantId)
      .where('environment', '=', scope.environment)
      .where('id', '=', id.toLowerCase())
      .executeTakeFirst();
    return row && batchFromRow(row);
  }

  async list(scope: TenantScope, filters: BulkBatchFilters, page: PageRequest): Promise<Page<BulkBatch>> {
    return listPage({ all: bulkBatchListRows(this.db, scope, {}), filtered: bulkBatchListRows(this.db, scope, filters) }, page, batchFromRow);
  }

  async items(batchId: string, filters: { status?: BulkItemStatus }, page: PageRequest): Promise<Page<BulkBatchItem>> {
    const batchItems = this.db.selectFrom('bulk_batch_items').selectAll().where('batch_id', '=', batchId);
    const filtered = filters.status ? batchItems.where('status', '=', filters.status) : batchItems;
    // Row order: ids are made in row order.
    return listPage({ all: { query: batchItems, idColumn: 'id' }, filtered: { query: filtered, idColumn: 'id' } }, page, itemFromRow, 'row_order');
  }

  async totalsByStatus(batchId: string): Promise<BulkStatusTotal[]> {
    const rows = await this.db
      .selectFrom('bulk_batch_items')
      .select((eb) => ['status', eb.fn.countAll().as('count'), eb.fn.sum('amount_minor').as('amount'), eb.fn.sum('fee_minor').as('fee')])
      .where('batch_id', '=', batchId)
      .groupBy('status')
      .execute();
    return rows.map((row) => ({ status: row.status as BulkItemStatus, count: Number(row.count), amountMinor: Number(row.amount), feeMinor: Number(row.fee) }));
  }

  async saveBatch(next: BulkBatch, expectedVersion: number, events: StoredEvent[] = [], options: { cancelPendingLines?: boolean } = {}): Promise<boolean> {
    const { id: _id, merchant_id: _m, environment: _e, created_at: _c, ...columns } = batchToRow(next);
    try {
      await this.db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('bulk_batches')
          .set({ ...columns, version: expectedVersion + 1 })
          .where('id', '=', next.id)
          .where('version', '=', expectedVersion)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) throw new VersionConflict();
        if (options.cancelPendingLines) {
          await trx
            .updateTable('bulk_batch_items')
            .set({ status: 'cancelled', updated_at: next.updatedAt })
            .where('batch_id', '=', next.id)
            .where('status', '=', 'pending')
            .execute();
        }
        await this.outbox.insert(trx, events);
      });
    } catch (error) {
      if (error instanceof VersionConflict) return false;
      throw error;
    }
    if (events.length > 0) this.signals?.notify('events');
    // A batch just validated has lines to pay: the bulk worker starts at once instead of at its next poll.
    if (next.status === 'processing') this.signals?.notify('bulk');
    return true;
  }

  async pendingItems(batchId: string, limit: number, after?: string): Promise<BulkBatchItem[]> {
    let query = this.db.selectFrom('bulk_batch_items').selectAll().where('batch_id', '=', batchId).where('status', '=', 'pending');
    if (after !== undefined) query = query.where('id', '>', after);
    const rows = await query.orderBy('id').limit(limit).execute();
    return rows.map(itemFromRow);
  }

  async markPaidOut(itemIds: readonly string[], now: string): Promise<void> {
    for (let start = 0; start < itemIds.length; start += LOOKUP_CHUNK) {
      await this.db
        .updateTable('bulk_batch_items')
        .set((eb) => ({ status: 'processing', payout_id: eb.ref('id'), updated_at: now }))
        .where('id', 'in', itemIds.slice(start, start + LOOKUP_CHUNK))
        .where('status', '=', 'pending')
        .execute();
    }
  }

  async markInvalid(itemId: string, problems: BulkLineProblem[], now: string): Promise<void> {
    await this.db
      .updateTable('bulk_batch_items')
      .set({ status: 'invalid', problems: JSON.stringify(problems), updated_at: now })
      .where('id', '=', itemId)
      .where('status', '=', 'pending')
      // A line whose payout exists (made by another worker meanwhile) is paid: the next pass links it.
      .where((eb) => eb.not(eb.exists(eb.selectFrom('payouts').select('payouts.id').whereRef('payouts.id', '=', 'bulk_batch_items.id'))))
      .execute();
  }

  async followPayouts(batchId: string, now: string): Promise<number> {
    const rows = await this.db
      .selectFrom('bulk_batch_items as i')
      .innerJoin('payouts as p', 'p.id', 'i.payout_id')
      .select(['i.id as id', 'p.status as payout_status', 'p.failure_code as failure_code'])
      .where('i.batch_id', '=', batchId)
      .where('i.status', '=', 'processing')
      .where('p.status', 'in', ['COMPLETED', 'FAILED', 'CANCELLED'])
      .execute();
    // One statement per outcome, in chunks: a 10 000-line batch is a few statements, not 10 000.
    const groups = new Map<string, { status: string; failureCode: string | null; ids: string[] }>();
    for (const row of rows) {
      const key = `${row.payout_status}:${row.failure_code ?? ''}`;
      const group = groups.get(key) ?? { status: row.payout_status.toLowerCase(), failureCode: row.failure_code, ids: [] };
      group.ids.push(row.id);
      groups.set(key, group);
    }
    await this.db.transaction().execute(async (trx) => {
      for (const { status, failureCode, ids } of groups.values()) {
        for (let start = 0; start < ids.length; start += LOOKUP_CHUNK) {
          await trx
            .updateTable('bulk_batch_items')
            .set({ status, failure_code: failureCode, updated_at: now })
            .where('id', 'in', ids.slice(start, start + LOOKUP_CHUNK))
            .where('status', '=', 'processing')
            .execute();
        }
      }
    });
    return rows.length;
  }

  async visited(batchId: string, now: string, changed: boolean): Promise<void> {
    await this.db
      .updateTable('bulk_batches')
      .set(changed ? { followed_at: now, updated_at: now } : { followed_at: now })
      .where('id', '=', batchId)
      .where('status', '=', 'processing')
      .execute();
  }

  async processingBatches(limit: number): Promise<BulkBatch[]> {
    const rows = await this.db.selectFrom('bulk_batches').selectAll().where('status', '=', 'processing').orderBy('followed_at').orderBy('id').limit(limit).execute();
    return rows.map(batchFromRow);
  }

  async existingPayoutReferences(scope: TenantScope, references: readonly string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let start = 0; start < references.length; start += LOOKUP_CHUNK) {
      const rows = await this.db
        .selectFrom('payouts')
        .select('reference')
        .where('merchant_id', '=', scope.merchantId)
        .where('environment', '=', scope.environment)
        .where('reference', 'in', references.slice(start, start + LOOKUP_CHUNK))
        .execute();
      for (const row of rows) found.add(row.reference);
    }
    return found;
  }
}
