/**
 * FedaPay API requests, built as plain data (no network): the client adds the bearer secret key
 * and sends them under `<base_url>/v1`. Our own id is the `merchant_reference` of each transaction
 * and payout (FedaPay keeps it unique per account), so a retry cannot create a second one, and a
 * transaction or payout whose FedaPay id was never stored (a crash before the answer) is found
 * again by that reference.
 */
import type { Payment } from '../../core/payments/payment.js';
import type { Payout } from '../../core/payouts/payout.js';
import type { OperatorRequest } from '../operator-http.js';
import type { FedaPaySettings } from './fedapay-settings.js';

export type FedaPayRequest = OperatorRequest;

const MAX_DESCRIPTION = 255;
const json = { 'content-type': 'application/json' };

/** Whether FedaPay can take this amount: it counts XOF in whole francs. */
export function isWholeMajor(amountMinor: number): boolean {
  return Number.isSafeInteger(amountMinor) && amountMinor > 0 && amountMinor % 100 === 0;
}

/** Centimes to FedaPay's integer amount in major units; a fraction of a franc is refused, never rounded. */
export function majorAmount(amountMinor: number): number {
  if (!isWholeMajor(amountMinor)) throw new RangeError(`FedaPay: the amount must be a positive whole number of francs (got ${amountMinor} centimes)`);
  return amountMinor / 100;
}

/** `{ number: '+229…', country: 'bj' }`, FedaPay's phone number object. */
export function phoneNumber(settings: FedaPaySettings, phone: string): { number: string; country: string } {
  return { number: phone, country: settings.country };
}

function names(first: string | null | undefined, last: string | null | undefined): Record<string, string> {
  return { ...(first?.trim() ? { firstname: first.trim() } : {}), ...(last?.trim() ? { lastname: last.trim() } : {}) };
}

function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

/** POST /transactions: the collection, not yet sent to the customer (status pending, no mode). */
export function createTransaction(settings: FedaPaySettings, payment: Payment): FedaPayRequest {
  return {
    method: 'POST',
    path: '/v1/transactions',
    headers: json,
    body: {
      description: cut(payment.description?.trim() || `Payment ${payment.reference}`, MAX_DESCRIPTION),
      amount: majorAmount(payment.amountMinor),
      currency: { iso: settings.currency },
      callback_url: settings.returnUrlFor(payment.id),
      merchant_reference: payment.id,
      custom_metadata: { akwe_payment_id: payment.id },
      ...(payment.phone ? { customer: { ...names(payment.customerFirstName, payment.customerLastName), phone_number: phoneNumber(settings, payment.phone) } } : {}),
    },
  };
}

/** POST /transactions/{id}/token: the payment token and FedaPay's payment page URL for it. */
export function transactionToken(transactionId: number): FedaPayRequest {
  return { method: 'POST', path: `/v1/transactions/${transactionId}/token`, headers: json, body: {} };
}

/** POST /transactions/{mode}: the no-redirect send, a push to the customer's phone in the operator's mode. */
export function sendWithoutRedirect(settings: FedaPaySettings, token: string, phone: string | null): FedaPayRequest {
  return {
    method: 'POST',
    path: `/v1/transactions/${encodeURIComponent(settings.mode)}`,
    headers: json,
    body: { token, ...(phone ? { phone_number: phoneNumber(settings, phone) } : {}) },
  };
}

/** GET /transactions/{id}. */
export function transactionById(transactionId: number): FedaPayRequest {
  return { method: 'GET', path: `/v1/transactions/${transactionId}`, headers: {} };
}

/** GET /transactions/merchant/{merchant_reference}: the transaction made for our payment id. */
export function transactionByReference(paymentId: string): FedaPayRequest {
  return { method: 'GET', path: `/v1/transactions/merchant/${encodeURIComponent(paymentId)}`, headers: {} };
}

/** POST /payouts: the payout, created but not sent (status pending) until it is started. */
export function createPayout(settings: FedaPaySettings, payout: Payout): FedaPayRequest {
  return {
    method: 'POST',
    path: '/v1/payouts',
    headers: json,
    body: {
      amount: majorAmount(payout.amountMinor),
      currency: { iso: settings.currency },
      mode: settings.mode,
      merchant_reference: payout.id,
      custom_metadata: { akwe_payout_id: payout.id },
      ...(payout.description?.trim() ? { description: cut(payout.description.trim(), MAX_DESCRIPTION) } : {}),
      customer: { ...names(payout.recipientFirstName, payout.recipientLastName), phone_number: phoneNumber(settings, payout.phone) },
    },
  };
}

/** PUT /payouts/start: sends created payouts now. */
export function startPayout(payoutId: number): FedaPayRequest {
  return { method: 'PUT', path: '/v1/payouts/start', headers: json, body: { payouts: [{ id: payoutId }] } };
}

/** GET /payouts/merchant/{merchant_reference}: the payout made for our payout id. */
export function payoutByReference(payoutId: string): FedaPayRequest {
  return { method: 'GET', path: `/v1/payouts/merchant/${encodeURIComponent(payoutId)}`, headers: {} };
}

/** A harmless authenticated read for `akwe operators check`: the account's balances. */
export function balancesQuery(): FedaPayRequest {
  return { method: 'GET', path: '/v1/balances', headers: {} };
}
