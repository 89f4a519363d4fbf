import type { StoredEvent } from '../events/stored-event.js';
import type { LedgerPosting } from '../ledger/ledger.js';
import type { ClaimWrite } from '../idempotency/idempotency-store.js';
import type { TenantScope } from '../shared/environment.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Payment, PaymentMode, PaymentStatus, Refund, RefundStatus } from './payment.js';

/** What a payment list can be narrowed to; every filter given must hold. */
export interface PaymentFilters {
  status?: PaymentStatus;
  mode?: PaymentMode;
  /** Canonical operator slugs; a payment of any of them matches. */
  operators?: readonly string[];
  reference?: string;
  /** The customer's number, E.164. */
  phone?: string;
  /** Payments made through this payment link (its id). */
  paymentLinkId?: string;
  /** ISO 8601 instants, inclusive. */
  createdGte?: string;
  createdLte?: string;
  /** One metadata key and its exact value. */
  metadata?: { key: string; value: string };
}

/** What the scope's refund list can be narrowed to. */
export interface RefundFilters {
  status?: RefundStatus;
  /** ISO 8601 instants, inclusive. */
  createdGte?: string;
  createdLte?: string;
}

/**
 * A refund's outcome, recorded only while the refund is still `pending` as the run that recorded it
 * leased it (`leasedAt`, its `updatedAt` then). Else another run (the recovery worker, a retry
 * after the lease) has taken it over or settled it: the whole change is refused with
 * RefundTakenOver, and that run's record stands.
 */
export interface RefundSettlement {
  refund: Refund;
  leasedAt: string;
}

/** A refund settlement met a refund another run has leased or settled since (see RefundSettlement). */
export class RefundTakenOver extends Error {
  constructor(readonly refundId: string) {
    super(`refund ${refundId} was taken over by another run`);
  }
}

/** One atomic write: the payment's new state (if it changed), refund rows, and the events reporting them. */
export interface PaymentChange {
  payment?: { next: Payment; expectedVersion: number };
  insertRefund?: Refund;
  settleRefund?: RefundSettlement;
  events: StoredEvent[];
  /** Ledger postings the change causes, committed with it (a balance it would overdraw refuses the whole change). */
  ledger?: LedgerPosting[];
  /** The request's idempotency claim write, committed with the change (recorded phases). */
  claim?: ClaimWrite;
}

/**
 * A payment through a payment link that takes a limited number of payments (single use, or
 * `max_payments`): the insert takes one of the link's uses under the link's lock (a row lock on
 * PostgreSQL, the write transaction on SQLite). A use is held by every payment of the link that has
 * not failed, been cancelled or expired; with `limit` of them already, nothing is written and the
 * insert fails with payment_link_in_use (one is still under way) or payment_link_inactive (they all
 * completed, or the link was deactivated meanwhile). docs/decisions.md, "Payment link uses".
 */
export interface PaymentLinkUse {
  linkId: string;
  limit: number;
}

/** What a decision under lock writes: the payment's next state (if any), refund rows and events. */
export interface LockedChange {
  next?: Payment;
  insertRefund?: Refund;
  settleRefund?: RefundSettlement;
  events: StoredEvent[];
  ledger?: LedgerPosting[];
  claim?: ClaimWrite;
}

export interface PaymentStore {
  /**
   * Stores a new payment with its events (and the request's claim write, the link use it takes and
   * the ledger postings its outcome causes) in one transaction; a reference already used gives
   * AkweError duplicate_reference and writes nothing.
   */
  insert(payment: Payment, events: StoredEvent[], claim?: ClaimWrite, options?: { linkUse?: PaymentLinkUse; ledger?: LedgerPosting[] }): Promise<void>;
  /** By id or merchant reference, only within the scope. */
  find(scope: TenantScope, referenceOrId: string): Promise<Payment | undefined>;
  /** Commits the change in one transaction; false (nothing written) if the payment's version moved on. */
  save(change: PaymentChange): Promise<boolean>;
  /**
   * Expires due non-final payments in one transaction: `expire` turns each into its change.
   * Where the database can, rows are claimed with SKIP LOCKED so parallel workers split the work.
   */
  expireDue(now: string, limit: number, expire: (payment: Payment) => PaymentChange): Promise<number>;
  /**
   * Reads the payment under a lock (a row lock where the database has them, else its write lock),
   * lets `decide` compute the change from it and the number of its refunds still pending, and
   * commits that change in the same transaction. An error thrown by `decide` writes nothing.
   */
  withLockedPayment<T>(paymentId: string, decide: (payment: Payment, pendingRefunds: number) => { change: LockedChange; result: T }): Promise<T>;
  /** The scope's payments, newest first, one page at a time. */
  list(scope: TenantScope, filters: PaymentFilters, page: PageRequest): Promise<Page<Payment>>;
  /** One payment's refunds, newest first, one page at a time. */
  listRefunds(scope: TenantScope, paymentId: string, page: PageRequest): Promise<Page<Refund>>;
  /** Every refund of the scope (any payment), newest first, one page at a time. */
  listAllRefunds(scope: TenantScope, filters: RefundFilters, page: PageRequest): Promise<Page<Refund>>;
  findRefund(scope: TenantScope, refundId: string): Promise<Refund | undefined>;
  /**
   * Live payments whose reconciliation check is due at `now` and that no operator call holds:
   * each is claimed until `claimUntil` (its version bumped) so no other worker asks about it too.
   */
  claimChecks(now: string, claimUntil: string, limit: number): Promise<Payment[]>;
  /** Payments whose operator call was taken before `startedBefore` and is still open (its run is gone). */
  openOperatorCalls(startedBefore: string, limit: number): Promise<Payment[]>;
  /** Pending refunds last touched before `updatedBefore` (the run that reserved them is gone). */
  openRefunds(updatedBefore: string, limit: number): Promise<Refund[]>;
  /**
   * Takes a pending refund's lease: sets its `updatedAt` to `now` if it is still pending and still
   * shows `refund.updatedAt` (with `sending`, its `sentAt` too: a new send begins). Undefined when
   * another run took it or settled it first.
   */
  leaseRefund(refund: Refund, now: string, options?: { sending?: boolean }): Promise<Refund | undefined>;
  /** A refund by our id alone (any merchant, any environment), for an operator's callback naming it. */
  findAnyRefundById(refundId: string): Promise<Refund | undefined>;
  /** A payment by our id alone (any merchant, any environment), for an operator's callback naming it. */
  findAnyById(id: string): Promise<Payment | undefined>;
  /** A hosted payment by its checkout token alone (any merchant, any environment), for its public checkout page. */
  findForCheckout(token: string): Promise<Payment | undefined>;
}
