import { randomBytes } from 'node:crypto';
import type { CatalogOperator } from '../../core/catalog/operator-catalog.js';
import type { OperatorAnswer, OperatorGateway, OtpAnswer, RefundAnswer } from '../../core/payments/operator-gateway.js';
import type { Payment } from '../../core/payments/payment.js';
import { sandboxOtpOutcomes, scriptedOutcome, type ScriptedOutcome } from './sandbox-rules.js';

const messages: Record<ScriptedOutcome, string> = {
  completed: 'Sandbox: the customer approved the payment.',
  failed: 'Sandbox: the operator declined the payment.',
  pending: 'Sandbox: no answer from the operator yet.',
  cancelled: 'Sandbox: the customer cancelled the request on the phone.',
};

/** A push that got an answer passes through `processing`; one still unanswered stays `pending`. */
function answer(outcome: ScriptedOutcome): OperatorAnswer {
  return {
    path: outcome === 'pending' ? ['pending'] : ['processing', outcome],
    pspReference: `sbx_${randomBytes(8).toString('hex')}`,
    message: messages[outcome],
  };
}

/**
 * The test environment's operator: deterministic, instant, no network, no money. It answers
 * exactly as the documented sandbox rules say, for every operator of the catalog.
 */
export class SandboxOperator implements OperatorGateway {
  async startCollection(payment: Payment, operator: CatalogOperator): Promise<OperatorAnswer> {
    if (operator.requiresOtp) return { path: ['awaiting_otp'], message: 'Sandbox: one-time code sent to the customer.' };
    return answer(scriptedOutcome(payment.reference, payment.phone));
  }

  async payCheckout(payment: Payment, operator: CatalogOperator): Promise<OperatorAnswer> {
    return this.startCollection(payment, operator);
  }

  async confirmOtp(_payment: Payment, otp: string): Promise<OtpAnswer> {
    const outcome = sandboxOtpOutcomes[otp];
    if (!outcome) return { rejected: true };
    if (outcome === 'pending') return { path: ['pending'], message: 'Sandbox: code accepted, waiting for the operator.' };
    return { path: [outcome], pspReference: `sbx_${randomBytes(8).toString('hex')}`, message: messages[outcome] };
  }

  async queryStatus(payment: Payment): Promise<OperatorAnswer> {
    // Deterministic: the operator's view never moves on its own in the sandbox.
    return { path: [payment.status] };
  }

  async refund(_payment: Payment, _amountMinor: number, reason: string | null): Promise<RefundAnswer> {
    if (reason?.toUpperCase().includes('FAIL')) return { status: 'failed', message: 'Sandbox: the operator refused the refund.' };
    return { status: 'completed', pspReference: `sbx_${randomBytes(8).toString('hex')}` };
  }
}
