import type { CatalogOperator } from '../catalog/operator-catalog.js';
import type { Environment } from '../shared/environment.js';
import type { Payment, PaymentStatus } from './payment.js';

/**
 * What an operator answered. `path` lists the statuses the payment went through, in order
 * (e.g. processing then completed when the customer approved the push at once); the last is current.
 */
export interface OperatorAnswer {
  path: PaymentStatus[];
  pspReference?: string;
  message?: string;
}

export type OtpAnswer = OperatorAnswer | { rejected: true };

export interface RefundAnswer {
  status: 'completed' | 'failed';
  pspReference?: string;
  message?: string;
}

/** One operator family's adapter (the sandbox simulator is one). The core talks only to this. */
export interface OperatorGateway {
  /** Starts a direct collection: push to the phone, or OTP sent. */
  startCollection(payment: Payment, operator: CatalogOperator): Promise<OperatorAnswer>;
  /** The customer pays a hosted checkout with this phone and operator. */
  payCheckout(payment: Payment, operator: CatalogOperator): Promise<OperatorAnswer>;
  confirmOtp(payment: Payment, otp: string): Promise<OtpAnswer>;
  /** Current status at the operator, for `sync=true` on non-final payments. */
  queryStatus(payment: Payment): Promise<OperatorAnswer>;
  refund(payment: Payment, amountMinor: number, reason: string | null): Promise<RefundAnswer>;
}

/** Picks the gateway for an environment (test: the sandbox; live: the configured operators). */
export interface OperatorGatewayRegistry {
  gatewayFor(environment: Environment): OperatorGateway;
}
