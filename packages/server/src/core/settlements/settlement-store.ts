import type { StoredEvent } from '../events/stored-event.js';
import type { ClaimWrite } from '../idempotency/idempotency-store.js';
import type { BalanceTransactionType, LedgerPosting } from '../ledger/ledger.js';
import type { Payout, PayoutStatus } from '../payouts/payout.js';
import type { TenantScope } from '../shared/environment.js';
import type { FailureCode } from '../shared/failure-codes.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Settlement, SettlementStatus } from './settlement.js';

export interface SettlementFilters {
  status?: SettlementStatus;
  reference?: string;
  createdGte?: string;
  createdLte?: string;
  metadata?: { key: string; value: string };
}

/** What a new settlement writes, all in one transaction. */
export interface NewSettlement {
  /** The settlement; its sequence and statement frame are set by the store, inside the transaction. */
  draft: Settlement;
  /** A wallet settlement's payout and its event (its reservation is `reservation`). */
  payout?: { payout: Payout; events: StoredEvent[] };
  /** The settlement's reservation: available -> reserved. */
  reservation: LedgerPosting;
  /** The settlement's events and the request's claim, made once the stored settlement is known. */
  finish(settlement: Settlement): { events: StoredEvent[]; claim?: ClaimWrite };
}

/** A committed change: the settlement's next state, its events and postings. */
export interface SettlementChange {
  next: Settlement;
  expectedVersion: number;
  events: StoredEvent[];
  ledger?: LedgerPosting[];
}

/** A wallet settlement whose payout has moved on since the settlement last followed it. */
export interface SettlementToFollow {
  settlement: Settlement;
  payoutStatus: PayoutStatus;
  payoutFailureCode: FailureCode | null;
  payoutMessage: string | null;
}

/** The statement's lines summed per balance-transaction type. */
export interface StatementTotal {
  type: BalanceTransactionType;
  count: number;
  availableChangeMinor: number;
  reservedChangeMinor: number;
  feeMinor: number;
}

export interface SettlementStore {
  /**
   * Stores the settlement (its payout, reservation, events and the request's claim) in one
   * transaction, and stamps every balance transaction of its scope and currency that no statement
   * covers yet as covered by it. Nothing is written when the reference is taken (duplicate_reference)
   * or the balance cannot cover the amount (insufficient_balance).
   */
  insert(settlement: NewSettlement): Promise<Settlement>;
  find(scope: TenantScope, referenceOrId: string): Promise<Settlement | undefined>;
  /** A settlement by id alone, any merchant (administrators' commands). */
  findAnyById(id: string): Promise<Settlement | undefined>;
  list(scope: TenantScope, filters: SettlementFilters, page: PageRequest): Promise<Page<Settlement>>;
  /** Commits the change; false (nothing written) when the settlement's version moved on. */
  save(change: SettlementChange): Promise<boolean>;
  /** Wallet settlements whose payout's status is not the one they show. */
  toFollow(limit: number): Promise<SettlementToFollow[]>;
  statementTotals(settlementId: string): Promise<StatementTotal[]>;
  /** Bank settlements waiting for an administrator, any merchant, oldest first. */
  awaitingBank(limit: number): Promise<Settlement[]>;
}
