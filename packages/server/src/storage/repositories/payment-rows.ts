import type { Selectable } from 'kysely';
import type { CountryCode, Currency } from '../../core/catalog/operator-catalog.js';
import type { OperatorCall, Payment, PaymentMode, PaymentStatus, Refund, RefundStatus } from '../../core/payments/payment.js';
import type { Environment } from '../../core/shared/environment.js';
import type { FailureCode } from '../../core/shared/failure-codes.js';
import type { Metadata } from '../../core/shared/metadata.js';
import type { PaymentTable, RefundTable } from '../schema.js';

/* Payments and refunds between their domain shape and their table rows. */

export function paymentFromRow(row: Selectable<PaymentTable>): Payment {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    reference: row.reference,
    status: row.status as PaymentStatus,
    amountMinor: Number(row.amount_minor),
    currency: row.currency as Currency,
    country: row.country as CountryCode,
    mode: row.mode as PaymentMode,
    operator: row.operator,
    phone: row.phone,
    description: row.description,
    callbackUrl: row.callback_url,
    customerFirstName: row.customer_first_name,
    customerLastName: row.customer_last_name,
    pspReference: row.psp_reference,
    message: row.message,
    failureCode: row.failure_code as FailureCode | null,
    metadata: JSON.parse(row.metadata) as Metadata,
    otpAttempts: row.otp_attempts,
    refundedMinor: Number(row.refunded_minor),
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    operatorCall: row.operator_call as OperatorCall | null,
    operatorCallStartedAt: row.operator_call_started_at,
    checkoutToken: row.checkout_token,
    returnUrl: row.return_url,
    nextCheckAt: row.next_check_at,
    operatorRedirectUrl: row.operator_redirect_url,
    route: row.route,
    operatorState: row.operator_state === null ? null : (JSON.parse(row.operator_state) as Record<string, string>),
    expiryGraceUntil: row.expiry_grace_until,
    operatorSentAt: row.operator_sent_at,
    paymentLinkId: row.payment_link_id,
  };
}

export function paymentToRow(p: Payment): Selectable<PaymentTable> {
  return {
    id: p.id,
    merchant_id: p.merchantId,
    environment: p.environment,
    reference: p.reference,
    status: p.status,
    amount_minor: p.amountMinor,
    currency: p.currency,
    country: p.country,
    mode: p.mode,
    operator: p.operator,
    phone: p.phone,
    description: p.description,
    callback_url: p.callbackUrl,
    customer_first_name: p.customerFirstName,
    customer_last_name: p.customerLastName,
    psp_reference: p.pspReference,
    message: p.message,
    failure_code: p.failureCode,
    metadata: JSON.stringify(p.metadata),
    otp_attempts: p.otpAttempts,
    refunded_minor: p.refundedMinor,
    expires_at: p.expiresAt,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    version: p.version,
    operator_call: p.operatorCall,
    operator_call_started_at: p.operatorCallStartedAt,
    checkout_token: p.checkoutToken ?? null,
    return_url: p.returnUrl ?? null,
    next_check_at: p.nextCheckAt ?? null,
    operator_redirect_url: p.operatorRedirectUrl ?? null,
    route: p.route ?? null,
    operator_state: p.operatorState ? JSON.stringify(p.operatorState) : null,
    expiry_grace_until: p.expiryGraceUntil ?? null,
    operator_sent_at: p.operatorSentAt ?? null,
    payment_link_id: p.paymentLinkId ?? null,
  };
}

export function refundFromRow(row: Selectable<RefundTable>, paymentReference: string): Refund {
  return {
    id: row.id,
    paymentId: row.payment_id,
    paymentReference,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    amountMinor: Number(row.amount_minor),
    currency: row.currency as Currency,
    status: row.status as RefundStatus,
    reason: row.reason,
    pspReference: row.psp_reference,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    sentAt: row.sent_at,
  };
}

export function refundToRow(r: Refund): Selectable<RefundTable> {
  return {
    id: r.id,
    payment_id: r.paymentId,
    merchant_id: r.merchantId,
    environment: r.environment,
    amount_minor: r.amountMinor,
    currency: r.currency,
    status: r.status,
    reason: r.reason,
    psp_reference: r.pspReference,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    sent_at: r.sentAt ?? null,
  };
}
