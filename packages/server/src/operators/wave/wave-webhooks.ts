/**
 * Wave's webhooks, signing-secret strategy: each POST carries `Wave-Signature: t=<unix seconds>,
 * v1=<hex>[,v1=<hex>…]`, where a v1 is the HMAC-SHA256 of the timestamp's digits followed directly
 * by the raw body (no separator), keyed with the webhook's secret. Several v1 values can come (one
 * per secret while Wave rolls it); one match is enough. The timestamp is signed too, so a captured
 * delivery cannot be replayed later than the tolerance (Wave asks for five minutes).
 *
 * A verified event still only says which of our resources to look at: like MTN's callbacks, it
 * never changes a state by itself; the connector asks Wave and the answer decides.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { looksLikeId } from '../../core/shared/ids.js';
import { WaveProtocolError } from './wave-responses.js';

export const WAVE_SIGNATURE_HEADER = 'wave-signature';
export const DEFAULT_WAVE_WEBHOOK_TOLERANCE_SECONDS = 300;

/** Event types Wave documents; only the checkout ones concern Akwe (Wave documents no payout event). */
export const waveEventTypes = [
  'checkout.session.completed',
  'checkout.session.payment_failed',
  'merchant.payment_received',
  'b2b.payment_received',
  'b2b.payment_failed',
  'test.test_event',
] as const;

export interface WaveEvent {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

export type WaveSignatureCheck = { ok: true } | { ok: false; reason: string };

const hexSignature = /^[0-9a-f]{64}$/i;

function asBuffer(rawBody: Buffer | string): Buffer {
  return typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
}

function hmac(rawBody: Buffer | string, secret: string, timestamp: string): Buffer {
  return createHmac('sha256', secret).update(timestamp, 'utf8').update(asBuffer(rawBody)).digest();
}

/** The header Wave would send for this body (tests and the mock), like stripe-node's generateTestHeaderString. */
export function signWaveWebhook(rawBody: Buffer | string, secret: string, timestampSeconds: number): string {
  const t = String(Math.floor(timestampSeconds));
  return `t=${t},v1=${hmac(rawBody, secret, t).toString('hex')}`;
}

/**
 * Checks a delivery against the webhook secret: the header must hold one `t` (whole seconds) and
 * at least one well-formed v1; one v1 must be the HMAC of `t` + raw body (compared in constant
 * time); and `t` must be within `toleranceSeconds` of now, either way. Elements other than t and v1
 * are ignored, as Wave may add versions.
 */
export function verifyWaveSignature(
  rawBody: Buffer | string,
  header: string | undefined,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = DEFAULT_WAVE_WEBHOOK_TOLERANCE_SECONDS,
): WaveSignatureCheck {
  if (header === undefined || header.trim() === '') return { ok: false, reason: 'no Wave-Signature header' };
  let timestamp: string | undefined;
  const signatures: Buffer[] = [];
  for (const element of header.split(',')) {
    const at = element.indexOf('=');
    if (at <= 0) return { ok: false, reason: 'garbled Wave-Signature header' };
    const key = element.slice(0, at).trim();
    const value = element.slice(at + 1).trim();
    if (key === 't') {
      if (timestamp !== undefined || !/^\d{1,12}$/.test(value)) return { ok: false, reason: 'garbled Wave-Signature timestamp' };
      timestamp = value;
    } else if (key === 'v1') {
      if (!hexSignature.test(value)) return { ok: false, reason: 'garbled Wave-Signature v1 value' };
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined) return { ok: false, reason: 'the Wave-Signature header has no timestamp' };
  if (signatures.length === 0) return { ok: false, reason: 'the Wave-Signature header has no v1 signature' };
  const expected = hmac(rawBody, secret, timestamp);
  // Every candidate is compared (no early exit), each in constant time over equal lengths.
  let matched = false;
  for (const signature of signatures) {
    if (signature.length === expected.length && timingSafeEqual(signature, expected)) matched = true;
  }
  if (!matched) return { ok: false, reason: 'no v1 signature matches the body' };
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return { ok: false, reason: `the signature timestamp is more than ${toleranceSeconds} s away from now` };
  return { ok: true };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An event body (raw bytes, text or parsed JSON): `{ id, type, data }`, or a WaveProtocolError. */
export function parseWaveEvent(body: unknown): WaveEvent {
  let parsed = body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      parsed = JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
    } catch {
      throw new WaveProtocolError('the webhook body is not JSON');
    }
  }
  if (!isRecord(parsed)) throw new WaveProtocolError('a webhook event must be a JSON object');
  const { id, type, data } = parsed;
  if (typeof id !== 'string' || id === '') throw new WaveProtocolError('the webhook event has no id');
  if (typeof type !== 'string' || type === '') throw new WaveProtocolError('the webhook event has no type');
  if (!isRecord(data)) throw new WaveProtocolError('the webhook event has no data object');
  return { id, type, data };
}

export interface WaveWebhookSubject {
  resource: 'payment' | 'payout';
  /** Our id, lower case. */
  id: string;
}

/**
 * Which of our resources an event is about: a checkout session event names our payment by its
 * `client_reference`. Wave documents no payout event today; should a `payout.*` one come, its
 * `client_reference` is our payout id. Anything else (other event families, a reference that is
 * not one of our ids) names nothing.
 */
export function waveWebhookSubject(event: WaveEvent): WaveWebhookSubject | undefined {
  const reference = event.data['client_reference'];
  if (typeof reference !== 'string' || !looksLikeId(reference)) return undefined;
  if (event.type.startsWith('checkout.session.')) return { resource: 'payment', id: reference.toLowerCase() };
  if (event.type.startsWith('payout.')) return { resource: 'payout', id: reference.toLowerCase() };
  return undefined;
}
