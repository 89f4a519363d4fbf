import { randomBytes } from 'node:crypto';
import type { CatalogOperator } from '../../core/catalog/operator-catalog.js';
import type { OperatorAnswer, OperatorGateway, OtpAnswer, RefundAnswer } from '../../core/payments/operator-gateway.js';
import type { Payment, Refund } from '../../core/payments/payment.js';
import { failureCodes } from '../../core/shared/failure-codes.js';
import { SandboxLedger } from './sandbox-ledger.js';
import { sandboxOtpOutcomes, scriptedFailureCode, scriptedOutcome, type ScriptedOutcome } from './sandbox-rules.js';

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
    pspReference: `sbx_${randomBytes(8).toString('hex')}`,
    message: failureCode ? `Sandbox: ${failureCodes[failureCode]}` : messages[outcome],
    ...(failureCode ? { failureCode } : {}),
  };
}

/**
 * The test environment's operator: deterministic, instant, no network, no money. It answers
 * exactly as the documented sandbox rules say, for every operator of the catalog, and remembers
 * what it did for each of our references (its ledger) so status queries answer like a live operator.
 */
export class SandboxOperator implements OperatorGateway {
  readonly configured = true;

  constructor(readonly ledger = new SandboxLedger()) {}

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
            pspReference: `sbx_${randomBytes(8).toString('hex')}`,
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
      : { status: 'completed', pspReference: `sbx_${randomBytes(8).toString('hex')}` };
    this.ledger.recordRefund(refund.id, result);
    return result;
  }

  async queryRefund(refund: Refund): Promise<RefundAnswer | undefined> {
    return this.ledger.refund(refund.id);
  }
}
