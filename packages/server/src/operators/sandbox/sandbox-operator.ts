import { randomUUID } from 'node:crypto';
import type { CatalogOperator } from '../../core/catalog/operator-catalog.js';
import type { OperatorAnswer, OperatorConnector, OtpAnswer, RefundAnswer } from '../../core/operators/operator-connector.js';
import type { Payment, Refund } from '../../core/payments/payment.js';
import { failureCodes } from '../../core/shared/failure-codes.js';
import type { Payout, PayoutAnswer } from '../../core/payouts/payout.js';
import { systemClock } from '../../core/shared/clock.js';
import type { Clock } from '../../core/ports.js';

export const DEFAULT_SANDBOX_PAYOUT_DELAY_MS = 2_000;

/** A sandbox payout's final answer; a PENDING outcome keeps it PROCESSING for good. */
function payoutOutcome(payout: Payout): PayoutAnswer {
  const outcome = scriptedOutcome(payout.reference, payout.phone);
  switch (outcome) {
    case 'completed':
      return { status: 'COMPLETED', message: 'Sandbox: the money reached the wallet.' };
    case 'pending':
      return { status: 'PROCESSING', message: 'Sandbox: still processing.' };
    case 'cancelled':
      return { status: 'CANCELLED', message: 'Sandbox: the operator cancelled the payout.' };
    case 'failed': {
      const failureCode = scriptedFailureCode(payout.reference) ?? 'operator_declined';
      return { status: 'FAILED', message: `Sandbox: ${failureCodes[failureCode]}`, failureCode };
    }
  }
}
import { SandboxLedger } from './sandbox-ledger.js';
import { sandboxOtpOutcomes, scriptedFailureCode, scriptedOutcome, type ScriptedOutcome } from './sandbox-rules.js';

/** 16 hex digits; randomUUID draws from a cached pool, where randomBytes asks the system on each call. */
function sandboxPspReference(): string {
  return `sbx_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

const messages: Record<ScriptedOutcome, string> = {
  completed: 'Sandbox: the customer approved the payment.',
  failed: 'Sandbox: the operator declined the payment.',
  pending: 'Sandbox: no answer from the operator yet.',
  cancelled: 'Sandbox: the customer cancelled the request on the phone.',
};

/** A push that got an answer passes through `processing`; one still unanswered stays `pending`. */
function answer(outcome: ScriptedOutcome, reference: string): OperatorAnswer {
  const failureCode = outcome === 'failed' ? scriptedFailureCode(reference) : undefined;
  return {
    path: outcome === 'pending' ? ['pending'] : ['processing', outcome],
    pspReference: sandboxPspReference(),
    message: failureCode ? `Sandbox: ${failureCodes[failureCode]}` : messages[outcome],
    ...(failureCode ? { failureCode } : {}),
  };
}

/**
 * The test environment's operator: deterministic, instant, no network, no money. It answers
 * exactly as the documented sandbox rules say, for every operator of the catalog, and remembers
 * what it did for each of our references (its ledger) so status queries answer like a live operator.
 */
export class SandboxOperator implements OperatorConnector {
  readonly family = 'sandbox';
  /** In-process: a call either reached the simulator or never will, so recovery need not wait for a late one. */
  readonly sendsArriveAtOnce = true;
  /** Deterministic and in-process: a new direct payment commits with its outcome in one phase (see the option). */
  readonly decidesInProcess: boolean;
  // Every flow, for every operator of the catalog: the sandbox is the whole catalog's test double.
  readonly push = this;
  readonly hosted = this;
  readonly otp = this;
  readonly status = this;
  readonly refunds = this;
  readonly payouts = this;
  private readonly payoutDelayMs: number;
  private readonly clock: Clock;

  /**
   * `payoutDelayMs`: how long a sandbox payout stays PROCESSING before its scripted outcome shows
   * (SANDBOX_PAYOUT_DELAY_MS; 2 s by default, 0 in tests that want it at once).
   * `decidesInProcess: false` makes creation go through the recorded phases a networked connector
   * needs (intent, call, outcome): the crash tests use it to stop a creation between them.
   */
  constructor(
    readonly ledger = new SandboxLedger(),
    options: { payoutDelayMs?: number; clock?: Clock; decidesInProcess?: boolean } = {},
  ) {
    this.decidesInProcess = options.decidesInProcess ?? true;
    this.payoutDelayMs = options.payoutDelayMs ?? DEFAULT_SANDBOX_PAYOUT_DELAY_MS;
    this.clock = options.clock ?? systemClock;
  }

  /** Test payouts follow the collection keyword and suffix rules (sandbox-rules.ts), asynchronously. */
  async sendPayout(payout: Payout): Promise<PayoutAnswer> {
    this.ledger.recordPayoutSent(payout.id, payoutOutcome(payout), this.clock.now().getTime() + this.payoutDelayMs);
    return { status: 'PROCESSING', pspReference: sandboxPspReference(), message: 'Sandbox: the operator is sending the money.' };
  }

  async queryPayout(payout: Payout): Promise<PayoutAnswer | undefined> {
    const known = this.ledger.payout(payout.id);
    if (!known) {
      // Forgotten after a restart, though it was handed off: the rules are deterministic, so the
      // sandbox answers what it would have. One never handed off is unknown, as to a live operator.
      return payout.handedOff ? payoutOutcome(payout) : undefined;
    }
    return this.clock.now().getTime() >= known.finalAtMs ? known.final : { status: 'PROCESSING' };
  }

  async startCollection(payment: Payment, operator: CatalogOperator): Promise<OperatorAnswer> {
    const result: OperatorAnswer = operator.requiresOtp
      ? { path: ['awaiting_otp'], message: 'Sandbox: one-time code sent to the customer.' }
      : answer(scriptedOutcome(payment.reference, payment.phone), payment.reference);
    this.ledger.recordPush(payment.id, result);
    return result;
  }

  async payCheckout(payment: Payment, operator: CatalogOperator): Promise<OperatorAnswer> {
    return this.startCollection(payment, operator);
  }

  async confirmOtp(payment: Payment, otp: string): Promise<OtpAnswer> {
    const outcome = sandboxOtpOutcomes[otp];
    if (!outcome) {
      this.ledger.recordConfirmation(payment.id, undefined);
      return { rejected: true };
    }
    const result: OperatorAnswer =
      outcome === 'pending'
        ? { path: ['pending'], message: 'Sandbox: code accepted, waiting for the operator.' }
        : {
            path: [outcome],
            pspReference: sandboxPspReference(),
            message: outcome === 'failed' ? 'Sandbox: the operator refused the one-time code.' : messages[outcome],
            ...(outcome === 'failed' ? { failureCode: 'otp_failed' as const } : {}),
          };
    this.ledger.recordConfirmation(payment.id, result);
    return result;
  }

  async queryStatus(payment: Payment): Promise<OperatorAnswer | undefined> {
    // Deterministic: the sandbox's view never moves on its own; it repeats what its last call did.
    return this.ledger.payment(payment.id);
  }

  async refund(_payment: Payment, refund: Refund): Promise<RefundAnswer> {
    const result: RefundAnswer = refund.reason?.toUpperCase().includes('FAIL')
      ? { status: 'failed', message: 'Sandbox: the operator refused the refund.' }
      : { status: 'completed', pspReference: sandboxPspReference() };
    this.ledger.recordRefund(refund.id, result);
    return result;
  }

  async queryRefund(refund: Refund): Promise<RefundAnswer | undefined> {
    return this.ledger.refund(refund.id);
  }
}
