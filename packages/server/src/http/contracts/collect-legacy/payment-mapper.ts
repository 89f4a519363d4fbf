import type { Payment, PaymentStatus } from '../../../core/payments/payment.js';
import { isFinal } from '../../../core/payments/payment-state-machine.js';

/**
 * The earlier contract's statuses. Its six map one-to-one; the three it never had map to the
 * nearest it knows: `awaiting_payment` is still PENDING, `expired` ended as CANCELLED, and a
 * `refunded` payment did complete (the earlier contract has no refunds).
 */
const legacyStatuses: Record<PaymentStatus, string> = {
  pending: 'PENDING',
  processing: 'PROCESSING',
  awaiting_otp: 'AWAITING_OTP',
  awaiting_payment: 'PENDING',
  completed: 'COMPLETED',
  failed: 'FAILED',
  cancelled: 'CANCELLED',
  expired: 'CANCELLED',
  refunded: 'COMPLETED',
};

export function legacyStatus(status: PaymentStatus): string {
  return legacyStatuses[status];
}

/** Domain -> the earlier contract's payment object (amounts in centimes, phone at the root). */
export function legacyPaymentToWire(payment: Payment, now: Date) {
  return {
    id: payment.id,
    reference: payment.reference,
    status: legacyStatus(payment.status),
    amount: payment.amountMinor,
    currency: payment.currency,
    country: payment.country,
    operator: payment.operator,
    phone: payment.phone,
    psp_reference: payment.pspReference,
    message: payment.message,
    environment: payment.environment,
    idempotent_replay: false,
    pending_since_seconds: isFinal(payment.status) ? null : Math.max(0, Math.floor((now.getTime() - Date.parse(payment.createdAt)) / 1000)),
    sandbox: payment.environment === 'test',
  };
}
