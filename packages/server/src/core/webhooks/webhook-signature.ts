/**
 * Webhook signatures (docs/webhooks.md).
 *
 * Current contract: `X-Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]`, where each v1 is
 * the hex HMAC-SHA256, keyed with one endpoint secret (the whole `whsec_…` text, UTF-8), of the
 * text `<t>.<raw body>`. During a secret rotation both secrets sign, so the header carries two v1.
 *
 * Earlier contract: a base64 HMAC-SHA256 over the key-sorted JSON body.
 *
 * Pure functions: no I/O, no clock except the `now` default of verification.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from '../shared/canonical-json.js';

export const SIGNATURE_HEADER = 'X-Service-Signature';
/** Every delivery names its event: receivers deduplicate on it (delivery is at least once). */
export const EVENT_ID_HEADER = 'X-Service-Event-Id';
export const DEFAULT_TOLERANCE_SECONDS = 300;

const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
/** Unix seconds as digits; 15 digits keep the value a safe integer. */
const TIMESTAMP = /^[0-9]{1,15}$/;

function hmacHex(secret: string, timestampText: string, rawBody: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestampText}.${rawBody}`, 'utf8').digest('hex');
}

/**
 * `t=<unix seconds>,v1=<hex>[,v1=<hex>…]`: one v1 per secret (two during a rotation overlap).
 * v1 = hex HMAC-SHA256(secret, `${t}.${rawBody}`). Throws on an empty secret list or a timestamp
 * that is not a non-negative integer (programming errors, never data errors).
 */
export function signatureHeader(rawBody: string, secrets: readonly string[], timestampSeconds: number): string {
  if (secrets.length === 0) throw new Error('signatureHeader: at least one secret is needed');
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new Error(`signatureHeader: timestamp must be a non-negative integer of seconds, got ${timestampSeconds}`);
  }
  const t = String(timestampSeconds);
  return [`t=${t}`, ...secrets.map((secret) => `v1=${hmacHex(secret, t, rawBody)}`)].join(',');
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: 'malformed_header' | 'no_signature' | 'timestamp_outside_tolerance' | 'signature_mismatch' };

type ParsedHeader = { timestampText: string; signatures: string[] } | 'malformed_header';

/**
 * Comma-separated `key=value` parts, blanks around parts ignored. Exactly one `t` (digits); every
 * `v1` must be 64 hex digits; other keys (a future `v2`) are ignored.
 */
function parseHeader(header: string): ParsedHeader {
  if (typeof header !== 'string' || header.trim() === '') return 'malformed_header';
  let timestampText: string | undefined;
  const signatures: string[] = [];
  for (const rawPart of header.split(',')) {
    const part = rawPart.trim();
    const eq = part.indexOf('=');
    if (eq <= 0) return 'malformed_header';
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestampText !== undefined || !TIMESTAMP.test(value)) return 'malformed_header';
      timestampText = value;
    } else if (key === 'v1') {
      if (!HEX_SHA256.test(value)) return 'malformed_header';
      signatures.push(value);
    }
  }
  if (timestampText === undefined) return 'malformed_header';
  return { timestampText, signatures };
}

/**
 * Verifies a current-contract header against the raw body and one secret. Accepts when ANY v1
 * matches (compared in constant time: crypto.timingSafeEqual on equal-length buffers), then
 * rejects when |now - t| > tolerance. Never throws on bad input: it answers a reason.
 */
export function verifySignature(rawBody: string, header: string, secret: string, options: { toleranceSeconds?: number; nowSeconds?: number } = {}): VerifyResult {
  const parsed = parseHeader(header);
  if (parsed === 'malformed_header') return { ok: false, reason: 'malformed_header' };
  if (parsed.signatures.length === 0) return { ok: false, reason: 'no_signature' };

  // The signed text uses t exactly as it appears in the header.
  const expected = Buffer.from(hmacHex(secret, parsed.timestampText, rawBody), 'hex');
  let matched = false;
  for (const signature of parsed.signatures) {
    const candidate = Buffer.from(signature, 'hex');
    // Both are 32 bytes (the parser only lets 64 hex digits through); the check keeps timingSafeEqual from throwing.
    if (candidate.length === expected.length && timingSafeEqual(candidate, expected)) matched = true;
  }
  if (!matched) return { ok: false, reason: 'signature_mismatch' };

  const timestamp = Number(parsed.timestampText);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > tolerance) return { ok: false, reason: 'timestamp_outside_tolerance' };
  return { ok: true, timestamp };
}

/** For merchants' and our own tests: a valid header for a body and secret (timestamp defaults to now). */
export function generateTestHeader(rawBody: string, secret: string, timestampSeconds: number = Math.floor(Date.now() / 1000)): string {
  return signatureHeader(rawBody, [secret], timestampSeconds);
}

/** Earlier contract: base64 HMAC-SHA256 over the key-sorted JSON body (the text as sent, see sortedJson). */
export function legacySignature(sortedJsonBody: string, secret: string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(sortedJsonBody, 'utf8').digest('base64');
}

/** Key-sorted JSON (see canonical-json.ts); a top-level value with no JSON form gives `null`. */
export function sortedJson(value: unknown): string {
  return canonicalJson(value) || 'null';
}
