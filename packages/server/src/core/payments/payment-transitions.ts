import type { OperatorCatalog } from '../catalog/operator-catalog.js';
import { defaultFees } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import type { EventFactory } from '../events/event-factory.js';
import type { StoredEvent } from '../events/stored-event.js';
import { feeFor, type LedgerPosting } from '../ledger/ledger.js';
import { postingRules } from '../ledger/posting-rules.js';
import type { DiscrepancyReport } from '../operators/operator-discrepancy.js';
import type { OperatorAnswer } from '../operators/operator-connector.js';
import type { Clock } from '../ports.js';
import type { Payment } from './payment.js';
import { failureCodeOnEntering } from './payment-failures.js';
import { assertTransition, isFinal } from './payment-state-machine.js';

/**
 * A payment's next state, the events reporting it, and the ledger postings it causes; or, for an
 * operator answer the state machine refuses, the payment unchanged and the discrepancy to keep.
 */
export type Decision = { next: Payment; events: StoredEvent[]; ledger?: LedgerPosting[]; discrepancy?: DiscrepancyReport };

/** The longest wait between two reconciliation checks of a live payment. */
const CHECK_MAX_INTERVAL_MS = 5 * 60_000;
/** Statuses in which the operator, not the customer or the merchant, owes the next move. */
const awaitingOperator: ReadonlySet<Payment['status']> = new Set(['pending', 'processing']);

export interface PaymentTransitionsDeps {
  catalog: OperatorCatalog;
  events: EventFactory;
  clock: Clock;
  /** The shortest wait between two reconciliation checks of a live payment (ms); 5 s by default. */
  checkMinIntervalMs?: number;
  /**
   * How long after its expiry a live payment that reached an operator is still asked about, in case
   * the customer approved late (ms; PAYMENT_LATE_CHECK_HOURS, 24 hours by default).
   */
  lateCheckWindowMs?: number;
}

export const DEFAULT_LATE_CHECK_WINDOW_MS = 24 * 3_600_000;
/** The longest wait between two checks of an expired payment. */
const LATE_CHECK_MAX_INTERVAL_MS = 60 * 60_000;
/** Final statuses in which the money did not move: another of them from the operator is not news. */
const unpaid: ReadonlySet<Payment['status']> = new Set(['failed', 'cancelled', 'expired']);

/**
 * How an answer (an operator's, or one of ours: cancelled, expired, refunded) moves a payment:
 * each status on its path a legal step with its event, the collection's ledger posting on
 * completion, and when the payment is next asked about.
 */
export class PaymentTransitions {
  private readonly checkMinIntervalMs: number;
  private readonly lateCheckWindowMs: number;

  constructor(private readonly deps: PaymentTransitionsDeps) {
    this.checkMinIntervalMs = deps.checkMinIntervalMs ?? 5_000;
    this.lateCheckWindowMs = deps.lateCheckWindowMs ?? DEFAULT_LATE_CHECK_WINDOW_MS;
  }

  /** Applies an answer: each status in its path must be a legal step, and each emits its event. */
  afterAnswer(current: Payment, answer: OperatorAnswer): Decision {
    const events: StoredEvent[] = [];
    // Statuses up to the current one are behind the payment already (a status query repeats them).
    const path = answer.path.slice(answer.path.lastIndexOf(current.status) + 1);
    const final = path.at(-1);
    const withAnswer: Payment = {
      ...current,
      pspReference: answer.pspReference ?? current.pspReference,
      message: answer.message ?? current.message,
      operatorRedirectUrl: answer.redirectUrl ?? current.operatorRedirectUrl ?? null,
      operatorState: answer.operatorState ?? current.operatorState ?? null,
      failureCode: final ? failureCodeOnEntering(final, answer.failureCode) : current.failureCode,
    };
    const walked = this.walk(withAnswer, path, events);
    const next = { ...walked, nextCheckAt: this.nextCheckAt(walked) };
    // Completion is when the money arrives: the merchant is credited, less the fee, in the same commit.
    const ledger = path.includes('completed') ? [postingRules.collection(next, this.collectionFee(next))] : undefined;
    return { next, events, ...(ledger ? { ledger } : {}) };
  }

  /**
   * An operator's answer, applied as `afterAnswer` does; one the state machine refuses (SUCCESSFUL
   * for a payment we expired) leaves the payment as it is and becomes a discrepancy for a person,
   * instead of failing the write (and, for a call, leaving its recovery point to fail again forever).
   */
  afterOperatorAnswer(current: Payment, answer: OperatorAnswer): Decision {
    try {
      return this.afterAnswer(current, answer);
    } catch (error) {
      if (!(error instanceof AkweError) || error.code !== 'invalid_state_transition') throw error;
      const reported = answer.path.at(-1);
      // Not news: a final payment told "still pending", or a refunded one told "completed" (behind us).
      // Nor is an unpaid end told another unpaid end (we expired it, the operator timed it out): no money moved.
      if (reported === undefined || !isFinal(reported) || (current.status === 'refunded' && reported === 'completed') || (unpaid.has(current.status) && unpaid.has(reported)))
        return { next: current, events: [] };
      return {
        next: current,
        events: [],
        discrepancy: {
          merchantId: current.merchantId,
          environment: current.environment,
          resourceType: 'payment',
          resourceId: current.id,
          reference: current.reference,
          operator: current.operator ?? '',
          ourStatus: current.status,
          operatorStatus: reported,
          operatorReference: answer.pspReference ?? null,
          message: answer.message ?? null,
        },
      };
    }
  }

  /**
   * When a payment in this state is next asked about: live payments the operator owes a move (at
   * the latest when they expire, so expiry always follows an answer), and expired live payments
   * that reached an operator, less and less often, until the late-check window ends.
   */
  nextCheckAt(payment: Payment): string | null {
    if (payment.environment !== 'live') return null;
    const nowMs = this.deps.clock.now().getTime();
    const ageMs = Math.max(0, nowMs - Date.parse(payment.createdAt));
    // Early on the answer is near, later it rarely is: wait a quarter of the payment's age, within bounds.
    if (awaitingOperator.has(payment.status)) {
      const dueMs = nowMs + Math.min(CHECK_MAX_INTERVAL_MS, Math.max(this.checkMinIntervalMs, ageMs / 4));
      const expiresMs = Date.parse(payment.expiresAt);
      return new Date(expiresMs > nowMs ? Math.min(dueMs, expiresMs) : dueMs).toISOString();
    }
    if (payment.status !== 'expired' || payment.operator === null) return null;
    const watchEndsMs = Date.parse(payment.expiresAt) + this.lateCheckWindowMs;
    if (nowMs >= watchEndsMs) return null;
    return new Date(Math.min(watchEndsMs, nowMs + Math.min(LATE_CHECK_MAX_INTERVAL_MS, Math.max(this.checkMinIntervalMs, ageMs / 4)))).toISOString();
  }

  private collectionFee(payment: Payment): number {
    const operator = payment.operator === null ? undefined : this.deps.catalog.findOperator(payment.country, payment.operator);
    return feeFor(operator?.collect.fee ?? defaultFees.collect, payment.amountMinor);
  }

  private walk(start: Payment, path: Payment['status'][], events: StoredEvent[]): Payment {
    let payment = start;
    for (const status of path) {
      assertTransition(payment.status, status);
      payment = { ...payment, status };
      events.push(this.deps.events.paymentEntered(status, payment));
    }
    return payment;
  }
}
