/**
 * pawaPay's signed callbacks (RFC 9421 HTTP message signatures, with an RFC 9530 Content-Digest),
 * when the merchant turns them on in pawaPay's Dashboard. A signed callback carries:
 *   Content-Digest: sha-512=:<base64 of the body's digest>:   (sha-256 also allowed)
 *   Signature-Date: <when>
 *   Signature-Input: sig-pp=("@method" "@authority" "@path" "signature-date" "content-digest" "content-type");alg="ecdsa-p256-sha256";keyid="…";created=…;expires=…
 *   Signature: sig-pp=:<base64 signature>:
 * The signature covers the signature base (each covered component on a line, then
 * "@signature-params"), and the digest covers the raw body: together they prove pawaPay sent this
 * body to this URL. The key is pawaPay's public key (`GET /v2/public-key/http`, pinned in the
 * operators file). Written from the RFCs; ECDSA signatures are accepted DER-encoded (as pawaPay's
 * own example makes them) or raw r||s (as RFC 9421 writes them).
 */
import { createHash, createPublicKey, sign as signData, verify as verifyData, type KeyObject } from 'node:crypto';

export interface SignedRequest {
  method: string;
  /** The Host the request was sent to (`@authority`). */
  authority: string;
  /** The path, without the query (`@path`). */
  path: string;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
}

export type SignatureCheck = { ok: true; keyId?: string } | { ok: false; reason: string };

const algorithms: Record<string, { hash: string; pss?: boolean }> = {
  'ecdsa-p256-sha256': { hash: 'sha256' },
  'ecdsa-p384-sha384': { hash: 'sha384' },
  'rsa-v1_5-sha256': { hash: 'sha256' },
  'rsa-pss-sha512': { hash: 'sha512', pss: true },
};

const digestAlgorithms: Record<string, string> = { 'sha-512': 'sha512', 'sha-256': 'sha256' };

function header(headers: SignedRequest['headers'], name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** `sha-512=:…:` for a body, as Content-Digest writes it. */
export function contentDigest(rawBody: Buffer | string, algorithm: 'sha-512' | 'sha-256' = 'sha-512'): string {
  return `${algorithm}=:${createHash(digestAlgorithms[algorithm]!).update(rawBody).digest('base64')}:`;
}

/** Whether the Content-Digest header holds a digest of exactly this body (one known algorithm matching is enough). */
export function digestMatches(headerValue: string | undefined, rawBody: Buffer): boolean {
  if (!headerValue) return false;
  let known = false;
  for (const member of splitTopLevel(headerValue)) {
    const match = /^([a-z0-9-]+)=:([A-Za-z0-9+/=]*):$/.exec(member.trim());
    if (!match) continue;
    const algorithm = digestAlgorithms[match[1]!];
    if (!algorithm) continue;
    known = true;
    if (createHash(algorithm).update(rawBody).digest('base64') !== match[2]) return false;
  }
  return known;
}

/** Splits a structured-field list or dictionary on its top-level commas (not inside quotes or parentheses). */
function splitTopLevel(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(value.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(value.slice(start));
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

interface SignatureInput {
  label: string;
  /** The member's value exactly as sent: it is the `@signature-params` line of the base. */
  params: string;
  components: string[];
  alg?: string;
  keyId?: string;
  created?: number;
  expires?: number;
}

function parseSignatureInput(value: string): SignatureInput[] {
  const inputs: SignatureInput[] = [];
  for (const member of splitTopLevel(value)) {
    const match = /^([a-z*][a-z0-9_.*-]*)=(\((?:[^()"]|"(?:[^"\\]|\\.)*")*\)(?:;.*)?)$/.exec(member);
    if (!match) continue;
    const params = match[2]!;
    const close = params.indexOf(')');
    const components = [...params.slice(1, close).matchAll(/"([^"]*)"/g)].map((m) => m[1]!);
    const param = (name: string): string | undefined => new RegExp(`;${name}=("(?:[^"\\\\]|\\\\.)*"|[^;]+)`).exec(params.slice(close))?.[1]?.replace(/^"|"$/g, '');
    const created = param('created');
    const expires = param('expires');
    inputs.push({
      label: match[1]!,
      params,
      components,
      ...(param('alg') ? { alg: param('alg') } : {}),
      ...(param('keyid') ? { keyId: param('keyid') } : {}),
      ...(created && /^\d+$/.test(created) ? { created: Number(created) } : {}),
      ...(expires && /^\d+$/.test(expires) ? { expires: Number(expires) } : {}),
    });
  }
  return inputs;
}

function signatureOf(value: string, label: string): Buffer | undefined {
  for (const member of splitTopLevel(value)) {
    const match = /^([a-z*][a-z0-9_.*-]*)=:([A-Za-z0-9+/=]*):$/.exec(member);
    if (match && match[1] === label) return Buffer.from(match[2]!, 'base64');
  }
  return undefined;
}

function componentValue(request: SignedRequest, component: string): string | undefined {
  switch (component) {
    case '@method':
      return request.method.toUpperCase();
    case '@authority':
      return request.authority.toLowerCase();
    case '@path':
      return request.path;
    default:
      return component.startsWith('@') ? undefined : header(request.headers, component)?.trim();
  }
}

/** The signature base RFC 9421 §2.5 defines, or undefined when a covered component is missing. */
export function signatureBase(request: SignedRequest, components: string[], params: string): string | undefined {
  const lines: string[] = [];
  for (const component of components) {
    const value = componentValue(request, component);
    if (value === undefined) return undefined;
    lines.push(`"${component}": ${value}`);
  }
  lines.push(`"@signature-params": ${params}`);
  return lines.join('\n');
}

/** The components pawaPay covers in its callbacks; a signature covering less is not enough. */
export const REQUIRED_COMPONENTS = ['@method', '@path', 'content-digest'] as const;

function verifyWith(key: KeyObject, alg: string | undefined, base: string, signature: Buffer): boolean {
  const spec = (alg && algorithms[alg]) || (key.asymmetricKeyType === 'ec' ? algorithms['ecdsa-p256-sha256']! : algorithms['rsa-v1_5-sha256']!);
  const data = Buffer.from(base, 'utf8');
  if (key.asymmetricKeyType === 'ec') {
    // DER (pawaPay's example) or raw r||s (RFC 9421): either encoding of the same signature.
    for (const dsaEncoding of ['der', 'ieee-p1363'] as const) {
      try {
        if (verifyData(spec.hash, data, { key, dsaEncoding }, signature)) return true;
      } catch {
        // A signature that is not in this encoding: try the other.
      }
    }
    return false;
  }
  try {
    return verifyData(spec.hash, data, spec.pss ? { key, padding: 6 /* RSA_PKCS1_PSS_PADDING */ } : key, signature);
  } catch {
    return false;
  }
}

/**
 * Checks a callback against pawaPay's public key: the Content-Digest must match the raw body, a
 * signature must cover at least the method, path and digest, verify under the key, and not be
 * expired (nor created more than `skewSeconds` in the future).
 */
export function verifyPawapaySignature(request: SignedRequest, publicKeyPem: string, nowSeconds: number, skewSeconds = 300): SignatureCheck {
  const input = header(request.headers, 'signature-input');
  const signatures = header(request.headers, 'signature');
  if (!input || !signatures) return { ok: false, reason: 'no Signature or Signature-Input header' };
  if (!digestMatches(header(request.headers, 'content-digest'), request.rawBody)) return { ok: false, reason: 'the Content-Digest does not match the body' };
  let key: KeyObject;
  try {
    key = createPublicKey(publicKeyPem);
  } catch {
    return { ok: false, reason: 'the configured pawaPay public key cannot be read' };
  }
  let reason = 'no signature covers the method, the path and the Content-Digest';
  for (const candidate of parseSignatureInput(input)) {
    if (!REQUIRED_COMPONENTS.every((c) => candidate.components.includes(c))) continue;
    if (candidate.expires !== undefined && candidate.expires < nowSeconds) {
      reason = 'the signature has expired';
      continue;
    }
    if (candidate.created !== undefined && candidate.created > nowSeconds + skewSeconds) {
      reason = 'the signature is dated in the future';
      continue;
    }
    const signature = signatureOf(signatures, candidate.label);
    const base = signature && signatureBase(request, candidate.components, candidate.params);
    if (!signature || base === undefined) {
      reason = 'a covered component is missing';
      continue;
    }
    if (verifyWith(key, candidate.alg, base, signature)) return { ok: true, ...(candidate.keyId ? { keyId: candidate.keyId } : {}) };
    reason = 'the signature does not verify under pawaPay’s key';
  }
  return { ok: false, reason };
}

/**
 * The headers pawaPay adds to a signed callback (the mock and tests sign with this): Content-Digest,
 * Signature-Date, Signature-Input and Signature over the components pawaPay covers.
 */
export function signPawapayCallback(
  request: Omit<SignedRequest, 'headers'> & { contentType?: string },
  privateKeyPem: string,
  options: { keyId: string; nowSeconds: number; ttlSeconds?: number },
): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': request.contentType ?? 'application/json',
    'content-digest': contentDigest(request.rawBody),
    'signature-date': new Date(options.nowSeconds * 1000).toISOString(),
  };
  const components = ['@method', '@authority', '@path', 'signature-date', 'content-digest', 'content-type'];
  const params = `(${components.map((c) => `"${c}"`).join(' ')});alg="ecdsa-p256-sha256";keyid="${options.keyId}";created=${options.nowSeconds};expires=${options.nowSeconds + (options.ttlSeconds ?? 60)}`;
  const base = signatureBase({ ...request, headers }, components, params)!;
  const signature = signData('sha256', Buffer.from(base, 'utf8'), { key: privateKeyPem, dsaEncoding: 'der' });
  return { ...headers, 'signature-input': `sig-pp=${params}`, signature: `sig-pp=:${signature.toString('base64')}:` };
}
