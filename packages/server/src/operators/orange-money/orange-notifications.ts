/**
 * Orange's notification to our `notif_url`: `{ status, notif_token, txnid }`, posted once the
 * customer paid or failed. It is authenticated by the payment's notif_token (given to us alone in
 * the webpayment answer; we keep its hash), compared in constant time; even then it is only a
 * hint, and Orange's transactionstatus decides what changes.
 */
import { timingSafeEqual } from 'node:crypto';
import { isOrangeStatus, notifTokenHash, type OrangeStatus } from './orange-responses.js';

export interface OrangeNotification {
  status: OrangeStatus;
  notifToken: string;
  txnid?: string;
}

/** The notification read from its body, or why it is not Orange's shape. */
export function readOrangeNotification(body: unknown): OrangeNotification | { invalid: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { invalid: 'the body is not a JSON object' };
  const record = body as Record<string, unknown>;
  if (!isOrangeStatus(record['status'])) return { invalid: 'status is not an Orange Money status' };
  if (typeof record['notif_token'] !== 'string' || record['notif_token'] === '') return { invalid: 'notif_token is missing' };
  return { status: record['status'], notifToken: record['notif_token'], ...(typeof record['txnid'] === 'string' ? { txnid: record['txnid'] } : {}) };
}

/** Whether the notification carries the notif_token Orange gave for this payment (its hash as kept). */
export function notificationMatches(notification: OrangeNotification, keptHash: string | undefined): boolean {
  if (!keptHash) return false;
  const given = Buffer.from(notifTokenHash(notification.notifToken), 'hex');
  const kept = Buffer.from(keptHash, 'hex');
  return given.length === kept.length && timingSafeEqual(given, kept);
}
