/**
 * Orange Money Web Payment's answers -> our outcomes, pure (tested from recorded fixtures). Every
 * status Orange names is mapped in one table; an answer this file cannot read is an
 * OrangeProtocolError: the outcome is unknown, and the core asks again later.
 */
import { createHash } from 'node:crypto';
import type { OperatorAnswer } from '../../core/operators/operator-connector.js';
import type { PaymentStatus } from '../../core/payments/payment.js';
import type { FailureCode } from '../../core/shared/failure-codes.js';

export class OrangeProtocolError extends Error {
  constructor(message: string) {
    super(`Orange Money: ${message}`);
    this.name = 'OrangeProtocolError';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseToken(body: unknown): { accessToken: string; expiresInSeconds: number } {
  if (!isRecord(body) || typeof body['access_token'] !== 'string' || body['access_token'] === '') throw new OrangeProtocolError('the token answer has no access_token');
  const expires = Number(body['expires_in']);
  return { accessToken: body['access_token'], expiresInSeconds: Number.isFinite(expires) && expires > 0 ? expires : 3600 };
}

export interface OrangeWebPayment {
  payToken: string;
  paymentUrl: string;
  notifToken: string;
}

/** The 201 of `webpayment`: where the customer pays, and the two tokens of this payment. */
export function parseWebPayment(body: unknown): OrangeWebPayment {
  if (!isRecord(body)) throw new OrangeProtocolError('the webpayment answer is not an object');
  const { pay_token: payToken, payment_url: paymentUrl, notif_token: notifToken } = body;
  if (typeof payToken !== 'string' || typeof paymentUrl !== 'string' || typeof notifToken !== 'string' || !payToken || !paymentUrl || !notifToken) {
    throw new OrangeProtocolError('the webpayment answer lacks pay_token, payment_url or notif_token');
  }
  return { payToken, paymentUrl, notifToken };
}

export const orangeStatuses = ['INITIATED', 'PENDING', 'EXPIRED', 'SUCCESS', 'FAILED'] as const;
export type OrangeStatus = (typeof orangeStatuses)[number];

/** Orange's payment statuses, in one table: our path and, when it fails, why. */
export const orangeStatusTable: Readonly<Record<OrangeStatus, { path: PaymentStatus[]; failureCode?: FailureCode }>> = {
  INITIATED: { path: ['processing'] },
  PENDING: { path: ['processing'] },
  SUCCESS: { path: ['processing', 'completed'] },
  FAILED: { path: ['processing', 'failed'], failureCode: 'payer_declined' },
  EXPIRED: { path: ['processing', 'failed'], failureCode: 'timeout' },
};

export function isOrangeStatus(value: unknown): value is OrangeStatus {
  return typeof value === 'string' && (orangeStatuses as readonly string[]).includes(value);
}

/** The answer of `transactionstatus`: `{ status, order_id, txnid }`, read into our outcome. */
export function statusAnswer(body: unknown, orderId: string): OperatorAnswer {
  if (!isRecord(body) || !isOrangeStatus(body['status']))
    throw new OrangeProtocolError(`the transaction status ${JSON.stringify(isRecord(body) ? body['status'] : body)} is not one Orange documents`);
  if (body['order_id'] !== undefined && body['order_id'] !== orderId) throw new OrangeProtocolError('the transaction status names another order');
  const row = orangeStatusTable[body['status']];
  const txnid = typeof body['txnid'] === 'string' && body['txnid'] !== '' ? body['txnid'] : undefined;
  return {
    path: row.path,
    ...(txnid ? { pspReference: txnid } : {}),
    ...(row.failureCode ? { failureCode: row.failureCode, message: `Orange Money: ${body['status']}.` } : {}),
  };
}

/** Orange's error body: `{ code, message, description }`. */
export function errorMessage(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const parts = [body['code'], body['message'], body['description']].filter((part) => typeof part === 'string' || typeof part === 'number');
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/**
 * Whether a refusal means Orange took nothing: any 4xx but 401 (the token, retried by the client),
 * 408 and 429 (nothing is known then). 5xx and unreadable answers are unknown outcomes.
 */
export function isRefusal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 401 && status !== 408 && status !== 429;
}

/** The notif_token is kept as its hash only: it authenticates Orange's notification. */
export function notifTokenHash(notifToken: string): string {
  return createHash('sha256').update(notifToken, 'utf8').digest('hex');
}
