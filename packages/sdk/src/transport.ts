/**
 * One call to the API: authentication, the Idempotency-Key of a POST, a timeout per attempt, and
 * retries with exponential backoff and full jitter. Only fetch, AbortController, setTimeout and
 * WebCrypto's randomUUID: it runs on Node 20+, Bun, Deno and edge runtimes alike.
 */
import { APIError, ConnectionError, errorFromResponse, type AkweError } from './errors.js';

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  /** The Idempotency-Key of a POST; one is generated when absent. Every retry of the call reuses it. */
  idempotencyKey?: string;
  /** Milliseconds per attempt (default: the client's). */
  timeout?: number;
  /** Retries after the first attempt (default: the client's). */
  maxRetries?: number;
  /** Aborts the call, retries included. */
  signal?: AbortSignal;
  /** Extra headers for this call. */
  headers?: Record<string, string>;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  query?: object | undefined;
  /** A JSON value, text sent as `contentType`, or a FormData (multipart; fetch writes its Content-Type). */
  body?: unknown;
  contentType?: string;
  /** The operation takes an Idempotency-Key: send one (the caller's or a new one). */
  idempotent?: boolean;
  /** `text` for CSV answers; JSON otherwise. */
  responseType?: 'json' | 'text';
}

export interface BackoffOptions {
  /** The cap of the first retry's wait; doubles per retry (default 500 ms). */
  initialDelayMs?: number;
  /** No wait is longer than this, except what a Retry-After asks (default 8 000 ms). */
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the error is thrown (default 60 s). */
  maxRetryAfterMs?: number;
}

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  timeout: number;
  maxRetries: number;
  backoff: Required<BackoffOptions>;
  fetch: typeof fetch;
}

/** Codes of a 409 that mean "the same request is still running, retry shortly". */
const IN_PROGRESS_CODES = new Set(['idempotency_request_in_progress', 'operator_call_in_progress']);

/** Full jitter: a random wait between 0 and min(max, initial * 2^retry). */
export function backoffDelayMs(retry: number, backoff: Required<BackoffOptions>, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxDelayMs, backoff.initialDelayMs * 2 ** retry);
  return Math.floor(random() * ceiling);
}

/** Retry-After in seconds or as an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Whether an error may go away by itself, so the same request (same key) is worth sending again. */
export function isRetryable(error: AkweError): boolean {
  if (error instanceof ConnectionError) return error.code !== 'aborted';
  const status = error.status ?? 0;
  if (status === 409) return error.code !== undefined && IN_PROGRESS_CODES.has(error.code);
  return status === 429 || status >= 500;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortedError(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function abortedError(signal: AbortSignal): ConnectionError {
  return new ConnectionError({ message: 'The request was aborted by the caller', code: 'aborted', cause: signal.reason });
}

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

export class Transport {
  constructor(private readonly options: TransportOptions) {}

  url(path: string, query?: object): string {
    const url = new URL(this.options.baseUrl.replace(/\/+$/, '') + path);
    for (const [name, value] of Object.entries(query ?? {}) as Array<[string, QueryValue]>) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  async request<T>(spec: RequestSpec, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = {
      Authorization: `Bearer ${this.options.apiKey}`,
      Accept: spec.responseType === 'text' ? 'text/csv, application/json' : 'application/json',
      ...options.headers,
    };
    let body: string | FormData | undefined;
    if (typeof FormData !== 'undefined' && spec.body instanceof FormData) {
      // No Content-Type of ours: fetch writes multipart/form-data with the boundary it chose.
      body = spec.body;
    } else if (spec.body !== undefined) {
      const json = spec.contentType === undefined;
      headers['Content-Type'] = spec.contentType ?? 'application/json';
      body = json ? JSON.stringify(spec.body) : String(spec.body);
    }
    // One key for the whole call: a retry is the same request, and the server answers it once.
    if (spec.idempotent) headers['Idempotency-Key'] = options.idempotencyKey ?? globalThis.crypto.randomUUID();

    const url = this.url(spec.path, spec.query);
    const maxRetries = options.maxRetries ?? this.options.maxRetries;
    const timeout = options.timeout ?? this.options.timeout;
    for (let retry = 0; ; retry++) {
      let failure: AkweError;
      try {
        const answer = await this.attempt(url, { method: spec.method, headers, body }, timeout, options.signal);
        if (answer.status >= 200 && answer.status < 300) return parseSuccess<T>(answer, spec.responseType);
        failure = errorFromResponse(answer.status, answer.headers, answer.text);
      } catch (error) {
        if (!(error instanceof ConnectionError)) throw error;
        failure = error;
      }
      if (retry >= maxRetries || !isRetryable(failure)) throw failure;
      const asked = retryAfterMs(failure.headers?.get('retry-after') ?? null);
      if (asked !== undefined && asked > this.options.backoff.maxRetryAfterMs) throw failure;
      await sleep(asked ?? backoffDelayMs(retry, this.options.backoff), options.signal);
    }
  }

  /** One attempt; the timeout covers the answer's body too. Network failures become ConnectionError. */
  private async attempt(url: string, init: RequestInit, timeoutMs: number, signal: AbortSignal | undefined): Promise<Answer> {
    if (signal?.aborted) throw abortedError(signal);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await this.options.fetch(url, { ...init, signal: controller.signal });
      return { status: response.status, headers: response.headers, text: await response.text() };
    } catch (error) {
      if (signal?.aborted) throw abortedError(signal);
      if (timedOut) throw new ConnectionError({ message: `No answer within ${timeoutMs} ms`, code: 'timeout', cause: error });
      throw new ConnectionError({ message: `Could not reach the Akwe API: ${error instanceof Error ? error.message : String(error)}`, code: 'network_error', cause: error });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

function parseSuccess<T>(answer: Answer, responseType: RequestSpec['responseType']): T {
  if (responseType === 'text') return answer.text as T;
  if (answer.text === '') return undefined as T;
  try {
    return JSON.parse(answer.text) as T;
  } catch (error) {
    throw new APIError({
      message: `The API answered ${answer.status} with a body that is not JSON`,
      code: 'invalid_response',
      cause: error,
      status: answer.status,
      raw: answer.text,
      headers: answer.headers,
    });
  }
}
