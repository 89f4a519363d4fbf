import type { OperatorAnswer, RefundAnswer } from '../../core/operators/operator-connector.js';
import type { PayoutAnswer } from '../../core/payouts/payout.js';

/** How many references the sandbox remembers; the oldest are forgotten first. */
const DEFAULT_CAPACITY = 200_000;

interface PaymentEntry {
  /** What the last call did to the payment, answered again to a status query. */
  answer: OperatorAnswer;
  /** Pushes to the customer's phone (collections started and checkouts paid) for this reference. */
  pushes: number;
  confirmations: number;
}

/**
 * The simulated operator's own memory: what it did for each of our references (payment and refund
 * ids), so a status query after a crash is answered the way a live operator would answer it. It
 * lives in this process: after a restart the sandbox has forgotten the calls made before it, and a
 * resumed request makes its call again (harmless there: the sandbox moves no money).
 */
export class SandboxLedger {
  private readonly payments = new Map<string, PaymentEntry>();
  private readonly refunds = new Map<string, { answer: RefundAnswer; calls: number }>();
  private readonly payouts = new Map<string, { final: PayoutAnswer; finalAtMs: number; sends: number }>();

  constructor(private readonly capacity = DEFAULT_CAPACITY) {}

  recordPush(paymentId: string, answer: OperatorAnswer): void {
    const entry = this.payments.get(paymentId);
    this.remember(this.payments, paymentId, { answer, pushes: (entry?.pushes ?? 0) + 1, confirmations: entry?.confirmations ?? 0 });
  }

  recordConfirmation(paymentId: string, answer: OperatorAnswer | undefined): void {
    const entry = this.payments.get(paymentId);
    this.remember(this.payments, paymentId, {
      answer: answer ?? entry?.answer ?? { path: ['awaiting_otp'] },
      pushes: entry?.pushes ?? 0,
      confirmations: (entry?.confirmations ?? 0) + 1,
    });
  }

  recordRefund(refundId: string, answer: RefundAnswer): void {
    this.remember(this.refunds, refundId, { answer, calls: (this.refunds.get(refundId)?.calls ?? 0) + 1 });
  }

  recordPayoutSent(payoutId: string, final: PayoutAnswer, finalAtMs: number): void {
    this.remember(this.payouts, payoutId, { final, finalAtMs, sends: (this.payouts.get(payoutId)?.sends ?? 0) + 1 });
  }

  /** What the sandbox did with a payout: its final answer and when it becomes visible. */
  payout(payoutId: string): { final: PayoutAnswer; finalAtMs: number } | undefined {
    return this.payouts.get(payoutId);
  }

  /** Test support: how many times this payout was sent to the operator (must be one at most). */
  payoutSendsFor(payoutId: string): number {
    return this.payouts.get(payoutId)?.sends ?? 0;
  }

  payment(paymentId: string): OperatorAnswer | undefined {
    return this.payments.get(paymentId)?.answer;
  }

  refund(refundId: string): RefundAnswer | undefined {
    return this.refunds.get(refundId)?.answer;
  }

  /** Test support: how many times the customer's phone was pushed for this payment. */
  pushesFor(paymentId: string): number {
    return this.payments.get(paymentId)?.pushes ?? 0;
  }

  /** Test support: how many codes were submitted to the operator for this payment. */
  confirmationsFor(paymentId: string): number {
    return this.payments.get(paymentId)?.confirmations ?? 0;
  }

  /** Test support: how many times this refund was sent to the operator. */
  refundCallsFor(refundId: string): number {
    return this.refunds.get(refundId)?.calls ?? 0;
  }

  private remember<T>(map: Map<string, T>, key: string, value: T): void {
    // Re-inserting moves the key to the end, so the first key is always the least recently used.
    map.delete(key);
    map.set(key, value);
    if (map.size > this.capacity) map.delete(map.keys().next().value!);
  }
}
