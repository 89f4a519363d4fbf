/**
 * FedaPay API answers, read as plain data (no network). FedaPay wraps a resource in an envelope
 * named after its class and API version (`{ "v1/transaction": { … } }`, `{ "v1/payouts": [ … ] }`);
 * errors are `{ message, errors? }` with an HTTP status.
 */
import type { OperatorAnswer } from '../../core/operators/operator-connector.js';
import type { PayoutAnswer } from '../../core/payouts/payout.js';
import { failureFor, payoutStatuses, transactionStatuses } from './fedapay-statuses.js';

/** FedaPay answered something this connector cannot read: the outcome stays unknown. */
export class FedaPayProtocolError extends Error {
  constructor(message: string) {
    super(`FedaPay: ${message}`);
    this.name = 'FedaPayProtocolError';
  }
}

export interface FedaPayTransaction {
  id: number;
  reference: string;
  status: string;
  /** Major units. */
  amount: number;
  /** The payment mode it was sent in; null until sent. */
  mode: string | null;
  merchantReference: string | null;
  lastErrorCode: string | null;
}

export interface FedaPayPayout {
  id: number;
  reference: string;
  status: string;
  amount: number;
  mode: string | null;
  merchantReference: string | null;
  lastErrorCode: string | null;
  lastErrorMessage: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The resource inside `{ "v1/<name>": … }` (also accepted without the version prefix). */
export function unwrap(body: unknown, name: string): unknown {
  if (!isRecord(body)) throw new FedaPayProtocolError(`expected a { "v1/${name}": … } answer`);
  const inner = body[`v1/${name}`] ?? body[name];
  if (inner === undefined) throw new FedaPayProtocolError(`the answer has no "v1/${name}"`);
  return inner;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

export function parseTransaction(value: unknown): FedaPayTransaction {
  if (!isRecord(value)) throw new FedaPayProtocolError('a transaction must be an object');
  const { id, status, amount } = value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new FedaPayProtocolError('the transaction has no numeric id');
  if (typeof status !== 'string' || !Object.hasOwn(transactionStatuses, status)) throw new FedaPayProtocolError(`unknown transaction status ${JSON.stringify(status)}`);
  if (typeof amount !== 'number') throw new FedaPayProtocolError('the transaction has no amount');
  return {
    id,
    reference: text(value['reference']) ?? String(id),
    status,
    amount,
    mode: text(value['mode']),
    merchantReference: text(value['merchant_reference']),
    lastErrorCode: text(value['last_error_code']),
  };
}

export function parsePayout(value: unknown): FedaPayPayout {
  if (!isRecord(value)) throw new FedaPayProtocolError('a payout must be an object');
  const { id, status, amount } = value;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw new FedaPayProtocolError('the payout has no numeric id');
  if (typeof status !== 'string' || !Object.hasOwn(payoutStatuses, status)) throw new FedaPayProtocolError(`unknown payout status ${JSON.stringify(status)}`);
  if (typeof amount !== 'number') throw new FedaPayProtocolError('the payout has no amount');
  return {
    id,
    reference: text(value['reference']) ?? String(id),
    status,
    amount,
    mode: text(value['mode']),
    merchantReference: text(value['merchant_reference']),
    lastErrorCode: text(value['last_error_code']),
    lastErrorMessage: text(value['last_error_message']),
  };
}

/** `{ "v1/transaction": … }` */
export function transactionOf(body: unknown): FedaPayTransaction {
  return parseTransaction(unwrap(body, 'transaction'));
}

/** `{ "v1/payout": … }` */
export function payoutOf(body: unknown): FedaPayPayout {
  return parsePayout(unwrap(body, 'payout'));
}

/** `{ "v1/payouts": [ … ] }`, PUT /payouts/start's answer: the payout it started. */
export function startedPayoutOf(body: unknown, payoutId: number): FedaPayPayout {
  const list = unwrap(body, 'payouts');
  if (!Array.isArray(list)) throw new FedaPayProtocolError('"v1/payouts" must be a list');
  const found = list.map(parsePayout).find((payout) => payout.id === payoutId);
  if (!found) throw new FedaPayProtocolError('the started payouts do not include ours');
  return found;
}

/** `{ token, url }`: the transaction's payment token and FedaPay's payment page for it. */
export function tokenOf(body: unknown): { token: string; url: string } {
  if (!isRecord(body) || typeof body['token'] !== 'string' || body['token'] === '' || typeof body['url'] !== 'string')
    throw new FedaPayProtocolError('a token answer must be { token, url }');
  return { token: body['token'], url: body['url'] };
}

/** A transaction in our terms. */
export function transactionAnswer(transaction: FedaPayTransaction): OperatorAnswer {
  const meaning = transactionStatuses[transaction.status]!;
  const failed = meaning.path.at(-1) === 'failed';
  const why = transaction.lastErrorCode ? ` (${transaction.lastErrorCode})` : '';
  return {
    path: meaning.path,
    pspReference: transaction.reference,
    message: `FedaPay: ${meaning.describe}${failed ? why : ''}.`,
    ...(failed ? { failureCode: failureFor(transaction.lastErrorCode, meaning.failureCode ?? 'operator_declined') } : {}),
  };
}

/** A payout in our terms. */
export function payoutAnswer(payout: FedaPayPayout): PayoutAnswer {
  const meaning = payoutStatuses[payout.status]!;
  const failed = meaning.status === 'FAILED';
  const why = payout.lastErrorMessage ?? payout.lastErrorCode;
  return {
    status: meaning.status,
    pspReference: payout.reference,
    message: `FedaPay: payout ${meaning.describe}${failed && why ? ` (${why})` : ''}.`,
    ...(failed ? { failureCode: failureFor(payout.lastErrorCode, meaning.failureCode ?? 'operator_declined') } : {}),
  };
}

export interface FedaPayError {
  message: string;
  /** Field -> messages, on a 4xx validation refusal. */
  errors?: Record<string, string[]>;
}

export function errorOf(body: unknown): FedaPayError | undefined {
  if (!isRecord(body) || typeof body['message'] !== 'string') return undefined;
  const errors = isRecord(body['errors']) ? (body['errors'] as Record<string, string[]>) : undefined;
  return { message: body['message'], ...(errors ? { errors } : {}) };
}

export function describeError(body: unknown): string {
  const error = errorOf(body);
  if (!error) return 'no reason given';
  const fields = error.errors ? Object.entries(error.errors).map(([field, messages]) => `${field}: ${[messages].flat().join(', ')}`) : [];
  return [error.message, ...fields].join('; ');
}

/** A create refused because our merchant_reference is already taken: the resource exists, find it by reference. */
export function isDuplicateReference(status: number, body: unknown): boolean {
  return (status === 400 || status === 409 || status === 422) && errorOf(body)?.errors?.['merchant_reference'] !== undefined;
}

export type FedaPayErrorKind = 'auth' | 'not_found' | 'refused' | 'unknown';

/** What an HTTP error from FedaPay means for the call that got it. */
export function classifyFedaPayError(status: number): FedaPayErrorKind {
  if (status === 401 || status === 403) return 'auth';
  if (status === 404) return 'not_found';
  if (status === 408 || status === 429 || status >= 500) return 'unknown';
  return status >= 400 ? 'refused' : 'unknown';
}
