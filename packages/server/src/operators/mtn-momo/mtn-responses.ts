/**
 * MTN MoMo answers, read as plain data (no network): a transaction's status body (the same shape
 * in a status query and in a callback), error bodies, and what each means in our terms.
 */
import type { OperatorAnswer, RefundAnswer } from '../../core/operators/operator-connector.js';
import type { PayoutAnswer } from '../../core/payouts/payout.js';
import type { FailureCode } from '../../core/shared/failure-codes.js';

export type MtnStatus = 'PENDING' | 'SUCCESSFUL' | 'FAILED';

/** A transaction as MTN reports it; `reason` only when it failed. */
export interface MtnTransaction {
  status: MtnStatus;
  reason?: string;
  financialTransactionId?: string;
  externalId?: string;
}

/** MTN answered something this connector cannot read: the outcome stays unknown. */
export class MtnProtocolError extends Error {
  constructor(message: string) {
    super(`MTN MoMo: ${message}`);
    this.name = 'MtnProtocolError';
  }
}

// Statuses MTN documents, and two some deployments send for a failed approval.
const statusAliases: Record<string, { status: MtnStatus; reason?: string }> = {
  PENDING: { status: 'PENDING' },
  ONGOING: { status: 'PENDING' },
  SUCCESSFUL: { status: 'SUCCESSFUL' },
  FAILED: { status: 'FAILED' },
  REJECTED: { status: 'FAILED', reason: 'APPROVAL_REJECTED' },
  TIMEOUT: { status: 'FAILED', reason: 'EXPIRED' },
};

/** MTN's ErrorReason codes -> our failure codes (docs/operators.md lists the table). */
export const mtnReasons: Readonly<Record<string, FailureCode>> = {
  PAYER_NOT_FOUND: 'payer_not_found',
  PAYEE_NOT_FOUND: 'payer_not_found',
  NOT_ENOUGH_FUNDS: 'insufficient_funds',
  PAYER_LIMIT_REACHED: 'payer_limit_reached',
  PAYEE_NOT_ALLOWED_TO_RECEIVE: 'payer_limit_reached',
  LOW_BALANCE_OR_PAYEE_LIMIT_REACHED_OR_NOT_ALLOWED: 'payer_limit_reached',
  APPROVAL_REJECTED: 'payer_declined',
  PAYMENT_NOT_APPROVED: 'payer_declined',
  TRANSACTION_CANCELED: 'payer_declined',
  EXPIRED: 'timeout',
  SERVICE_UNAVAILABLE: 'operator_unavailable',
  INTERNAL_PROCESSING_ERROR: 'operator_unavailable',
  NOT_ALLOWED: 'operator_declined',
  INVALID_CURRENCY: 'operator_declined',
  COULD_NOT_PERFORM_TRANSACTION: 'operator_declined',
};

export function failureFor(reason: string | undefined): FailureCode {
  return (reason !== undefined && mtnReasons[reason]) || 'operator_declined';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `reason` is a code string in some answers and `{ code, message }` in others. */
function reasonCode(raw: unknown): string | undefined {
  if (typeof raw === 'string' && raw !== '') return raw;
  if (isRecord(raw) && typeof raw['code'] === 'string') return raw['code'];
  return undefined;
}

/** A status body (status query or callback); a body without a known status is a protocol error. */
export function parseTransaction(body: unknown): MtnTransaction {
  if (!isRecord(body)) throw new MtnProtocolError('a transaction body must be a JSON object');
  const known = typeof body['status'] === 'string' ? statusAliases[body['status'].toUpperCase()] : undefined;
  if (!known) throw new MtnProtocolError(`unknown transaction status ${JSON.stringify(body['status'])}`);
  const reason = reasonCode(body['reason']) ?? known.reason;
  const financialTransactionId = typeof body['financialTransactionId'] === 'string' && body['financialTransactionId'] !== '' ? body['financialTransactionId'] : undefined;
  const externalId = typeof body['externalId'] === 'string' ? body['externalId'] : undefined;
  return {
    status: known.status,
    ...(reason && known.status === 'FAILED' ? { reason } : {}),
    ...(financialTransactionId ? { financialTransactionId } : {}),
    ...(externalId ? { externalId } : {}),
  };
}

/** The `code` of an MTN error body (`{ code, message }`), if it has one. */
export function errorCode(body: unknown): string | undefined {
  return isRecord(body) && typeof body['code'] === 'string' ? body['code'] : undefined;
}

export function errorMessage(body: unknown): string | undefined {
  return isRecord(body) && typeof body['message'] === 'string' ? body['message'] : undefined;
}

const pushSent = 'MTN MoMo: push sent; waiting for the customer to approve on the phone.';

/** A collection's state: the push was sent (processing), then approved or not. */
export function collectionAnswer(tx: MtnTransaction): OperatorAnswer {
  const psp = tx.financialTransactionId ? { pspReference: tx.financialTransactionId } : {};
  switch (tx.status) {
    case 'PENDING':
      return { path: ['processing'], message: pushSent };
    case 'SUCCESSFUL':
      return { path: ['processing', 'completed'], message: 'MTN MoMo: the customer approved the payment.', ...psp };
    case 'FAILED':
      return { path: ['processing', 'failed'], message: `MTN MoMo: ${tx.reason ?? 'FAILED'}`, failureCode: failureFor(tx.reason), ...psp };
  }
}

/** The answer to a request-to-pay MTN accepted (202): the push is on its way. */
export const collectionAccepted: OperatorAnswer = { path: ['processing'], message: pushSent };

/** A request MTN refused outright (4xx with a reason): nothing was charged. */
export function collectionRefused(body: unknown): OperatorAnswer {
  const code = errorCode(body);
  return {
    path: ['failed'],
    message: `MTN MoMo refused the request: ${code ?? 'no reason given'}${errorMessage(body) ? ` (${errorMessage(body)})` : ''}`,
    failureCode: failureFor(code),
  };
}

export function payoutAnswer(tx: MtnTransaction): PayoutAnswer {
  const psp = tx.financialTransactionId ? { pspReference: tx.financialTransactionId } : {};
  switch (tx.status) {
    case 'PENDING':
      return { status: 'PROCESSING', message: 'MTN MoMo: transfer in progress.' };
    case 'SUCCESSFUL':
      return { status: 'COMPLETED', message: 'MTN MoMo: the money reached the wallet.', ...psp };
    case 'FAILED':
      return { status: 'FAILED', message: `MTN MoMo: ${tx.reason ?? 'FAILED'}`, failureCode: failureFor(tx.reason), ...psp };
  }
}

export function payoutRefused(body: unknown): PayoutAnswer {
  const code = errorCode(body);
  return { status: 'FAILED', message: `MTN MoMo refused the transfer: ${code ?? 'no reason given'}`, failureCode: failureFor(code) };
}

export function refundAnswer(tx: MtnTransaction): RefundAnswer {
  const psp = tx.financialTransactionId ? { pspReference: tx.financialTransactionId } : {};
  switch (tx.status) {
    case 'PENDING':
      return { status: 'pending' };
    case 'SUCCESSFUL':
      return { status: 'completed', ...psp };
    case 'FAILED':
      return { status: 'failed', message: `MTN MoMo: ${tx.reason ?? 'FAILED'}` };
  }
}

export function refundRefused(body: unknown): RefundAnswer {
  return { status: 'failed', message: `MTN MoMo refused the refund: ${errorCode(body) ?? 'no reason given'}` };
}

/** The token endpoint's answer: the bearer token and how long it lives (seconds). */
export function parseToken(body: unknown): { accessToken: string; expiresInSeconds: number } {
  if (!isRecord(body) || typeof body['access_token'] !== 'string' || body['access_token'] === '') throw new MtnProtocolError('the token answer has no access_token');
  const expires = Number(body['expires_in']);
  if (!Number.isFinite(expires) || expires <= 0) throw new MtnProtocolError('the token answer has no positive expires_in');
  return { accessToken: body['access_token'], expiresInSeconds: expires };
}
