/**
 * Wave Business API answers, read as plain data (no network): checkout sessions, payouts, search
 * results and error bodies, and what each means in our terms.
 */
import type { OperatorAnswer, RefundAnswer } from '../../core/operators/operator-connector.js';
import type { PayoutAnswer } from '../../core/payouts/payout.js';
import type { FailureCode } from '../../core/shared/failure-codes.js';

/** Wave answered something this connector cannot read: the outcome stays unknown. */
export class WaveProtocolError extends Error {
  constructor(message: string) {
    super(`Wave: ${message}`);
    this.name = 'WaveProtocolError';
  }
}

export const checkoutStatuses = ['open', 'complete', 'expired'] as const;
export type WaveCheckoutStatus = (typeof checkoutStatuses)[number];
export const sessionPaymentStatuses = ['processing', 'cancelled', 'succeeded'] as const;
export type WaveSessionPaymentStatus = (typeof sessionPaymentStatuses)[number];
export const payoutStatuses = ['processing', 'succeeded', 'failed', 'reversed'] as const;
export type WavePayoutStatus = (typeof payoutStatuses)[number];

export interface WaveError {
  code: string;
  message?: string;
}

/** A checkout session as Wave reports it (GET, search, create, and the webhooks' `data`). */
export interface WaveCheckoutSession {
  id: string;
  /** Major units, as Wave writes them ("1500"). */
  amount: string;
  currency: string;
  checkoutStatus: WaveCheckoutStatus;
  paymentStatus: WaveSessionPaymentStatus;
  clientReference?: string;
  launchUrl?: string;
  /** Wave's transaction id, also shown in the payer's app: set once paid. */
  transactionId?: string;
  whenCreated?: string;
  whenExpires?: string;
  whenCompleted?: string;
  /** Why the last attempt to pay failed; the session may stay open for another attempt. */
  lastPaymentError?: WaveError;
}

export interface WavePayout {
  id: string;
  currency: string;
  /** Major units the recipient gets; `fee` is on top, from our wallet. */
  receiveAmount: string;
  fee?: string;
  mobile: string;
  name?: string;
  clientReference?: string;
  status: WavePayoutStatus;
  timestamp?: string;
  error?: WaveError;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(record: Record<string, unknown>, key: string): string | undefined {
  const value = record[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The fields that have a value (an answer's optional fields stay absent rather than undefined). */
function present<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function oneOf<T extends string>(values: readonly T[], value: unknown): T | undefined {
  return typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** `{ code, message }` (checkout) or `{ error_code, error_message }` (payout); null or absent is none. */
function waveError(raw: unknown, codeKey: string, messageKey: string): WaveError | undefined {
  if (!isRecord(raw)) return undefined;
  const code = text(raw, codeKey);
  if (!code) return undefined;
  const message = text(raw, messageKey);
  return { code, ...(message ? { message } : {}) };
}

/** Major units as Wave writes them: digits, and at most two decimals for currencies that have them. */
const majorShape = /^\d+(\.\d{1,2})?$/;

/** A major-unit string back to centimes ("1500" -> 150000); a malformed one is a protocol error. */
export function minorAmount(major: string): number {
  if (!majorShape.test(major)) throw new WaveProtocolError(`unreadable amount ${JSON.stringify(major)}`);
  const [whole = '0', fraction = ''] = major.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

export function parseCheckoutSession(body: unknown): WaveCheckoutSession {
  if (!isRecord(body)) throw new WaveProtocolError('a checkout session must be a JSON object');
  const id = text(body, 'id');
  if (!id) throw new WaveProtocolError('the checkout session has no id');
  const checkoutStatus = oneOf(checkoutStatuses, body['checkout_status']);
  if (!checkoutStatus) throw new WaveProtocolError(`unknown checkout_status ${JSON.stringify(body['checkout_status'])}`);
  const paymentStatus = oneOf(sessionPaymentStatuses, body['payment_status']);
  if (!paymentStatus) throw new WaveProtocolError(`unknown payment_status ${JSON.stringify(body['payment_status'])}`);
  const amount = text(body, 'amount');
  if (!amount || !majorShape.test(amount)) throw new WaveProtocolError(`the checkout session has no readable amount (${JSON.stringify(body['amount'])})`);
  const optional = {
    clientReference: text(body, 'client_reference'),
    launchUrl: text(body, 'wave_launch_url'),
    transactionId: text(body, 'transaction_id'),
    whenCreated: text(body, 'when_created'),
    whenExpires: text(body, 'when_expires'),
    whenCompleted: text(body, 'when_completed'),
    lastPaymentError: waveError(body['last_payment_error'], 'code', 'message'),
  };
  return {
    id,
    amount,
    currency: text(body, 'currency') ?? '',
    checkoutStatus,
    paymentStatus,
    ...present(optional),
  };
}

export function parsePayout(body: unknown): WavePayout {
  if (!isRecord(body)) throw new WaveProtocolError('a payout must be a JSON object');
  const id = text(body, 'id');
  if (!id) throw new WaveProtocolError('the payout has no id');
  const status = oneOf(payoutStatuses, body['status']);
  if (!status) throw new WaveProtocolError(`unknown payout status ${JSON.stringify(body['status'])}`);
  const receiveAmount = text(body, 'receive_amount');
  if (!receiveAmount || !majorShape.test(receiveAmount)) throw new WaveProtocolError(`the payout has no readable receive_amount (${JSON.stringify(body['receive_amount'])})`);
  const optional = {
    fee: text(body, 'fee'),
    name: text(body, 'name'),
    clientReference: text(body, 'client_reference'),
    timestamp: text(body, 'timestamp'),
    error: waveError(body['payout_error'], 'error_code', 'error_message'),
  };
  return {
    id,
    currency: text(body, 'currency') ?? '',
    receiveAmount,
    mobile: text(body, 'mobile') ?? '',
    status,
    ...present(optional),
  };
}

/** A search answer, `{ result: [...] }`: its items, unread. */
export function parseSearch(body: unknown): unknown[] {
  if (!isRecord(body) || !Array.isArray(body['result'])) throw new WaveProtocolError('a search answer must be { "result": [...] }');
  return body['result'];
}

export function sessionsFromSearch(body: unknown): WaveCheckoutSession[] {
  return parseSearch(body).map(parseCheckoutSession);
}

export function payoutsFromSearch(body: unknown): WavePayout[] {
  return parseSearch(body).map(parsePayout);
}

/**
 * Of the sessions made for one payment, the one that says where it stands: a paid one if any (the
 * money moved), else one still open (the customer may still pay), else the latest.
 */
export function sessionThatCounts(sessions: readonly WaveCheckoutSession[]): WaveCheckoutSession | undefined {
  const latestFirst = [...sessions].sort((a, b) => (b.whenCreated ?? '').localeCompare(a.whenCreated ?? ''));
  return latestFirst.find((s) => s.paymentStatus === 'succeeded') ?? latestFirst.find((s) => s.checkoutStatus === 'open') ?? latestFirst[0];
}

/** Of the payouts Wave holds for one reference: a paid one if any, else one in progress, else the latest. */
export function payoutThatCounts(payouts: readonly WavePayout[]): WavePayout | undefined {
  const latestFirst = [...payouts].sort((a, b) => (b.timestamp ?? '').localeCompare(a.timestamp ?? ''));
  return latestFirst.find((p) => p.status === 'succeeded') ?? latestFirst.find((p) => p.status === 'processing') ?? latestFirst[0];
}

/**
 * Why a checkout payment attempt failed (`last_payment_error.code`) -> our failure codes. Codes
 * without a closer match (blocked-account, payer-mobile-mismatch, customer-age-restricted,
 * cross-border-payment-not-allowed, kyb-limits-exceeded: the last one is our business wallet's
 * limit, not the payer's) are operator_declined, as is any code Wave adds later.
 */
export const wavePaymentErrors: Readonly<Record<string, FailureCode>> = {
  'insufficient-funds': 'insufficient_funds',
  'payment-failure': 'operator_unavailable',
  'blocked-account': 'operator_declined',
  'payer-mobile-mismatch': 'operator_declined',
  'customer-age-restricted': 'operator_declined',
  'cross-border-payment-not-allowed': 'operator_declined',
  'kyb-limits-exceeded': 'operator_declined',
};

/**
 * Why Wave refused or failed a payout (`payout_error.error_code`, or the code of a refused POST) ->
 * our failure codes; anything else is operator_declined.
 */
export const wavePayoutErrors: Readonly<Record<string, FailureCode>> = {
  'insufficient-funds': 'insufficient_funds',
  'recipient-account-inactive': 'payer_not_found',
  'recipient-limit-exceeded': 'payer_limit_reached',
  'recipient-account-blocked': 'operator_declined',
  'recipient-minor': 'operator_declined',
  'country-mismatch': 'operator_declined',
  'currency-mismatch': 'operator_declined',
  'internal-server-error': 'operator_unavailable',
  'service-unavailable': 'operator_unavailable',
};

export function paymentFailureFor(code: string | undefined): FailureCode {
  return (code !== undefined && Object.hasOwn(wavePaymentErrors, code) && wavePaymentErrors[code]) || 'operator_declined';
}

export function payoutFailureFor(code: string | undefined): FailureCode {
  return (code !== undefined && Object.hasOwn(wavePayoutErrors, code) && wavePayoutErrors[code]) || 'operator_declined';
}

function describe(error: WaveError | undefined, fallback: string): string {
  if (!error) return fallback;
  return error.message ? `${error.code} (${error.message})` : error.code;
}

/**
 * A checkout session in our terms. Paid (payment_status succeeded) is completed, whatever the
 * checkout status says: the money moved. Cancelled or expired is failed: with the last attempt's
 * reason when Wave gave one, else `expired` for a session nobody paid in time and `payer_declined`
 * for one cancelled without a reason. Anything else is still processing, even after a failed
 * attempt: Wave keeps the session open and the customer may try again until it expires.
 */
export function sessionAnswer(session: WaveCheckoutSession): OperatorAnswer {
  const lastError = session.lastPaymentError;
  if (session.paymentStatus === 'succeeded') {
    return { path: ['processing', 'completed'], message: 'Wave: the customer paid.', ...(session.transactionId ? { pspReference: session.transactionId } : {}) };
  }
  if (session.paymentStatus === 'cancelled' || session.checkoutStatus === 'expired') {
    const fallback: FailureCode = session.checkoutStatus === 'expired' ? 'expired' : 'payer_declined';
    const why = session.checkoutStatus === 'expired' ? 'the checkout expired before it was paid' : 'the payment was cancelled';
    return {
      path: ['processing', 'failed'],
      message: `Wave: ${why}${lastError ? `; last attempt: ${describe(lastError, '')}` : ''}.`,
      failureCode: lastError ? paymentFailureFor(lastError.code) : fallback,
    };
  }
  if (lastError) return { path: ['processing'], message: `Wave: an attempt to pay failed (${describe(lastError, '')}); the customer may try again.` };
  return { path: ['processing'], message: 'Wave: checkout open; waiting for the customer to pay in the Wave app.' };
}

/** A checkout session Wave refused to create (4xx with a code): nothing can be paid. */
export function sessionRefused(body: unknown): OperatorAnswer {
  const error = errorOf(body);
  return { path: ['failed'], message: `Wave refused the checkout: ${describe(error, 'no reason given')}`, failureCode: paymentFailureFor(error?.code) };
}

export function payoutAnswer(payout: WavePayout): PayoutAnswer {
  switch (payout.status) {
    case 'processing':
      return { status: 'PROCESSING', message: 'Wave: payout in progress.', pspReference: payout.id };
    case 'succeeded':
      return { status: 'COMPLETED', message: 'Wave: the money reached the wallet.', pspReference: payout.id };
    case 'failed':
      return {
        status: 'FAILED',
        message: `Wave: the payout failed: ${describe(payout.error, 'no reason given')}`,
        failureCode: payoutFailureFor(payout.error?.code),
        pspReference: payout.id,
      };
    case 'reversed':
      // Only the business can reverse a payout (the API or the portal): the money came back to it.
      return {
        status: 'FAILED',
        message: 'Wave: the payout was reversed; the money went back to the business wallet.',
        failureCode: 'operator_declined',
        pspReference: payout.id,
        reversed: true,
      };
  }
}

/** A payout Wave refused outright (4xx with a code, e.g. insufficient-funds): nothing was sent. */
export function payoutRefused(body: unknown): PayoutAnswer {
  const error = errorOf(body);
  return { status: 'FAILED', message: `Wave refused the payout: ${describe(error, 'no reason given')}`, failureCode: payoutFailureFor(error?.code) };
}

/** Wave answers a refund it made (or had already made) with 200 and no body. */
export const refundAccepted: RefundAnswer = { status: 'completed', message: 'Wave: the payment was refunded in full.' };

export function refundRefused(body: unknown): RefundAnswer {
  return { status: 'failed', message: `Wave refused the refund: ${describe(errorOf(body), 'no reason given')}` };
}

/** A refund Wave cannot make: it only gives back a whole checkout payment, once. */
export const partialRefundRefused: RefundAnswer = { status: 'failed', message: 'Wave refunds a checkout payment in full only, once; this refund is partial or a second one.' };

/** `{ code, message }`, the shape of every Wave error answer. */
export function errorOf(body: unknown): WaveError | undefined {
  return waveError(body, 'code', 'message');
}

export function errorCode(body: unknown): string | undefined {
  return errorOf(body)?.code;
}

export type WaveErrorKind =
  /** The key was refused (401/403): nothing was done; the configuration is wrong. */
  | 'auth'
  /** No such session or payout. */
  | 'not_found'
  /** Our Idempotency-Key came with another body: a bug on our side; this call did nothing. */
  | 'idempotency_mismatch'
  /** Wave did not do it and says why: definitive. */
  | 'refused'
  /** Timeout, rate limit or Wave's own fault: whether it happened is unknown; ask Wave later. */
  | 'unknown';

/** What an HTTP error from Wave means for the call that got it. */
export function classifyWaveError(status: number, body: unknown): WaveErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (errorCode(body) === 'idempotency-mismatch') return 'idempotency_mismatch';
  if (status === 408 || status === 429 || status >= 500) return 'unknown';
  return status >= 400 ? 'refused' : 'unknown';
}
