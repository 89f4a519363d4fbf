/**
 * Wave Business API requests, built as plain data (no network): the client adds the bearer API key
 * and sends them. Our own id is both the `client_reference` (so Wave can be searched for it after
 * a lost answer) and the Idempotency-Key (so a repeated POST is answered with the first result
 * instead of charging or paying twice).
 */
import type { Payment, Refund } from '../../core/payments/payment.js';
import type { Payout } from '../../core/payouts/payout.js';
import type { OperatorRequest } from '../operator-http.js';
import type { WaveSettings } from './wave-settings.js';

/** A request to Wave (paths such as /v1/checkout/sessions); the client adds the bearer API key. */
export type WaveRequest = OperatorRequest;

/** Wave's own limits on free text: 255 for names and references, 40 for a payout's reason. */
const MAX_NAME = 255;
const MAX_PAYMENT_REASON = 40;

/**
 * Centimes to the major-unit string Wave reads ("1500"). Wave takes XOF in whole francs (no
 * decimals), so a fraction of a franc is refused here rather than silently rounded: charging or
 * paying a different amount than the one recorded is worse than not calling at all.
 */
export function majorAmount(amountMinor: number): string {
  if (!Number.isSafeInteger(amountMinor) || amountMinor <= 0) throw new RangeError(`Wave: the amount must be a positive whole number of centimes (got ${amountMinor})`);
  if (amountMinor % 100 !== 0) throw new RangeError(`Wave: the amount must be whole francs; ${amountMinor} centimes is not`);
  return String(amountMinor / 100);
}

/** Whether Wave can take this amount at all (see majorAmount). */
export function isWholeMajor(amountMinor: number): boolean {
  return Number.isSafeInteger(amountMinor) && amountMinor > 0 && amountMinor % 100 === 0;
}

function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

export interface WaveCheckoutOptions {
  /** Defaults to `settings.successUrlFor(payment.id)`. */
  successUrl?: string;
  /** Defaults to `settings.errorUrlFor(payment.id)`. */
  errorUrl?: string;
  /**
   * Only the Wave account of `payment.phone` may pay (Wave then refuses any other payer with
   * `payer-mobile-mismatch`). Off by default: relatives often pay from their own wallet.
   */
  restrictPayerMobile?: boolean;
  /**
   * Defaults to the payment id. Wave keeps answering a key with the first session, even once it
   * has expired: a new session for the same payment (the customer came back later) needs a new
   * key, e.g. `<payment id>:2`.
   */
  idempotencyKey?: string;
}

/** POST /v1/checkout/sessions: a hosted Wave checkout the customer opens with `wave_launch_url`. */
export function createCheckoutSession(settings: WaveSettings, payment: Payment, options: WaveCheckoutOptions = {}): WaveRequest {
  const restrict = options.restrictPayerMobile === true && payment.phone ? { restrict_payer_mobile: payment.phone } : {};
  return {
    method: 'POST',
    path: '/v1/checkout/sessions',
    headers: { 'idempotency-key': options.idempotencyKey ?? payment.id, 'content-type': 'application/json' },
    body: {
      amount: majorAmount(payment.amountMinor),
      currency: settings.currency,
      success_url: options.successUrl ?? settings.successUrlFor(payment.id),
      error_url: options.errorUrl ?? settings.errorUrlFor(payment.id),
      client_reference: payment.id,
      ...restrict,
    },
  };
}

/** GET /v1/checkout/sessions/search?client_reference=: every session made for our payment. */
export function checkoutSessionsByReference(paymentId: string): WaveRequest {
  return { method: 'GET', path: `/v1/checkout/sessions/search?client_reference=${encodeURIComponent(paymentId)}`, headers: {} };
}

/**
 * POST /v1/checkout/sessions/:id/refund: Wave gives back the whole payment, fees included; it takes
 * no body, so no amount (a partial refund cannot be asked for: see refundIsWhole). Wave answers a
 * repeat of a done refund with 200 and refunds once, which also makes this the way to ask where a
 * refund stands; the Idempotency-Key (our refund id) is an extra guard Wave may ignore here.
 */
export function refundCheckoutSession(sessionId: string, refund: Refund): WaveRequest {
  return { method: 'POST', path: `/v1/checkout/sessions/${encodeURIComponent(sessionId)}/refund`, headers: { 'idempotency-key': refund.id } };
}

/** Whether a refund is one Wave can make: the whole payment, once. */
export function refundIsWhole(payment: Payment, refund: Refund): boolean {
  return refund.amountMinor === payment.amountMinor && payment.refundedMinor === 0;
}

function recipientName(payout: Payout): string | undefined {
  const name = [payout.recipientFirstName, payout.recipientLastName]
    .filter((part): part is string => !!part && part.trim() !== '')
    .join(' ')
    .trim();
  return name === '' ? undefined : cut(name, MAX_NAME);
}

/**
 * POST /v1/payout: `receive_amount` is what the recipient gets (Wave adds its fee on top, from our
 * wallet). The Idempotency-Key is required by Wave; with our payout id, a retry after a lost answer
 * is answered with the first payout instead of sending the money again. Wave may check `name`
 * against the wallet's holder, so it goes only when we know it.
 */
export function createPayout(settings: WaveSettings, payout: Payout): WaveRequest {
  const name = recipientName(payout);
  const reason = payout.description?.trim() ? { payment_reason: cut(payout.description.trim(), MAX_PAYMENT_REASON) } : {};
  return {
    method: 'POST',
    path: '/v1/payout',
    headers: { 'idempotency-key': payout.id, 'content-type': 'application/json' },
    body: {
      currency: settings.currency,
      receive_amount: majorAmount(payout.amountMinor),
      mobile: payout.phone,
      ...(name ? { name } : {}),
      client_reference: payout.id,
      ...reason,
    },
  };
}

/** GET /v1/payouts/search?client_reference=: the payouts Wave holds for our payout id. */
export function payoutsByReference(payoutId: string): WaveRequest {
  return { method: 'GET', path: `/v1/payouts/search?client_reference=${encodeURIComponent(payoutId)}`, headers: {} };
}

/** A harmless call for `akwe operators check`: the wallet's balance (the key needs the Balance API). */
export function balanceQuery(): WaveRequest {
  return { method: 'GET', path: '/v1/balance', headers: {} };
}
