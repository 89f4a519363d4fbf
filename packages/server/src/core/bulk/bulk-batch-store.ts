import type { StoredEvent } from '../events/stored-event.js';
import type { ClaimWrite } from '../idempotency/idempotency-store.js';
import type { TenantScope } from '../shared/environment.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { BulkBatch, BulkBatchItem, BulkBatchStatus, BulkItemStatus, BulkLineProblem, BulkStatusTotal } from './bulk-batch.js';

export interface BulkBatchFilters {
  status?: BulkBatchStatus;
  createdGte?: string;
  createdLte?: string;
}

export interface BulkBatchStore {
  /** Stores a batch, all its lines and the request's claim in one transaction. */
  insert(batch: BulkBatch, items: BulkBatchItem[], claim?: ClaimWrite): Promise<void>;
  find(scope: TenantScope, id: string): Promise<BulkBatch | undefined>;
  list(scope: TenantScope, filters: BulkBatchFilters, page: PageRequest): Promise<Page<BulkBatch>>;
  /** A batch's lines in row order: `startingAfter` gives the rows after that line, `endingBefore` those before it. */
  items(batchId: string, filters: { status?: BulkItemStatus }, page: PageRequest): Promise<Page<BulkBatchItem>>;
  /** Count, amount and fee of the batch's lines per status (only the statuses that have lines). */
  totalsByStatus(batchId: string): Promise<BulkStatusTotal[]>;
  /**
   * Commits `next` and its events if the batch is still at `expectedVersion` (false otherwise,
   * nothing written); with `cancelPendingLines`, its `pending` lines become `cancelled` in the same transaction.
   */
  saveBatch(next: BulkBatch, expectedVersion: number, events?: StoredEvent[], options?: { cancelPendingLines?: boolean }): Promise<boolean>;
  /** Up to `limit` lines still `pending`, in row order, after the line `after` when given. */
  pendingItems(batchId: string, limit: number, after?: string): Promise<BulkBatchItem[]>;
  /** Lines whose payouts were made (each payout's id is its line's): `pending` ones become `processing`, in one statement. */
  markPaidOut(itemIds: readonly string[], now: string): Promise<void>;
  /** A `pending` line its payout checks refused at execution: `invalid`, with its problems; never one whose payout exists. */
  markInvalid(itemId: string, problems: BulkLineProblem[], now: string): Promise<void>;
  /** Brings `processing` lines to their payout's final status; returns how many moved. */
  followPayouts(batchId: string, now: string): Promise<number>;
  /**
   * Puts a processing batch at the back of the worker's queue, after every visit whatever it did;
   * `changed`: its lines moved, so its `updated_at` moves too.
   */
  visited(batchId: string, now: string, changed: boolean): Promise<void>;
  /** Batches being executed, the one the worker looked at longest ago (or never) first. */
  processingBatches(limit: number): Promise<BulkBatch[]>;
  /** Which of `references` name a payout of the scope already. */
  existingPayoutReferences(scope: TenantScope, references: readonly string[]): Promise<Set<string>>;
}
