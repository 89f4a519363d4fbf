/** What an export reads: keyset pages of one merchant's rows in one environment (the ExportStore port). */
import type { BalanceTransaction } from '../ledger/ledger.js';
import type { PaymentMode, PaymentStatus } from '../payments/payment.js';
import type { PayoutStatus } from '../payouts/payout.js';
import type { BulkItemStatus, BulkLineProblem } from '../bulk/bulk-batch.js';
import type { TenantScope } from '../shared/environment.js';
import type { FailureCode } from '../shared/failure-codes.js';
import type { Metadata } from '../shared/metadata.js';

/** The rows an export keeps: created in [from, to) (ISO instants, either bound optional), and of one status. */
export interface ExportFilters<S extends string = string> {
  from?: string;
  to?: string;
  status?: S;
}

/**
 * One page: at most `limit` rows, newest first (id order: ids are UUIDv7, so creation order), all
 * older than the row `after` (the last id of the previous page) when given.
 */
export interface ExportPageRequest {
  after?: string;
  limit: number;
}

export interface PaymentExportRow {
  id: string;
  reference: string;
  createdAt: string;
  updatedAt: string;
  environment: string;
  status: PaymentStatus;
  mode: PaymentMode;
  amountMinor: number;
  /** The fee of the collection's ledger posting; null until the payment completed. */
  feeMinor: number | null;
  refundedMinor: number;
  currency: string;
  country: string;
  operator: string | null;
  /** As stored (E.164), or null for a hosted payment not paid yet. */
  phone: string | null;
  pspReference: string | null;
  failureCode: FailureCode | null;
  description: string | null;
  metadata: Metadata;
}

export interface PayoutExportRow {
  id: string;
  reference: string;
  createdAt: string;
  updatedAt: string;
  environment: string;
  status: PayoutStatus;
  amountMinor: number;
  feeMinor: number;
  currency: string;
  country: string;
  operator: string;
  phone: string;
  recipientFirstName: string | null;
  recipientLastName: string | null;
  pspReference: string | null;
  failureCode: FailureCode | null;
  description: string | null;
  metadata: Metadata;
}

/** One line of a bulk batch, with its batch's name (the batch-lines export). */
export interface BatchLineExportRow {
  id: string;
  batchId: string;
  batchName: string;
  row: number;
  reference: string;
  createdAt: string;
  updatedAt: string;
  environment: string;
  status: BulkItemStatus;
  beneficiaryName: string;
  phone: string;
  amountMinor: number;
  feeMinor: number;
  currency: string;
  country: string;
  operator: string;
  payoutId: string | null;
  failureCode: FailureCode | null;
  problems: BulkLineProblem[] | null;
  description: string | null;
  metadata: Metadata;
}

/** The batch-lines export's filters: the period and status of the lines, and one batch or all. */
export interface BatchLineFilters extends ExportFilters<BulkItemStatus> {
  batchId?: string;
}

export interface ExportStore {
  paymentPage(scope: TenantScope, filters: ExportFilters<PaymentStatus>, page: ExportPageRequest): Promise<PaymentExportRow[]>;
  payoutPage(scope: TenantScope, filters: ExportFilters<PayoutStatus>, page: ExportPageRequest): Promise<PayoutExportRow[]>;
  balanceTransactionPage(scope: TenantScope, filters: ExportFilters<never>, page: ExportPageRequest): Promise<BalanceTransaction[]>;
  /**
   * Lines of the scope's batches. With a batch id: that batch's lines in row order (ids are made in
   * row order), each page after the row `after`; without: newest first, as the other exports.
   */
  batchLinePage(scope: TenantScope, filters: BatchLineFilters, page: ExportPageRequest): Promise<BatchLineExportRow[]>;
  /** Whether the scope has this batch (another merchant's or environment's: no). */
  hasBatch(scope: TenantScope, batchId: string): Promise<boolean>;
}
