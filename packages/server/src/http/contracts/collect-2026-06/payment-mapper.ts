import type { Payment, Refund } from '../../../core/payments/payment.js';
import type { CreatePaymentInput } from '../../../core/payments/payment-input.js';
import { toMajorUnitsFloor, toMinorUnits } from '../../../core/shared/money.js';
import { CURRENT_API_VERSION } from './operator-catalog-mapper.js';

export interface WireCreatePayment {
  reference: string;
  amount: number;
  currency?: 'XOF' | 'XAF';
  country: string;
  mode: 'direct' | 'hosted';
  customer?: { phone: string };
  operator?: string;
  description?: string;
  callback_url?: string;
  return_url?: string;
  expires_in_seconds?: number;
  metadata?: Record<string, string>;
}

/** Wire (major units, nested customer) -> core input (centimes, flat phone). */
export function toCreateInput(body: WireCreatePayment): CreatePaymentInput {
  return {
    reference: body.reference,
    amountMinor: toMinorUnits(body.amount),
    currency: body.currency,
    country: body.country,
    mode: body.mode,
    phone: body.customer?.phone,
    operator: body.operator,
    description: body.description,
    callbackUrl: body.callback_url,
    returnUrl: body.return_url,
    expiresInSeconds: body.expires_in_seconds,
    metadata: body.metadata,
  };
}

/** The hosted payment's page: its token, never its id or reference (docs/checkout.md). */
export function checkoutUrl(publicUrl: string, payment: Payment): string {
  return `${publicUrl}/checkout/${payment.checkoutToken ?? ''}`;
}

function nextAction(publicUrl: string, payment: Payment) {
  switch (payment.status) {
    case 'awaiting_payment':
      return { type: 'redirect_to_checkout' as const, url: checkoutUrl(publicUrl, payment) };
    case 'awaiting_otp': {
      const url = `${publicUrl}/api/v1/collect/payments/${encodeURIComponent(payment.reference)}/confirm`;
      // `confirm_url` was this type's first name for it; kept so early integrations keep working.
      return { type: 'confirm_otp' as const, url, confirm_url: url };
    }
    case 'processing':
      return { type: 'await_customer_approval' as const };
    case 'pending':
      return { type: 'await_status_update' as const };
    default:
      return null;
  }
}

/** Domain -> the `collect.payment` object of contract 2026-06. */
export function paymentToWire(payment: Payment, publicUrl: string) {
  return {
    object: 'collect.payment' as const,
    api_version: CURRENT_API_VERSION as '2026-06',
    id: payment.id,
    reference: payment.reference,
    status: payment.status,
    amount: toMajorUnitsFloor(payment.amountMinor),
    amount_minor: payment.amountMinor,
    currency: payment.currency,
    country: payment.country,
    mode: payment.mode,
    operator: payment.operator,
    customer: payment.phone ? { phone: payment.phone } : null,
    description: payment.description,
    environment: payment.environment,
    sandbox: payment.environment === 'test',
    idempotent_replay: false,
    ...(payment.mode === 'hosted' ? { checkout_url: checkoutUrl(publicUrl, payment) } : {}),
    ...(payment.paymentLinkId ? { payment_link: payment.paymentLinkId } : {}),
    next_action: nextAction(publicUrl, payment),
    psp_reference: payment.pspReference,
    message: payment.message,
    failure_code: payment.failureCode,
    metadata: payment.metadata,
    refunded_amount: toMajorUnitsFloor(payment.refundedMinor),
    refunded_amount_minor: payment.refundedMinor,
    callback_url: payment.callbackUrl,
    return_url: payment.returnUrl ?? null,
    expires_at: payment.expiresAt,
    created_at: payment.createdAt,
    updated_at: payment.updatedAt,
  };
}

export function refundToWire(refund: Refund) {
  return {
    object: 'collect.refund' as const,
    id: refund.id,
    payment_id: refund.paymentId,
    payment_reference: refund.paymentReference,
    status: refund.status,
    amount: toMajorUnitsFloor(refund.amountMinor),
    amount_minor: refund.amountMinor,
    currency: refund.currency,
    reason: refund.reason,
    psp_reference: refund.pspReference,
    environment: refund.environment,
    sandbox: refund.environment === 'test',
    idempotent_replay: false,
    created_at: refund.createdAt,
    updated_at: refund.updatedAt,
  };
}
