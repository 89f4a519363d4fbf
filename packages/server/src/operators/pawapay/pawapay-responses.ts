/**
 * pawaPay answers, read as plain data (no network): the answer to a POST (ACCEPTED, REJECTED,
 * DUPLICATE_IGNORED), a status check (FOUND with the transaction, or NOT_FOUND), the callback body
 * (the same transaction shape), availability and wallet balances; and what each means in our terms.
 */
import type { OperatorAnswer, RefundAnswer } from '../../core/operators/operator-connector.js';
import type { PaymentStatus } from '../../core/payments/payment.js';
import type { PayoutAnswer } from '../../core/payouts/payout.js';
import { failureFor, pawapayTransactionStates, type InitiationStatus, type TransactionState } from './pawapay-statuses.js';

/** pawaPay answered something this connector cannot read: the outcome stays unknown. */
export class PawapayProtocolError extends Error {
  constructor(message: string) {
    super(`pawaPay: ${message}`);
    this.name = 'PawapayProtocolError';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export interface PawapayFailure {
  code?: string;
  message?: string;
}

function failureReason(body: Record<string, unknown>): PawapayFailure | undefined {
  const reason = body['failureReason'];
  if (!isRecord(reason)) return undefined;
  const code = text(reason['failureCode']);
  const message = text(reason['failureMessage']);
  return { ...(code ? { code } : {}), ...(message ? { message } : {}) };
}

/** The failure code of any pawaPay body that carries one (a refusal, an error), if it has one. */
export function failureCodeOf(body: unknown): string | undefined {
  return isRecord(body) ? failureReason(body)?.code : undefined;
}

export interface PawapayInitiation {
  status: InitiationStatus;
  failure?: PawapayFailure;
}

/** The answer to POST /v2/deposits, /payouts or /refunds; another status is a protocol error. */
export function parseInitiation(body: unknown): PawapayInitiation {
  if (!isRecord(body)) throw new PawapayProtocolError('an initiation answer must be a JSON object');
  const status = body['status'];
  if (status !== 'ACCEPTED' && status !== 'REJECTED' && status !== 'DUPLICATE_IGNORED') {
    throw new PawapayProtocolError(`unknown initiation status ${JSON.stringify(status)}`);
  }
  const failure = failureReason(body);
  return { status, ...(failure ? { failure } : {}) };
}

/** A deposit, payout or refund as pawaPay reports it (status check data, or a callback body). */
export interface PawapayTransaction {
  /** Our id: depositId, payoutId or refundId. */
  id: string;
  status: string;
  state: TransactionState;
  providerTransactionId?: string;
  failure?: PawapayFailure;
}

const idFields = ['depositId', 'payoutId', 'refundId'] as const;

/** A transaction body; one without our id or with a status pawaPay does not document is a protocol error. */
export function parseTransaction(body: unknown): PawapayTransaction {
  if (!isRecord(body)) throw new PawapayProtocolError('a transaction must be a JSON object');
  const id = idFields.map((field) => text(body[field])).find((value) => value !== undefined);
  if (!id) throw new PawapayProtocolError('the transaction names no depositId, payoutId or refundId');
  const status = text(body['status']);
  const state = status === undefined ? undefined : pawapayTransactionStates[status];
  if (!status || !state) throw new PawapayProtocolError(`unknown transaction status ${JSON.stringify(body['status'])}`);
  const providerTransactionId = text(body['providerTransactionId']);
  const failure = state === 'failed' ? failureReason(body) : undefined;
  return { id, status, state, ...(providerTransactionId ? { providerTransactionId } : {}), ...(failure ? { failure } : {}) };
}

/** GET /v2/{kind}/{id}: the transaction, or undefined when pawaPay never received our id (NOT_FOUND). */
export function parseStatusCheck(body: unknown): PawapayTransaction | undefined {
  if (!isRecord(body)) throw new PawapayProtocolError('a status check answer must be a JSON object');
  if (body['status'] === 'NOT_FOUND') return undefined;
  if (body['status'] !== 'FOUND') throw new PawapayProtocolError(`unknown status check answer ${JSON.stringify(body['status'])}`);
  return parseTransaction(body['data']);
}

function describe(failure: PawapayFailure | undefined, fallback: string): string {
  if (!failure) return fallback;
  return `${failure.code ?? fallback}${failure.message ? ` (${failure.message})` : ''}`;
}

const pushSent = 'pawaPay: the request is on the customer’s phone; waiting for approval.';

/**
 * A deposit's state. A pushed deposit is `processing` while it moves; a pre-authorised one (the
 * customer's code, after `awaiting_otp`) is `pending`, the step the state machine allows from there.
 */
export function depositAnswer(tx: PawapayTransaction, options: { preAuthorised?: boolean } = {}): OperatorAnswer {
  const moving: PaymentStatus[] = options.preAuthorised ? ['awaiting_otp', 'pending'] : ['processing'];
  const psp = tx.providerTransactionId ? { pspReference: tx.providerTransactionId } : {};
  switch (tx.state) {
    case 'moving':
      return { path: moving, message: options.preAuthorised ? 'pawaPay: the code was taken; the payment is being processed.' : pushSent };
    case 'completed':
      return { path: [...moving, 'completed'], message: 'pawaPay: the customer paid.', ...psp };
    case 'failed':
      return { path: [...moving, 'failed'], message: `pawaPay: ${describe(tx.failure, 'FAILED')}`, failureCode: failureFor(tx.failure?.code, options), ...psp };
  }
}

/** A deposit pawaPay accepted: on its way (the status check tells the rest). */
export function depositAccepted(options: { preAuthorised?: boolean } = {}): OperatorAnswer {
  return depositAnswer({ id: '', status: 'ACCEPTED', state: 'moving' }, options);
}

/** A deposit pawaPay rejected outright: nothing was charged. */
export function depositRejected(failure: PawapayFailure | undefined, options: { preAuthorised?: boolean } = {}): OperatorAnswer {
  return { path: ['failed'], message: `pawaPay rejected the deposit: ${describe(failure, 'no reason given')}`, failureCode: failureFor(failure?.code, options) };
}

export function payoutAnswer(tx: PawapayTransaction): PayoutAnswer {
  const psp = tx.providerTransactionId ? { pspReference: tx.providerTransactionId } : {};
  switch (tx.state) {
    case 'moving':
      return { status: 'PROCESSING', message: `pawaPay: payout ${tx.status.toLowerCase()}.` };
    case 'completed':
      return { status: 'COMPLETED', message: 'pawaPay: the money reached the wallet.', ...psp };
    case 'failed':
      return { status: 'FAILED', message: `pawaPay: ${describe(tx.failure, 'FAILED')}`, failureCode: failureFor(tx.failure?.code), ...psp };
  }
}

export function payoutRejected(failure: PawapayFailure | undefined): PayoutAnswer {
  return { status: 'FAILED', message: `pawaPay rejected the payout: ${describe(failure, 'no reason given')}`, failureCode: failureFor(failure?.code) };
}

export function refundAnswer(tx: PawapayTransaction): RefundAnswer {
  switch (tx.state) {
    case 'moving':
      return { status: 'pending' };
    case 'completed':
      return { status: 'completed', ...(tx.providerTransactionId ? { pspReference: tx.providerTransactionId } : {}) };
    case 'failed':
      return { status: 'failed', message: `pawaPay: ${describe(tx.failure, 'FAILED')}` };
  }
}

export function refundRejected(failure: PawapayFailure | undefined): RefundAnswer {
  return { status: 'failed', message: `pawaPay rejected the refund: ${describe(failure, 'no reason given')}` };
}

/** pawaPay's word on one provider's flows: OPERATIONAL, DELAYED or CLOSED per operation type. */
export type ProviderFlows = Partial<Record<'DEPOSIT' | 'PAYOUT' | 'REFUND', string>>;

/** GET /v2/availability: the flows of `provider`, or undefined when the answer does not list it. */
export function parseAvailability(body: unknown, provider: string): ProviderFlows | undefined {
  if (!Array.isArray(body)) throw new PawapayProtocolError('the availability answer must be a list of countries');
  for (const country of body) {
    if (!isRecord(country) || !Array.isArray(country['providers'])) continue;
    for (const entry of country['providers']) {
      if (!isRecord(entry) || entry['provider'] !== provider || !Array.isArray(entry['operationTypes'])) continue;
      const flows: ProviderFlows = {};
      for (const op of entry['operationTypes']) {
        if (!isRecord(op)) continue;
        const type = op['operationType'];
        const status = text(op['status']);
        if ((type === 'DEPOSIT' || type === 'PAYOUT' || type === 'REFUND') && status) flows[type] = status;
      }
      return flows;
    }
  }
  return undefined;
}

/** GET /v2/wallet-balances: each wallet's balance (major units as pawaPay writes it) and currency. */
export function parseWalletBalances(body: unknown): Array<{ country: string; balance: string; currency: string }> {
  if (!isRecord(body) || !Array.isArray(body['balances'])) throw new PawapayProtocolError('the wallet balances answer has no balances list');
  return body['balances']
    .filter(isRecord)
    .map((entry) => ({ country: String(entry['country'] ?? ''), balance: String(entry['balance'] ?? '?'), currency: String(entry['currency'] ?? '') }));
}
