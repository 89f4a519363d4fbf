/**
 * The columns of each export, in file order (docs/exports.md lists them). Amounts appear as the
 * JSON API shows them and, in `_minor` columns, in exact centimes: the collect contract shows
 * payments in major units (FCFA, rounded down), the payout contract shows centimes already.
 */
import type { BalanceTransaction } from '../ledger/ledger.js';
import { toMajorUnitsFloor } from '../shared/money.js';
import type { Cell } from './csv-cells.js';
import type { BatchLineExportRow, PaymentExportRow, PayoutExportRow } from './export-store.js';

export interface Column<T> {
  heading: string;
  cell(row: T): Cell;
}

/** Metadata as compact JSON: `{}` when there is none. Its cell starts with `{`, never like a formula. */
function metadataCell(metadata: Record<string, string>): string {
  return JSON.stringify(metadata);
}

export const paymentColumns: readonly Column<PaymentExportRow>[] = [
  { heading: 'id', cell: (p) => p.id },
  { heading: 'reference', cell: (p) => p.reference },
  { heading: 'created_at', cell: (p) => p.createdAt },
  { heading: 'updated_at', cell: (p) => p.updatedAt },
  { heading: 'environment', cell: (p) => p.environment },
  { heading: 'status', cell: (p) => p.status },
  { heading: 'mode', cell: (p) => p.mode },
  { heading: 'amount', cell: (p) => toMajorUnitsFloor(p.amountMinor) },
  { heading: 'amount_minor', cell: (p) => p.amountMinor },
  { heading: 'fee_minor', cell: (p) => p.feeMinor },
  { heading: 'refunded_amount', cell: (p) => toMajorUnitsFloor(p.refundedMinor) },
  { heading: 'refunded_amount_minor', cell: (p) => p.refundedMinor },
  { heading: 'currency', cell: (p) => p.currency },
  { heading: 'country', cell: (p) => p.country },
  { heading: 'operator', cell: (p) => p.operator },
  { heading: 'phone', cell: (p) => p.phone },
  { heading: 'psp_reference', cell: (p) => p.pspReference },
  { heading: 'failure_code', cell: (p) => p.failureCode },
  { heading: 'description', cell: (p) => p.description },
  { heading: 'metadata', cell: (p) => metadataCell(p.metadata) },
];

export const payoutColumns: readonly Column<PayoutExportRow>[] = [
  { heading: 'id', cell: (p) => p.id },
  { heading: 'reference', cell: (p) => p.reference },
  { heading: 'created_at', cell: (p) => p.createdAt },
  { heading: 'updated_at', cell: (p) => p.updatedAt },
  { heading: 'environment', cell: (p) => p.environment },
  { heading: 'status', cell: (p) => p.status },
  // The payout contract's `amount` is in centimes already: both columns hold the same integer.
  { heading: 'amount', cell: (p) => p.amountMinor },
  { heading: 'amount_minor', cell: (p) => p.amountMinor },
  { heading: 'fee_minor', cell: (p) => p.feeMinor },
  { heading: 'currency', cell: (p) => p.currency },
  { heading: 'country', cell: (p) => p.country },
  { heading: 'operator', cell: (p) => p.operator },
  { heading: 'phone', cell: (p) => p.phone },
  { heading: 'recipient_first_name', cell: (p) => p.recipientFirstName },
  { heading: 'recipient_last_name', cell: (p) => p.recipientLastName },
  { heading: 'psp_reference', cell: (p) => p.pspReference },
  { heading: 'failure_code', cell: (p) => p.failureCode },
  { heading: 'description', cell: (p) => p.description },
  { heading: 'metadata', cell: (p) => metadataCell(p.metadata) },
];

/** The fields of GET /balance-transactions, `source` flattened into three columns. */
export const balanceTransactionColumns: readonly Column<BalanceTransaction>[] = [
  { heading: 'id', cell: (t) => t.id },
  { heading: 'created_at', cell: (t) => t.createdAt },
  { heading: 'environment', cell: (t) => t.environment },
  { heading: 'type', cell: (t) => t.type },
  { heading: 'currency', cell: (t) => t.currency },
  { heading: 'available_change_minor', cell: (t) => t.availableChangeMinor },
  { heading: 'reserved_change_minor', cell: (t) => t.reservedChangeMinor },
  { heading: 'fee_minor', cell: (t) => t.feeMinor },
  { heading: 'source_object', cell: (t) => t.source.type },
  { heading: 'source_id', cell: (t) => t.source.id },
  { heading: 'source_reference', cell: (t) => t.source.reference },
  { heading: 'description', cell: (t) => t.description },
];

/** A bulk batch's lines, as GET /bulk-payments/{id}/items shows them (amounts in centimes), with the batch's name. */
export const batchLineColumns: readonly Column<BatchLineExportRow>[] = [
  { heading: 'batch_id', cell: (l) => l.batchId },
  { heading: 'batch_name', cell: (l) => l.batchName },
  { heading: 'row', cell: (l) => l.row },
  { heading: 'id', cell: (l) => l.id },
  { heading: 'reference', cell: (l) => l.reference },
  { heading: 'created_at', cell: (l) => l.createdAt },
  { heading: 'updated_at', cell: (l) => l.updatedAt },
  { heading: 'environment', cell: (l) => l.environment },
  { heading: 'status', cell: (l) => l.status },
  { heading: 'beneficiary_name', cell: (l) => l.beneficiaryName },
  { heading: 'phone', cell: (l) => l.phone },
  { heading: 'amount', cell: (l) => l.amountMinor },
  { heading: 'amount_minor', cell: (l) => l.amountMinor },
  { heading: 'fee_minor', cell: (l) => l.feeMinor },
  { heading: 'currency', cell: (l) => l.currency },
  { heading: 'country', cell: (l) => l.country },
  { heading: 'operator', cell: (l) => l.operator },
  { heading: 'payout_id', cell: (l) => l.payoutId },
  { heading: 'failure_code', cell: (l) => l.failureCode },
  // Why a line was not paid, as `code: message` pairs separated by ` | ` (empty when none).
  { heading: 'problems', cell: (l) => (l.problems && l.problems.length > 0 ? l.problems.map((p) => `${p.code}: ${p.message}`).join(' | ') : null) },
  { heading: 'description', cell: (l) => l.description },
  { heading: 'metadata', cell: (l) => metadataCell(l.metadata) },
];
