/**
 * FedaPay's webhooks: each POST carries `X-FEDAPAY-SIGNATURE: t=<unix seconds>,s=<hex>`, where `s`
 * is the HMAC-SHA256 of `<t>.<raw body>` keyed with the endpoint's signing secret (the scheme
 * FedaPay's own libraries check). One configured secret matching is enough (several endpoints, or
 * one being replaced). The timestamp is signed too, so a captured delivery cannot be replayed
 * beyond the tolerance (five minutes, either way).
 *
 * A verified event still only names which of our resources to look at: the connector then reads
 * FedaPay's status, and only that answer changes a state.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { looksLikeId } from '../../core/shared/ids.js';
import { FedaPayProtocolError } from './fedapay-responses.js';

export const FEDAPAY_SIGNATURE_HEADER = 'x-fedapay-signature';
export const DEFAULT_FEDAPAY_WEBHOOK_TOLERANCE_SECONDS = 300;

export interface FedaPayEvent {
  /** e.g. transaction.approved, payout.sent */
  name: string;
  entity: Record<string, unknown>;
}

export type FedaPaySignatureCheck = { ok: true } | { ok: false; reason: string };

const hexSignature = /^[0-9a-f]{64}$/i;

function hmac(rawBody: Buffer | string, secret: string, timestamp: string): Buffer {
  return createHmac('sha256', secret)
    .update(`${timestamp}.`, 'utf8')
    .update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
    .digest();
}

/** The header FedaPay would send for this body (the mock and tests). */
export function signFedaPayWebhook(rawBody: Buffer | string, secret: string, timestampSeconds: number): string {
  const t = String(Math.floor(timestampSeconds));
  return `t=${t},s=${hmac(rawBody, secret, t).toString('hex')}`;
}

/**
 * Checks a delivery against the endpoint secrets: one `t` (whole seconds), at least one well-formed
 * `s`; one `s` must be the HMAC of `t.` + raw body under one secret (every pair compared, each in
 * constant time); and `t` within the tolerance of now.
 */
export function verifyFedaPaySignature(
  rawBody: Buffer | string,
  header: string | undefined,
  secrets: readonly string[],
  nowSeconds: number,
  toleranceSeconds = DEFAULT_FEDAPAY_WEBHOOK_TOLERANCE_SECONDS,
): FedaPaySignatureCheck {
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'no X-FEDAPAY-SIGNATURE header' };
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const element of header.split(',')) {
    const at = element.indexOf('=');
    if (at <= 0) return { ok: false, reason: 'garbled X-FEDAPAY-SIGNATURE header' };
    const key = element.slice(0, at).trim();
    const value = element.slice(at + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return { ok: false, reason: 'garbled signature timestamp' };
      timestamp = value;
    } else if (key === 's') {
      if (!hexSignature.test(value)) return { ok: false, reason: 'garbled signature value' };
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined) return { ok: false, reason: 'the signature has no timestamp' };
  if (signatures.length === 0) return { ok: false, reason: 'the signature has no s= value' };
  let matched = false;
  for (const secret of secrets) {
    if (secret === '') continue;
    const expected = hmac(rawBody, secret, timestamp);
    for (const signature of signatures) {
      if (signature.length === expected.length && timingSafeEqual(signature, expected)) matched = true;
    }
  }
  if (!matched) return { ok: false, reason: 'no signature matches the body' };
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return { ok: false, reason: `the signature timestamp is more than ${toleranceSeconds} s away from now` };
  return { ok: true };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An event body: `{ name, entity, … }`, or a FedaPayProtocolError. */
export function parseFedaPayEvent(body: unknown): FedaPayEvent {
  if (!isRecord(body)) throw new FedaPayProtocolError('a webhook event must be a JSON object');
  const { name, entity } = body;
  if (typeof name !== 'string' || name === '') throw new FedaPayProtocolError('the webhook event has no name');
  if (!isRecord(entity)) throw new FedaPayProtocolError('the webhook event has no entity object');
  return { name, entity };
}

export interface FedaPayWebhookSubject {
  resource: 'payment' | 'payout';
  /** Our id, lower case. */
  id: string;
}

/**
 * Which of our resources an event is about: a `transaction.*` event names our payment, a
 * `payout.*` one our payout, by the entity's `merchant_reference`. Anything else names nothing.
 */
export function fedaPayWebhookSubject(event: FedaPayEvent): FedaPayWebhookSubject | undefined {
  const reference = event.entity['merchant_reference'];
  if (typeof reference !== 'string' || !looksLikeId(reference)) return undefined;
  if (event.name.startsWith('transaction.')) return { resource: 'payment', id: reference.toLowerCase() };
  if (event.name.startsWith('payout.')) return { resource: 'payout', id: reference.toLowerCase() };
  return undefined;
}
