/**
 * The keyset pages CSV exports read (core/exports): one merchant's rows in one environment, newest
 * first by id (UUIDv7: creation order), created in [from, to), optionally of one status. They walk
 * the lists' own indexes (`*_scope_id`, `*_scope_status`) from the previous page's last id, so each
 * page costs its own rows whatever the table's size. The query builders are exported so the
 * query-plan test explains the very queries run.
 */
import type { Kysely } from 'kysely';
import type { BatchLineExportRow, BatchLineFilters, ExportFilters, ExportPageRequest, ExportStore, PaymentExportRow, PayoutExportRow } from '../../core/exports/export-store.js';
import type { BulkItemStatus, BulkLineProblem } from '../../core/bulk/bulk-batch.js';
import type { BalanceTransaction } from '../../core/ledger/ledger.js';
import type { PaymentMode, PaymentStatus } from '../../core/payments/payment.js';
import type { PayoutStatus } from '../../core/payouts/payout.js';
import type { TenantScope } from '../../core/shared/environment.js';
import type { FailureCode } from '../../core/shared/failure-codes.js';
import type { Metadata } from '../../core/shared/metadata.js';
import type { Database } from '../schema.js';
import { balanceTransactionFromRow } from './row-mappers.js';

/** A page of the scope's payments, with the fee of each one's collection posting (null until it completed). */
export function paymentExportQuery(db: Kysely<Database>, scope: TenantScope, filters: ExportFilters<PaymentStatus>, page: ExportPageRequest) {
  let query = db
    .selectFrom('payments')
    .select([
      'payments.id',
      'payments.reference',
      'payments.created_at',
      'payments.updated_at',
      'payments.environment',
      'payments.status',
      'payments.mode',
      'payments.amount_minor',
      'payments.refunded_minor',
      'payments.currency',
      'payments.country',
      'payments.operator',
      'payments.phone',
      'payments.psp_reference',
      'payments.failure_code',
      'payments.description',
      'payments.metadata',
    ])
    // One lookup per row through ledger_transactions_source; a payment has at most one collection.
    // No merchant condition: it would let the planner pick (merchant, environment, type, id) and scan
    // every collection of the merchant per row when its statistics are stale (a payment's id is
    // ours, so its source rows are the merchant's anyway).
    .select((eb) =>
      eb
        .selectFrom('ledger_transactions')
        .select('ledger_transactions.fee_minor')
        .whereRef('ledger_transactions.source_id', '=', 'payments.id')
        .where('ledger_transactions.type', '=', 'collection')
        .limit(1)
        .as('collection_fee_minor'),
    )
    .where('payments.merchant_id', '=', scope.merchantId)
    .where('payments.environment', '=', scope.environment);
  if (filters.status) query = query.where('payments.status', '=', filters.status);
  if (filters.from) query = query.where('payments.created_at', '>=', filters.from);
  if (filters.to) query = query.where('payments.created_at', '<', filters.to);
  if (page.after) query = query.where('payments.id', '<', page.after);
  return query.orderBy('payments.id', 'desc').limit(page.limit);
}

export function payoutExportQuery(db: Kysely<Database>, scope: TenantScope, filters: ExportFilters<PayoutStatus>, page: ExportPageRequest) {
  let query = db
    .selectFrom('payouts')
    .select([
      'id',
      'reference',
      'created_at',
      'updated_at',
      'environment',
      'status',
      'amount_minor',
      'fee_minor',
      'currency',
      'country',
      'operator',
      'phone',
      'recipient_first_name',
      'recipient_last_name',
      'psp_reference',
      'failure_code',
      'description',
      'metadata',
    ])
    .where('merchant_id', '=', scope.merchantId)
    .where('environment', '=', scope.environment);
  if (filters.status) query = query.where('status', '=', filters.status);
  if (filters.from) query = query.where('created_at', '>=', filters.from);
  if (filters.to) query = query.where('created_at', '<', filters.to);
  if (page.after) query = query.where('id', '<', page.after);
  return query.orderBy('id', 'desc').limit(page.limit);
}

export function balanceTransactionExportQuery(db: Kysely<Database>, scope: TenantScope, filters: ExportFilters<never>, page: ExportPageRequest) {
  let query = db.selectFrom('ledger_transactions').selectAll().where('merchant_id', '=', scope.merchantId).where('environment', '=', scope.environment);
  if (filters.from) query = query.where('created_at', '>=', filters.from);
  if (filters.to) query = query.where('created_at', '<', filters.to);
  if (page.after) query = query.where('id', '<', page.after);
  return query.orderBy('id', 'desc').limit(page.limit);
}

/**
 * A page of batch lines. One batch: its lines in row order through `bulk_batch_items_batch_id`
 * (batch_id, id). Every batch: the scope's batches (`bulk_batches_scope_id`), their lines newest first.
 */
export function batchLineExportQuery(db: Kysely<Database>, scope: TenantScope, filters: BatchLineFilters, page: ExportPageRequest) {
  let query = db
    .selectFrom('bulk_batch_items as i')
    .innerJoin('bulk_batches as b', 'b.id', 'i.batch_id')
    .selectAll('i')
    .select(['b.name as batch_name', 'b.environment as environment'])
    .where('b.merchant_id', '=', scope.merchantId)
    .where('b.environment', '=', scope.environment);
  if (filters.batchId) query = query.where('i.batch_id', '=', filters.batchId);
  if (filters.status) query = query.where('i.status', '=', filters.status);
  if (filters.from) query = query.where('i.created_at', '>=', filters.from);
  if (filters.to) query = query.where('i.created_at', '<', filters.to);
  if (filters.batchId) {
    if (page.after) query = query.where('i.id', '>', page.after);
    return query.orderBy('i.id', 'asc').limit(page.limit);
  }
  if (page.after) query = query.where('i.id', '<', page.after);
  return query.orderBy('i.id', 'desc').limit(page.limit);
}

/** bigint columns come back as strings from PostgreSQL. */
const integer = (value: number | string | bigint | null): number | null => (value === null ? null : Number(value));

export class ExportQueries implements ExportStore {
  constructor(private readonly db: Kysely<Database>) {}

  async paymentPage(scope: TenantScope, filters: ExportFilters<PaymentStatus>, page: ExportPageRequest): Promise<PaymentExportRow[]> {
    const rows = await paymentExportQuery(this.db, scope, filters, page).execute();
    return rows.map((row) => ({
      id: row.id,
      reference: row.reference,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      environment: row.environment,
      status: row.status as PaymentStatus,
      mode: row.mode as PaymentMode,
      amountMinor: Number(row.amount_minor),
      feeMinor: integer(row.collection_fee_minor),
      refundedMinor: Number(row.refunded_minor),
      currency: row.currency,
      country: row.country,
      operator: row.operator,
      phone: row.phone,
      pspReference: row.psp_reference,
      failureCode: row.failure_code as FailureCode | null,
      description: row.description,
      metadata: JSON.parse(row.metadata) as Metadata,
    }));
  }

  async payoutPage(scope: TenantScope, filters: ExportFilters<PayoutStatus>, page: ExportPageRequest): Promise<PayoutExportRow[]> {
    const rows = await payoutExportQuery(this.db, scope, filters, page).execute();
    return rows.map((row) => ({
      id: row.id,
      reference: row.reference,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      environment: row.environment,
      status: row.status as PayoutStatus,
      amountMinor: Number(row.amount_minor),
      feeMinor: Number(row.fee_minor),
      currency: row.currency,
      country: row.country,
      operator: row.operator,
      phone: row.phone,
      recipientFirstName: row.recipient_first_name,
      recipientLastName: row.recipient_last_name,
      pspReference: row.psp_reference,
      failureCode: row.failure_code as FailureCode | null,
      description: row.description,
      metadata: JSON.parse(row.metadata) as Metadata,
    }));
  }

  async batchLinePage(scope: TenantScope, filters: BatchLineFilters, page: ExportPageRequest): Promise<BatchLineExportRow[]> {
    const rows = await batchLineExportQuery(this.db, scope, filters, page).execute();
    return rows.map((row) => ({
      id: row.id,
      batchId: row.batch_id,
      batchName: row.batch_name,
      row: Number(row.row_number),
      reference: row.reference,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      environment: row.environment,
      status: row.status as BulkItemStatus,
      beneficiaryName: row.beneficiary_name,
      phone: row.phone,
      amountMinor: Number(row.amount_minor),
      feeMinor: Number(row.fee_minor),
      currency: row.currency,
      country: row.country,
      operator: row.operator,
      payoutId: row.payout_id,
      failureCode: row.failure_code as FailureCode | null,
      problems: row.problems === null ? null : (JSON.parse(row.problems) as BulkLineProblem[]),
      description: row.description,
      metadata: JSON.parse(row.metadata) as Metadata,
    }));
  }

  async hasBatch(scope: TenantScope, batchId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('bulk_batches')
      .select('id')
      .where('id', '=', batchId)
      .where('merchant_id', '=', scope.merchantId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst();
    return row !== undefined;
  }

  async balanceTransactionPage(scope: TenantScope, filters: ExportFilters<never>, page: ExportPageRequest): Promise<BalanceTransaction[]> {
    return (await balanceTransactionExportQuery(this.db, scope, filters, page).execute()).map(balanceTransactionFromRow);
  }
}
