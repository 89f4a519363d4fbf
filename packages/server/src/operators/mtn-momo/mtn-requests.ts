/**
 * MTN MoMo Open API requests, built as plain data (no network): the client adds the bearer token
 * and sends them. Our own id is the X-Reference-Id (and the externalId), so the operator can be
 * asked about it later and a repeated POST is answered 409 instead of charging twice.
 */
import type { Payment, Refund } from '../../core/payments/payment.js';
import type { Payout } from '../../core/payouts/payout.js';
import type { OperatorRequest } from '../operator-http.js';
import type { MtnCredentials, MtnMomoSettings, MtnProduct } from './mtn-settings.js';

/** A request to MTN (paths such as /collection/v1_0/requesttopay), sent with its product's credentials. */
export interface MtnRequest extends OperatorRequest {
  product: MtnProduct;
}

/** The kinds of transaction MTN keeps, each under its product. */
export type MtnTransactionKind = 'requesttopay' | 'transfer' | 'refund';

export const productOf: Record<MtnTransactionKind, MtnProduct> = { requesttopay: 'collection', transfer: 'disbursement', refund: 'disbursement' };

/** MTN's free-text fields take at most 160 characters. */
const MAX_NOTE = 160;

/** Centimes to the major-unit string MTN reads ("1500", or "1500.25" should a fraction appear). */
export function majorAmount(amountMinor: number): string {
  const whole = Math.trunc(amountMinor / 100);
  const cents = amountMinor % 100;
  return cents === 0 ? String(whole) : `${whole}.${String(cents).padStart(2, '0')}`;
}

/** MTN's MSISDN: the E.164 number without its plus. */
export function msisdn(e164: string): string {
  return e164.replace(/^\+/, '');
}

function note(text: string): string {
  return text.length > MAX_NOTE ? text.slice(0, MAX_NOTE) : text;
}

export function callbackUrl(settings: MtnMomoSettings, kind: MtnTransactionKind, id: string): string {
  return `${settings.callbackBaseUrl}/${kind}/${id}`;
}

/** POST /{product}/token/: Basic auth with the API user and key. */
export function tokenRequest(product: MtnProduct, credentials: MtnCredentials): MtnRequest {
  const basic = Buffer.from(`${credentials.apiUser}:${credentials.apiKey.reveal()}`).toString('base64');
  return { product, method: 'POST', path: `/${product}/token/`, headers: { authorization: `Basic ${basic}` } };
}

function post(settings: MtnMomoSettings, kind: MtnTransactionKind, id: string, body: Record<string, unknown>): MtnRequest {
  return {
    product: productOf[kind],
    method: 'POST',
    path: `/${productOf[kind]}/v1_0/${kind}`,
    headers: {
      'x-reference-id': id,
      'x-target-environment': settings.targetEnvironment,
      'x-callback-url': callbackUrl(settings, kind, id),
      'content-type': 'application/json',
    },
    body,
  };
}

/** Collection: a push asking the payer to approve the payment on the phone. */
export function requestToPay(settings: MtnMomoSettings, payment: Payment): MtnRequest {
  return post(settings, 'requesttopay', payment.id, {
    amount: majorAmount(payment.amountMinor),
    currency: settings.currency,
    externalId: payment.id,
    payer: { partyIdType: 'MSISDN', partyId: msisdn(payment.phone ?? '') },
    payerMessage: note(payment.description ?? `Payment ${payment.reference}`),
    payeeNote: note(payment.reference),
  });
}

/** Disbursement: money to the beneficiary's wallet. */
export function transfer(settings: MtnMomoSettings, payout: Payout): MtnRequest {
  return post(settings, 'transfer', payout.id, {
    amount: majorAmount(payout.amountMinor),
    currency: settings.currency,
    externalId: payout.id,
    payee: { partyIdType: 'MSISDN', partyId: msisdn(payout.phone) },
    payerMessage: note(payout.description ?? `Payout ${payout.reference}`),
    payeeNote: note(payout.reference),
  });
}

/** Disbursement's refund of an earlier request-to-pay (named by its reference, our payment id). */
export function refund(settings: MtnMomoSettings, payment: Payment, refund: Refund): MtnRequest {
  return post(settings, 'refund', refund.id, {
    amount: majorAmount(refund.amountMinor),
    currency: settings.currency,
    externalId: refund.id,
    payerMessage: note(refund.reason ?? `Refund of ${payment.reference}`),
    payeeNote: note(payment.reference),
    referenceIdToRefund: payment.id,
  });
}

/** GET /{product}/v1_0/{kind}/{referenceId}: where MTN stands on our reference. */
export function statusQuery(settings: MtnMomoSettings, kind: MtnTransactionKind, id: string): MtnRequest {
  return {
    product: productOf[kind],
    method: 'GET',
    path: `/${productOf[kind]}/v1_0/${kind}/${encodeURIComponent(id)}`,
    headers: { 'x-target-environment': settings.targetEnvironment },
  };
}

/** A harmless call for `akwe operators check`: the product account's balance. */
export function balanceQuery(settings: MtnMomoSettings, product: MtnProduct): MtnRequest {
  return { product, method: 'GET', path: `/${product}/v1_0/account/balance`, headers: { 'x-target-environment': settings.targetEnvironment } };
}
