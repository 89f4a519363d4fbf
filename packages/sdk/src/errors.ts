/**
 * Errors the client throws. Every API error body is `{"error": {code, message, field?, details?,
 * request_id, doc_url}}`; the class says which family of HTTP status it came with.
 */

export interface AkweErrorFields {
  message: string;
  status?: number | undefined;
  code?: string | undefined;
  field?: string | undefined;
  details?: unknown;
  requestId?: string | undefined;
  docUrl?: string | undefined;
  /** The response body as received (parsed JSON, or text when it was not JSON). */
  raw?: unknown;
  headers?: Headers | undefined;
  cause?: unknown;
}

export class AkweError extends Error {
  override readonly name: string = 'AkweError';
  /** HTTP status; undefined for errors without a response (ConnectionError). */
  readonly status: number | undefined;
  /** Stable snake_case code from the API's error catalog (docs/errors.md). */
  readonly code: string | undefined;
  /** The request field at fault, when the API names one. */
  readonly field: string | undefined;
  readonly details: unknown;
  /** Quote it when asking for support: it finds the request in the server's logs. */
  readonly requestId: string | undefined;
  readonly docUrl: string | undefined;
  readonly raw: unknown;
  readonly headers: Headers | undefined;

  constructor(fields: AkweErrorFields) {
    super(fields.message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.status = fields.status;
    this.code = fields.code;
    this.field = fields.field;
    this.details = fields.details;
    this.requestId = fields.requestId;
    this.docUrl = fields.docUrl;
    this.raw = fields.raw;
    this.headers = fields.headers;
  }
}

/** 400 and 422: the request itself is wrong (`field` names the culprit when there is one). Never retried. */
export class InvalidRequestError extends AkweError {
  override readonly name = 'InvalidRequestError';
}
/** 401: the API key is missing, unknown or revoked. */
export class AuthenticationError extends AkweError {
  override readonly name = 'AuthenticationError';
}
/** 403: the key lacks a scope, or the account may not do this yet (KYC, inactive). */
export class PermissionError extends AkweError {
  override readonly name = 'PermissionError';
}
/** 404: no such object for this key's merchant and environment. */
export class NotFoundError extends AkweError {
  override readonly name = 'NotFoundError';
}
/** 409: a duplicate reference, a state that forbids the operation, or a request still in progress. */
export class ConflictError extends AkweError {
  override readonly name = 'ConflictError';
}
/** 429: over the key's rate limit; `retryAfterSeconds` says when to come back. */
export class RateLimitError extends AkweError {
  override readonly name = 'RateLimitError';
  get retryAfterSeconds(): number | undefined {
    const value = this.headers?.get('retry-after');
    return value != null && /^\d+$/.test(value.trim()) ? Number(value) : undefined;
  }
}
/** 5xx and any other unexpected status. */
export class APIError extends AkweError {
  override readonly name = 'APIError';
}
/** No answer: the network failed or the request timed out (`code` is `timeout` then). */
export class ConnectionError extends AkweError {
  override readonly name = 'ConnectionError';
}
/** A webhook whose signature or timestamp does not check out (`code` says which). */
export class SignatureVerificationError extends AkweError {
  override readonly name = 'SignatureVerificationError';
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The error for a non-2xx answer, from its status and body. */
export function errorFromResponse(status: number, headers: Headers, bodyText: string): AkweError {
  let raw: unknown = bodyText;
  try {
    raw = bodyText === '' ? undefined : JSON.parse(bodyText);
  } catch {
    // Not JSON (a proxy's HTML page, say): keep the text.
  }
  const error = typeof raw === 'object' && raw !== null && 'error' in raw && typeof raw.error === 'object' && raw.error !== null ? (raw.error as Record<string, unknown>) : {};
  const fields: AkweErrorFields = {
    message: stringOrUndefined(error.message) ?? `HTTP ${status}`,
    status,
    code: stringOrUndefined(error.code),
    field: stringOrUndefined(error.field),
    details: error.details,
    requestId: stringOrUndefined(error.request_id) ?? headers.get('x-request-id') ?? undefined,
    docUrl: stringOrUndefined(error.doc_url),
    raw,
    headers,
  };
  if (status === 400 || status === 422) return new InvalidRequestError(fields);
  if (status === 401) return new AuthenticationError(fields);
  if (status === 403) return new PermissionError(fields);
  if (status === 404) return new NotFoundError(fields);
  if (status === 409) return new ConflictError(fields);
  if (status === 429) return new RateLimitError(fields);
  return new APIError(fields);
}
