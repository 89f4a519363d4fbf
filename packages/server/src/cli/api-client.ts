/**
 * The developer commands' way to a server: HTTP(S) with an API key, never the database (the admin
 * commands open that). An error answer becomes an ApiCallError carrying the API's code and, from
 * the error catalog, what to do about it.
 */
import { randomUUID } from 'node:crypto';
import { errorCatalog } from '../core/errors/error-catalog.js';

export const DEFAULT_BASE_URL = 'http://localhost:8080';

export interface ApiConnection {
  apiKey: string;
  baseUrl: string;
}

export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly hint: string | undefined,
  ) {
    super(hint ? `${code}: ${message}\n  hint: ${hint}` : `${code}: ${message}`);
  }
}

/** `--api-key` / AKWE_API_KEY and `--base-url` / AKWE_BASE_URL; a missing key is a clear error, not a 401. */
export function connectionFrom(options: { apiKey?: string; baseUrl?: string }): ApiConnection {
  const apiKey = options.apiKey ?? process.env.AKWE_API_KEY;
  if (!apiKey) throw new Error('an API key is needed: --api-key ak_test_… or the AKWE_API_KEY variable');
  const baseUrl = (options.baseUrl ?? process.env.AKWE_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  return { apiKey, baseUrl };
}

export function isTestKey(apiKey: string): boolean {
  return apiKey.startsWith('ak_test_');
}

function hintFor(code: string): string | undefined {
  return (errorCatalog as Record<string, { action?: string }>)[code]?.action;
}

/** Turns an error answer into an ApiCallError (our `{"error": {code, message}}` shape, or whatever the body says). */
export async function errorOf(response: Response): Promise<ApiCallError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string; doc_url?: string } };
    const code = body.error?.code ?? `http_${response.status}`;
    return new ApiCallError(response.status, code, body.error?.message ?? text, hintFor(code) ?? body.error?.doc_url);
  } catch {
    return new ApiCallError(response.status, `http_${response.status}`, text.slice(0, 200) || response.statusText, undefined);
  }
}

export class ApiClient {
  constructor(readonly connection: ApiConnection) {}

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { authorization: `Bearer ${this.connection.apiKey}`, ...extra };
  }

  url(path: string): string {
    return `${this.connection.baseUrl}/api/v1${path}`;
  }

  async get<T>(path: string): Promise<T> {
    return this.call<T>('GET', path);
  }

  /** A POST with a fresh Idempotency-Key (the API wants one on creations). */
  async post<T>(path: string, body?: unknown): Promise<T> {
    return this.call<T>('POST', path, body);
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(this.url(path), {
        method,
        headers: this.headers({
          ...(method === 'POST' ? { 'idempotency-key': randomUUID() } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      throw new Error(`cannot reach ${this.connection.baseUrl}: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}`);
    }
    if (!response.ok) throw await errorOf(response);
    return (await response.json()) as T;
  }
}
