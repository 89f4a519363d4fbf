import type { StoredEvent } from '../events/stored-event.js';
import type { ClaimWrite } from '../idempotency/idempotency-store.js';
import type { LedgerPosting } from '../ledger/ledger.js';
import type { TenantScope } from '../shared/environment.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Transfer, TransferDirection } from './transfer.js';

export interface TransferFilters {
  direction?: TransferDirection;
  reference?: string;
  createdGte?: string;
  createdLte?: string;
  metadata?: { key: string; value: string };
}

/** What a new transfer writes, all in one transaction. */
export interface NewTransfer {
  sent: Transfer;
  received: Transfer;
  events: StoredEvent[];
  ledger: LedgerPosting[];
  claim?: ClaimWrite;
  /** The most the sender may send per UTC day in this environment and currency, this transfer included. */
  dailyMaxMinor: number;
  /** Where the sender's current UTC day began (ISO 8601). */
  dayStart: string;
}

export interface TransferStore {
  /**
   * Stores both sides, their events, postings and the request's claim in one transaction. Nothing is
   * written when the reference is taken (duplicate_reference), the balance is short
   * (insufficient_balance) or the day's sum would pass `dailyMaxMinor` (transfer_limit_exceeded).
   */
  insert(transfer: NewTransfer): Promise<void>;
  find(scope: TenantScope, referenceOrId: string): Promise<Transfer | undefined>;
  list(scope: TenantScope, filters: TransferFilters, page: PageRequest): Promise<Page<Transfer>>;
}
