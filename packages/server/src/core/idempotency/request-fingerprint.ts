/**
 * The fingerprint of a request for idempotency (docs/decisions.md): SHA-256 over the method,
 * the route pattern, its path parameters and query, and the canonical JSON of the body. Canonical JSON sorts object keys at every
 * depth and keeps array order, so the same payload sent with its keys in another order has the same
 * fingerprint, while any change of a value, a key or an array order gives another one.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../shared/canonical-json.js';

export { canonicalJson };

export interface FingerprintInput {
  /** HTTP method, e.g. `POST` (compared in upper case). */
  method: string;
  /** The route pattern (`/api/v1/collect/payments/:ref/confirm`), never the raw URL. */
  route: string;
  /** Path parameters of the pattern (`{ ref: 'R1' }`): one key must not stand for two targets. */
  params?: unknown;
  /** The parsed query string, when the route reads one. */
  query?: unknown;
  /** The parsed JSON body; undefined when the request has none. */
  body: unknown;
}

/**
 * Lower-case hex SHA-256 of `METHOD \n route \n params \n query \n body`, each part canonical JSON
 * (absent or empty params and query count as `{}`; no body is the empty string).
 */
export function requestFingerprint({ method, route, params, query, body }: FingerprintInput): string {
  const parts = [method.toUpperCase(), route, canonicalJson(params ?? {}), canonicalJson(query ?? {}), canonicalJson(body)];
  return createHash('sha256').update(parts.join('\n'), 'utf8').digest('hex');
}
