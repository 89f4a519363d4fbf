import type { Currency } from '../catalog/operator-catalog.js';
import type { BatchItem } from './batch-lines.js';
import type { Environment } from '../shared/environment.js';
import type { FailureCode } from '../shared/failure-codes.js';
import type { Metadata } from '../shared/metadata.js';

/**
 * A batch's statuses (docs/bulk.md "Lifecycle"): stored as `draft`; `validate` moves it to
 * `processing`, and it ends `completed` (every line paid), `partially_completed` (some paid, some
 * not) or `failed` (none paid). A draft may instead be `cancelled`, its lines with it.
 */
export const bulkBatchStatuses = ['draft', 'processing', 'completed', 'partially_completed', 'failed', 'cancelled'] as const;
export type BulkBatchStatus = (typeof bulkBatchStatuses)[number];

/**
 * A line's statuses: `pending` until the batch is validated, then `processing` while its payout
 * is not final, then the payout's outcome; `cancelled` too when its draft was cancelled. `invalid` is kept for lines a stored batch could hold
 * with problems; today a batch with any problem is refused whole, so no line is stored `invalid`.
 */
export const bulkItemStatuses = ['pending', 'invalid', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type BulkItemStatus = (typeof bulkItemStatuses)[number];

export type BulkBatchSource = 'api' | 'csv';

export interface BulkBatch {
  id: string;
  merchantId: string;
  environment: Environment;
  name: string;
  description: string | null;
  status: BulkBatchStatus;
  source: BulkBatchSource;
  currency: Currency;
  itemCount: number;
  totalAmountMinor: number;
  totalFeeMinor: number;
  metadata: Metadata;
  validatedAt: string | null;
  completedAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** A stored line: the checked line (BatchItem) with where it stands. */
export interface BulkBatchItem extends BatchItem {
  id: string;
  batchId: string;
  status: BulkItemStatus;
  /** Why a line was not paid: what its re-check at `validate` refused (a payout's error code, as `{row, field, code, message}`). */
  problems: BulkLineProblem[] | null;
  payoutId: string | null;
  failureCode: FailureCode | null;
  createdAt: string;
  updatedAt: string;
}

/** How many lines of a batch are in one status, and what they add up to. */
export interface BulkStatusTotal {
  status: BulkItemStatus;
  count: number;
  amountMinor: number;
  feeMinor: number;
}

/** A problem stored with a line: a line check's, or the error a payout was refused with at `validate`. */
export interface BulkLineProblem {
  row: number;
  field: string;
  code: string;
  message: string;
}
