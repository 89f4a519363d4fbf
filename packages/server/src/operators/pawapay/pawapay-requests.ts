/**
 * pawaPay Merchant API v2 requests, built as plain data (no network): the client adds the bearer
 * token and sends them. Our own id is the `depositId`, `payoutId` or `refundId`, so pawaPay can be
 * asked about it later and a repeated POST is answered DUPLICATE_IGNORED instead of charging twice.
 */
import type { Payment, Refund } from '../../core/payments/payment.js';
import type { Payout } from '../../core/payouts/payout.js';
import type { OperatorRequest } from '../operator-http.js';
import type { PawapaySettings } from './pawapay-settings.js';

export type PawapayRequest = OperatorRequest;

/** The three kinds of transaction pawaPay keeps, each under its own path. */
export type PawapayKind = 'deposits' | 'payouts' | 'refunds';

/**
 * Centimes to the major-unit string pawaPay reads ("1500"). The providers Akwe reaches take no
 * decimals (XOF), so a fraction is refused here, never rounded: charging a different amount than
 * the one recorded is worse than not calling.
 */
export function majorAmount(amountMinor: number): string {
  if (!isWholeMajor(amountMinor)) throw new RangeError(`pawaPay: the amount must be a positive whole number of francs (got ${amountMinor} centimes)`);
  return String(amountMinor / 100);
}

export function isWholeMajor(amountMinor: number): boolean {
  return Number.isSafeInteger(amountMinor) && amountMinor > 0 && amountMinor % 100 === 0;
}

/** pawaPay's MSISDN: the E.164 number without its plus. */
export function msisdn(e164: string): string {
  return e164.replace(/^\+/, '');
}

/**
 * The statement text the customer sees: pawaPay takes 4 to 22 letters, digits or spaces. Our
 * reference is cut to fit; one too short to fit is left out (the field is optional).
 */
export function customerMessage(text: string): string | undefined {
  const cleaned = text
    .replace(/[^A-Za-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 22)
    .trim();
  return cleaned.length >= 4 ? cleaned : undefined;
}

function json(path: string, body: Record<string, unknown>): PawapayRequest {
  return { method: 'POST', path, headers: { 'content-type': 'application/json' }, body };
}

function withMessage(text: string): { customerMessage?: string } {
  const message = customerMessage(text);
  return message === undefined ? {} : { customerMessage: message };
}

/** POST /v2/deposits: the customer pays; a pre-authorised provider takes the customer's code with it. */
export function deposit(settings: PawapaySettings, payment: Payment, preAuthorisationCode?: string): PawapayRequest {
  return json('/v2/deposits', {
    depositId: payment.id,
    payer: { type: 'MMO', accountDetails: { phoneNumber: msisdn(payment.phone ?? ''), provider: settings.provider } },
    amount: majorAmount(payment.amountMinor),
    currency: settings.currency,
    ...(preAuthorisationCode === undefined ? {} : { preAuthorisationCode }),
    clientReferenceId: payment.reference,
    ...withMessage(payment.reference),
  });
}

/** POST /v2/payouts: money to the beneficiary's wallet. */
export function payout(settings: PawapaySettings, payout: Payout): PawapayRequest {
  return json('/v2/payouts', {
    payoutId: payout.id,
    recipient: { type: 'MMO', accountDetails: { phoneNumber: msisdn(payout.phone), provider: settings.provider } },
    amount: majorAmount(payout.amountMinor),
    currency: settings.currency,
    clientReferenceId: payout.reference,
    ...withMessage(payout.reference),
  });
}

/** POST /v2/refunds: part or all of a completed deposit (named by its depositId, our payment id) back to the payer. */
export function refund(settings: PawapaySettings, payment: Payment, refund: Refund): PawapayRequest {
  return json('/v2/refunds', {
    refundId: refund.id,
    depositId: payment.id,
    amount: majorAmount(refund.amountMinor),
    currency: settings.currency,
    clientReferenceId: payment.reference,
  });
}

/** GET /v2/{kind}/{id}: where pawaPay stands on our id. */
export function statusQuery(kind: PawapayKind, id: string): PawapayRequest {
  return { method: 'GET', path: `/v2/${kind}/${encodeURIComponent(id)}`, headers: {} };
}

/** GET /v2/availability: which providers' flows are open, delayed or closed now. */
export function availabilityQuery(settings: PawapaySettings): PawapayRequest {
  return { method: 'GET', path: `/v2/availability?country=${settings.country}`, headers: {} };
}

/** GET /v2/active-conf: the providers, currencies and limits configured on the account. */
export function activeConfQuery(settings: PawapaySettings): PawapayRequest {
  return { method: 'GET', path: `/v2/active-conf?country=${settings.country}`, headers: {} };
}

/** GET /v2/wallet-balances: a harmless call for `akwe operators check` (the token works, the wallet is there). */
export function walletBalancesQuery(settings: PawapaySettings): PawapayRequest {
  return { method: 'GET', path: `/v2/wallet-balances?country=${settings.country}`, headers: {} };
}
