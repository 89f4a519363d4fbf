/**
 * Webhook signatures (docs/webhooks.md), checked with WebCrypto only.
 *
 * Current contract: `X-Service-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]`, each v1 the hex
 * HMAC-SHA256, keyed with the endpoint secret (the whole `whsec_…` text), of `<t>.<raw body>`; two
 * v1 during a secret rotation, and any one matching is enough. `t` must be within the tolerance.
 *
 * Earlier contract (endpoints with `api_version: "legacy"`): the header is the base64 HMAC-SHA256
 * of the body alone. It carries no timestamp, so no replay window can be checked: deduplicate on
 * the event id.
 */
import type { LegacyWebhookEvent, WebhookEvent } from './api-types.js';
import { SignatureVerificationError } from './errors.js';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const DEFAULT_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();
const HEX_SHA256 = /^[0-9a-fA-F]{64}$/;
const TIMESTAMP = /^[0-9]{1,15}$/;
const BASE64_SHA256 = /^[A-Za-z0-9+/]{43}=$/;

type Parsed = { kind: 'current'; timestampText: string; signatures: Uint8Array[] } | { kind: 'legacy'; signature: Uint8Array };

function fail(code: string, message: string): never {
  throw new SignatureVerificationError({ message, code });
}

function hexToBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function bytesToHex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function base64ToBytes(text: string): Uint8Array {
  return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
}

function bytesToBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

/** Compares every byte whatever the first difference, so the time taken tells nothing about where it is. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a[i]! ^ b[i]!;
  return difference === 0;
}

function parseHeader(header: string | null | undefined): Parsed {
  const text = (header ?? '').trim();
  if (text === '') fail('malformed_header', `No ${SIGNATURE_HEADER} header`);
  if (BASE64_SHA256.test(text)) return { kind: 'legacy', signature: base64ToBytes(text) };
  let timestampText: string | undefined;
  const signatures: Uint8Array[] = [];
  for (const rawPart of text.split(',')) {
    const part = rawPart.trim();
    const eq = part.indexOf('=');
    if (eq <= 0) fail('malformed_header', `${SIGNATURE_HEADER} is not t=<seconds>,v1=<hex>`);
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (timestampText !== undefined || !TIMESTAMP.test(value)) fail('malformed_header', `${SIGNATURE_HEADER} has a bad or repeated t`);
      timestampText = value;
    } else if (key === 'v1') {
      if (!HEX_SHA256.test(value)) fail('malformed_header', `${SIGNATURE_HEADER} has a v1 that is not 64 hex digits`);
      signatures.push(hexToBytes(value));
    }
    // Other keys (a future v2) are ignored.
  }
  if (timestampText === undefined) fail('malformed_header', `${SIGNATURE_HEADER} has no t`);
  if (signatures.length === 0) fail('no_signature', `${SIGNATURE_HEADER} has no v1 signature`);
  return { kind: 'current', timestampText, signatures };
}

function bodyBytes(rawBody: string | Uint8Array): Uint8Array {
  if (typeof rawBody === 'string') return encoder.encode(rawBody);
  if (rawBody instanceof Uint8Array) return rawBody;
  // A parsed object cannot be checked: its re-serialisation differs from the bytes that were signed.
  return fail('invalid_body', 'Pass the raw body (string or bytes) exactly as received, before JSON parsing');
}

async function hmacSha256(secret: string, message: Uint8Array): Promise<Uint8Array> {
  const key = await globalThis.crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  // A copy on a plain ArrayBuffer: WebCrypto refuses views of a SharedArrayBuffer.
  return new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, new Uint8Array(message)));
}

function signedText(timestampText: string, body: Uint8Array): Uint8Array {
  const prefix = encoder.encode(`${timestampText}.`);
  const message = new Uint8Array(prefix.length + body.length);
  message.set(prefix);
  message.set(body, prefix.length);
  return message;
}

/**
 * Checks a delivery's signature and answers its event. Throws SignatureVerificationError with
 * `code` `malformed_header`, `no_signature`, `signature_mismatch`, `timestamp_outside_tolerance`
 * or `invalid_body`. Accepts both contracts' headers (see the top of this file).
 */
export async function constructEvent<E = WebhookEvent>(
  rawBody: string | Uint8Array,
  signatureHeader: string | null | undefined,
  secret: string,
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
): Promise<E> {
  if (typeof secret !== 'string' || secret === '') fail('missing_secret', 'The endpoint secret (whsec_…) is needed to check a webhook');
  const body = bodyBytes(rawBody);
  const parsed = parseHeader(signatureHeader);
  if (parsed.kind === 'legacy') {
    if (!constantTimeEqual(await hmacSha256(secret, body), parsed.signature)) fail('signature_mismatch', 'No signature matches this body and secret');
  } else {
    const expected = await hmacSha256(secret, signedText(parsed.timestampText, body));
    // Every v1 is compared (no early exit), so the time does not tell which one matched.
    let matched = false;
    for (const signature of parsed.signatures) matched = constantTimeEqual(signature, expected) || matched;
    if (!matched) fail('signature_mismatch', 'No signature matches this body and secret');
    const age = Math.abs(Math.floor(Date.now() / 1000) - Number(parsed.timestampText));
    if (age > toleranceSeconds) fail('timestamp_outside_tolerance', `The signature is ${age} s away from this clock (tolerance ${toleranceSeconds} s)`);
  }
  try {
    return JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(body)) as E;
  } catch {
    return fail('invalid_body', 'The signed body is not JSON');
  }
}

export interface TestHeaderOptions {
  /** The body exactly as your endpoint will receive it; an object is sent as JSON.stringify(payload). */
  payload: string | Uint8Array | object;
  secret: string;
  /** Unix seconds (default now); an old one tests that your endpoint refuses replays. */
  timestamp?: number;
  /** `legacy` signs as the earlier contract does (base64 over the body). */
  scheme?: 'current' | 'legacy';
}

/** A valid X-Service-Signature for a body, so your tests can call your endpoint as Akwe would. */
export async function generateTestHeader({ payload, secret, timestamp = Math.floor(Date.now() / 1000), scheme = 'current' }: TestHeaderOptions): Promise<string> {
  const body = typeof payload === 'string' || payload instanceof Uint8Array ? bodyBytes(payload) : encoder.encode(JSON.stringify(payload));
  if (scheme === 'legacy') return bytesToBase64(await hmacSha256(secret, body));
  if (!Number.isSafeInteger(timestamp) || timestamp < 0) throw new RangeError(`timestamp must be whole Unix seconds, got ${timestamp}`);
  const t = String(timestamp);
  return `t=${t},v1=${bytesToHex(await hmacSha256(secret, signedText(t, body)))}`;
}

export const webhooks = { constructEvent, generateTestHeader, SIGNATURE_HEADER, DEFAULT_TOLERANCE_SECONDS } as const;
export type { LegacyWebhookEvent, WebhookEvent };
