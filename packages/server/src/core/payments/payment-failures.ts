import type { FailureCode } from '../shared/failure-codes.js';
import type { PaymentStatus } from './payment.js';

/** The statuses a payment ends in without its money: each carries a failure code. */
const defaultCodes: Partial<Record<PaymentStatus, FailureCode>> = {
  failed: 'operator_declined',
  cancelled: 'payer_declined',
  expired: 'expired',
};

/**
 * The failure code a payment carries on entering `status`: the operator's own when it gave one,
 * else the status's default; null for a status that is not a failure.
 */
export function failureCodeOnEntering(status: PaymentStatus, given: FailureCode | undefined): FailureCode | null {
  const fallback = defaultCodes[status];
  return fallback === undefined ? null : (given ?? fallback);
}
