import type { CatalogOperator } from '../catalog/operator-catalog.js';
import type { Environment } from '../shared/environment.js';
import type { FailureCode } from '../shared/failure-codes.js';
import type { Payment, PaymentStatus, Refund } from './payment.js';
import type { Payout, PayoutAnswer } from '../payouts/payout.js';

/**
 * What an operator answered. `path` lists the statuses the payment went through, in order
 * (e.g. processing then completed when the customer approved the push at once); the last is current.
 */
export interface OperatorAnswer {
  path: PaymentStatus[];
  pspReference?: string;
  message?: string;
  /** Why, when the path ends failed or cancelled (the core defaults it when the operator gives none). */
  failureCode?: FailureCode;
}

export type OtpAnswer = OperatorAnswer | { rejected: true };

export interface RefundAnswer {
  status: 'completed' | 'failed';
  pspReference?: string;
  message?: string;
}

/**
 * One operator family's adapter (the sandbox simulator is one). The core talks only to this.
 * Every call names the payment (or refund) by our own id, which the adapter passes to the operator
 * as its idempotency / correlation reference, so the operator can later be asked what became of it.
 * A call must give up well within the idempotency lease (60 s by default): after the lease another
 * run may ask the operator about the same reference.
 */
export interface OperatorGateway {
  /** False when no operator contract is configured: nothing may be stored or called. */
  readonly configured: boolean;
  /** Starts a direct collection: push to the phone, or OTP sent. */
  startCollection(payment: Payment, operator: CatalogOperator): Promise<OperatorAnswer>;
  /** The customer pays a hosted checkout with this phone and operator. */
  payCheckout(payment: Payment, operator: CatalogOperator): Promise<OperatorAnswer>;
  confirmOtp(payment: Payment, otp: string): Promise<OtpAnswer>;
  /**
   * Where the operator stands on our reference (the payment id): the statuses the last call took
   * it through, or undefined when the operator never received a call for it.
   */
  queryStatus(payment: Payment): Promise<OperatorAnswer | undefined>;
  refund(payment: Payment, refund: Refund): Promise<RefundAnswer>;
  /** Where the operator stands on a refund (our refund id), or undefined when it never received it. */
  queryRefund(refund: Refund): Promise<RefundAnswer | undefined>;
  /** Sends a payout to the beneficiary's wallet, our payout id as the operator's reference. */
  sendPayout(payout: Payout, operator: CatalogOperator): Promise<PayoutAnswer>;
  /** Where the operator stands on a payout (our id), or undefined when it never received it. */
  queryPayout(payout: Payout): Promise<PayoutAnswer | undefined>;
}

/** Picks the gateway for an environment (test: the sandbox; live: the configured operators). */
export interface OperatorGatewayRegistry {
  gatewayFor(environment: Environment): OperatorGateway;
}
