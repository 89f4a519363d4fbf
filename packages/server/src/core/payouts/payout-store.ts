import type { StoredEvent } from '../events/stored-event.js';
import type { ClaimWrite } from '../idempotency/idempotency-store.js';
import type { LedgerPosting } from '../ledger/ledger.js';
import type { TenantScope } from '../shared/environment.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Payout, PayoutStatus } from './payout.js';

export interface PayoutFilters {
  status?: PayoutStatus;
  operators?: readonly string[];
  reference?: string;
  /** The beneficiary's number, E.164. */
  phone?: string;
  createdGte?: string;
  createdLte?: string;
  metadata?: { key: string; value: string };
}

/** One atomic write: the payout's next state, its events, ledger postings and the request's claim. */
export interface PayoutChange {
  next: Payout;
  expectedVersion: number;
  events: StoredEvent[];
  ledger?: LedgerPosting[];
  claim?: ClaimWrite;
}

export interface PayoutStore {
  /**
   * Stores a new payout with its reservation, events and the request's claim in one transaction:
   * duplicate_reference or insufficient_balance write nothing.
   */
  insert(payout: Payout, events: StoredEvent[], ledger: LedgerPosting[], claim?: ClaimWrite): Promise<void>;
  /**
   * Stores several new payouts (a bulk batch's lines) with their reservations and events in one
   * transaction: all or nothing, so one taken reference or a balance short for the group writes none.
   */
  insertMany(payouts: readonly { payout: Payout; events: StoredEvent[]; ledger: LedgerPosting[] }[]): Promise<void>;
  find(scope: TenantScope, referenceOrId: string): Promise<Payout | undefined>;
  /** A payout by our id alone (any merchant, any environment), for an operator's callback naming it. */
  findAnyById(id: string): Promise<Payout | undefined>;
  list(scope: TenantScope, filters: PayoutFilters, page: PageRequest): Promise<Page<Payout>>;
  /** Commits the change; false (nothing written) when the payout's version moved on. */
  save(change: PayoutChange): Promise<boolean>;
  /**
   * Takes PENDING payouts to hand off: never started, or started before `staleBefore` by a worker
   * that is gone. Each gets its recovery point (`handoffStartedAt = now`) committed before this
   * returns; several workers never take the same one (SKIP LOCKED where the database has it).
   */
  claimHandoffs(now: string, staleBefore: string, limit: number): Promise<Array<{ payout: Payout; resumed: boolean }>>;
  /**
   * Renews a claimed hand-off's lease (`handoffStartedAt = now`) if the payout is still PENDING at
   * the version the claim left; undefined when another worker has taken it over since.
   */
  renewHandoff(payout: Payout, now: string): Promise<Payout | undefined>;
  /** Takes PROCESSING payouts due for a status check, pushing their next check to `nextCheckAt`. */
  claimChecks(now: string, nextCheckAt: string, limit: number): Promise<Payout[]>;
  /**
   * Takes COMPLETED payouts due for a re-read (their operator may still reverse them), pushing their
   * next check to `nextCheckAt`; their `updatedAt` (the completion) is kept.
   */
  claimReversalChecks(now: string, nextCheckAt: string, limit: number): Promise<Payout[]>;
}
