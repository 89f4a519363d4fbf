/**
 * The fingerprint of a request for idempotency (PRODUCT.md "Idempotency"): SHA-256 over the method,
 * the route pattern, its path parameters and query, and the canonical JSON of the body. Canonical JSON sorts object keys at every
 * depth and keeps array order, so the same payload sent with its keys in another order has the same
 * fingerprint, while any change of a value, a key or an array order gives another one.
 */
import { createHash } from 'node:crypto';

/**
 * JSON text with the keys of every object sorted (by UTF-16 code units, as `Array.prototype.sort`),
 * no whitespace, and JSON.stringify's own rules otherwise: `toJSON` is honoured, members whose value
 * is undefined, a function or a symbol are left out (and become null inside arrays), non-finite
 * numbers become null. `undefined` at the top (no body) gives the empty string.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value, new Set()) ?? '';
}

function serialize(value: unknown, ancestors: Set<object>): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'bigint':
      throw new TypeError('canonicalJson: a BigInt has no JSON form');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  const object = value as object;
  if (ancestors.has(object)) throw new TypeError('canonicalJson: circular structure');
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      return `[${object.map((item: unknown) => serialize(item, ancestors) ?? 'null').join(',')}]`;
    }
    const record = object as Record<string, unknown>;
    const members: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const member = serialize(record[key], ancestors);
      if (member !== undefined) members.push(`${JSON.stringify(key)}:${member}`);
    }
    return `{${members.join(',')}}`;
  } finally {
    ancestors.delete(object);
  }
}

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
