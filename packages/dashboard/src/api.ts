/**
 * Calls to the server from the signed-in dashboard: the dashboard's own API
 * (`/api/v1/dashboard/…`) and the merchant API (`/api/v1/…`) with the session in place of a key
 * (Authorization: Bearer <access token>, X-Akwe-Merchant, X-Service-Environment). An expired access
 * token is refreshed once (the refresh cookie + X-CSRF-Token) and the call made again.
 */
export type Environment = 'test' | 'live';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    /** Every problem, when the API lists them (a bulk file's bad lines: `{row, field, code, message}`). */
    readonly details?: ApiErrorDetail[],
  ) {
    super(message);
  }
}

export interface ApiErrorDetail {
  field: string;
  message: string;
  row?: number;
  code?: string;
}

interface Credentials {
  /** In memory only: never written to storage. */
  accessToken: string | undefined;
  merchantId: string | undefined;
  environment: Environment;
}

const credentials: Credentials = { accessToken: undefined, merchantId: undefined, environment: 'test' };

export function setCredentials(patch: Partial<Credentials>): void {
  Object.assign(credentials, patch);
}

/** Fired when the session cannot be renewed: the app goes back to the sign-in page. */
export const SIGNED_OUT_EVENT = 'akwe:signed-out';

/** A new access token from the refresh cookie; undefined when the session is over. */
export async function renewSession<T extends { access_token: string }>(): Promise<T | undefined> {
  try {
    const session = await authApi<T>('/refresh', {}, true);
    credentials.accessToken = session.access_token;
    return session;
  } catch {
    credentials.accessToken = undefined;
    return undefined;
  }
}

/**
 * Whether this browser may hold a session: the readable CSRF cookie is set with the HttpOnly refresh
 * cookie (same lifetime) and cleared with it, and a refresh without it is refused anyway.
 */
export function hasSessionHint(): boolean {
  return csrfToken() !== '';
}

export function csrfToken(): string {
  return document.cookie.match(/(?:^|;\s*)akwe_csrf=([^;]+)/)?.[1] ?? '';
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Sent as Idempotency-Key (money-moving POSTs). */
  idempotencyKey?: string;
  /** Multipart uploads: sent as is. */
  form?: FormData;
}

function url(path: string, query: CallOptions['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function send(path: string, options: CallOptions, merchantScoped: boolean): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (credentials.accessToken) headers.authorization = `Bearer ${credentials.accessToken}`;
  headers['x-service-environment'] = credentials.environment;
  if (merchantScoped && credentials.merchantId) headers['x-akwe-merchant'] = credentials.merchantId;
  if (options.idempotencyKey) headers['idempotency-key'] = options.idempotencyKey;
  let body: BodyInit | undefined;
  if (options.form) body = options.form;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  return fetch(url(path, options.query), { method: options.method ?? 'GET', headers, body, credentials: 'same-origin' });
}

async function errorOf(response: Response): Promise<ApiError> {
  const parsed = (await response.json().catch(() => undefined)) as { error?: { code?: string; message?: string; field?: string; details?: ApiErrorDetail[] } } | undefined;
  const error = parsed?.error;
  return new ApiError(response.status, error?.code ?? 'http_error', error?.message ?? `HTTP ${response.status}`, error?.field, error?.details);
}

async function call(path: string, options: CallOptions, merchantScoped: boolean): Promise<Response> {
  let response = await send(path, options, merchantScoped);
  if (response.status === 401 && credentials.accessToken) {
    if (!(await renewSession())) {
      dispatchEvent(new Event(SIGNED_OUT_EVENT));
      throw await errorOf(response);
    }
    response = await send(path, options, merchantScoped);
  }
  if (!response.ok) throw await errorOf(response);
  return response;
}

async function json<T>(response: Response): Promise<T> {
  return response.status === 204 ? (undefined as T) : ((await response.json()) as T);
}

/** The merchant API as the signed-in user, in the active merchant and environment. */
export async function merchantApi<T>(path: string, options: CallOptions = {}): Promise<T> {
  return json<T>(await call(`/api/v1${path}`, options, true));
}

/** The dashboard's own API (`/api/v1/dashboard…`). */
export async function dashboardApi<T>(path: string, options: CallOptions = {}): Promise<T> {
  return json<T>(await call(`/api/v1/dashboard${path}`, options, false));
}

/** The back office's API (`/api/v1/admin…`), for platform administrators. */
export async function adminApi<T>(path: string, options: CallOptions = {}): Promise<T> {
  return json<T>(await call(`/api/v1/admin${path}`, options, false));
}

/** A text answer of the merchant API (an SVG image), as the signed-in user. */
export async function merchantText(path: string, query?: CallOptions['query']): Promise<string> {
  return (await call(`/api/v1${path}`, { query }, true)).text();
}

/** A file from the API (exports, KYC documents, reconciliation reports), saved by the browser under `filename`. */
export async function download(path: string, query: CallOptions['query'], filename: string, merchantScoped = true): Promise<void> {
  const response = await call(`/api/v1${path}`, { query }, merchantScoped);
  const link = document.createElement('a');
  link.href = URL.createObjectURL(await response.blob());
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** The auth routes before a session exists (sign-in, sign-up, refresh…): cookies, CSRF header, no bearer. */
export async function authApi<T>(path: string, body?: unknown, withCsrf = false): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', 'content-type': 'application/json' };
  if (withCsrf) headers['x-csrf-token'] = csrfToken();
  const response = await fetch(`/api/v1/dashboard/auth${path}`, { method: 'POST', headers, body: JSON.stringify(body ?? {}), credentials: 'same-origin' });
  if (!response.ok) throw await errorOf(response);
  return json<T>(response);
}

/** A fresh idempotency key for one money-moving action (kept while the person retries it). */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
