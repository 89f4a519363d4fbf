import { bulkItemStatuses, type BulkBatch, type BulkBatchItem } from '../../core/bulk/bulk-batch.js';
import type { BulkBatchDetail } from '../../core/bulk/bulk-service.js';

/** Domain -> a batch as lists show it (amounts in centimes, like payouts). */
export function bulkBatchSummaryToWire(batch: BulkBatch) {
  return {
    object: 'bulk_payment' as const,
    id: batch.id,
    name: batch.name,
    description: batch.description,
    status: batch.status,
    source: batch.source,
    currency: batch.currency,
    item_count: batch.itemCount,
    total_amount_minor: batch.totalAmountMinor,
    total_fee_minor: batch.totalFeeMinor,
    metadata: batch.metadata,
    environment: batch.environment,
    sandbox: batch.environment === 'test',
    validated_at: batch.validatedAt,
    completed_at: batch.completedAt,
    created_at: batch.createdAt,
    updated_at: batch.updatedAt,
  };
}

/** Domain -> the batch detail: every line status appears in `totals`, zero when no line has it. */
export function bulkBatchToWire({ batch, totals }: BulkBatchDetail) {
  const byStatus = new Map(totals.map((total) => [total.status, total]));
  return {
    ...bulkBatchSummaryToWire(batch),
    totals: Object.fromEntries(
      bulkItemStatuses.map((status) => {
        const total = byStatus.get(status);
        return [status, { count: total?.count ?? 0, amount_minor: total?.amountMinor ?? 0, fee_minor: total?.feeMinor ?? 0 }];
      }),
    ),
    idempotent_replay: false,
  };
}

export function bulkItemToWire(item: BulkBatchItem) {
  return {
    object: 'bulk_payment_item' as const,
    id: item.id,
    batch_id: item.batchId,
    row: item.row,
    beneficiary_name: item.beneficiaryName,
    phone: item.phone,
    amount: item.amountMinor,
    fee_minor: item.feeMinor,
    currency: item.currency,
    country: item.country,
    operator: item.operator,
    reference: item.reference,
    description: item.description,
    metadata: item.metadata,
    status: item.status,
    problems: item.problems,
    payout_id: item.payoutId,
    failure_code: item.failureCode,
    created_at: item.createdAt,
    updated_at: item.updatedAt,
  };
}
