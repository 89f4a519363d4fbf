/**
 * The developer commands' way to a server: HTTP(S) with an API key, through the SDK (@akwe/sdk),
 * never a database. An error the API answers becomes a CliError that prints its code, its message
 * and what to do: the `action` of the server's error catalog when the program running these
 * commands knows it (the server's own `akwe`), else the `doc_url` of the error, which shows it.
 */
import { Akwe, AkweError, ConnectionError } from '@akwe/sdk';

export const DEFAULT_BASE_URL = 'http://localhost:8080';

export interface ApiConnection {
  apiKey: string;
  /** The server's root, without `/api/v1` and without a trailing slash. */
  baseUrl: string;
}

/** What to do about an error code (`action` in the server's error catalog), when known. */
export type HintFor = (code: string) => string | undefined;

/** `--api-key` / AKWE_API_KEY and `--base-url` / AKWE_BASE_URL; a missing key is a clear error, not a 401. */
export function connectionFrom(options: { apiKey?: string; baseUrl?: string }, env: NodeJS.ProcessEnv = process.env): ApiConnection {
  const apiKey = options.apiKey ?? env.AKWE_API_KEY;
  if (!apiKey) throw new Error('an API key is needed: --api-key ak_test_… or the AKWE_API_KEY variable');
  const baseUrl = (options.baseUrl ?? env.AKWE_BASE_URL ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  return { apiKey, baseUrl };
}

export function isTestKey(apiKey: string): boolean {
  return apiKey.startsWith('ak_test_');
}

export function apiUrl(connection: ApiConnection, path: string): string {
  return `${connection.baseUrl}/api/v1${path}`;
}

/** An SDK client for the connection. One retry at most: a person is waiting at the terminal. */
export function sdkClient(connection: ApiConnection): Akwe {
  return new Akwe(connection.apiKey, { baseUrl: apiUrl(connection, ''), maxRetries: 1 });
}

/** An error the command prints as it is (`akwe: <message>`) and exits 1 with. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** `<code>: <message>` and, on the next line, `  hint: <what to do>`. */
export function apiErrorMessage(code: string, message: string, hint: string | undefined): string {
  return hint ? `${code}: ${message}\n  hint: ${hint}` : `${code}: ${message}`;
}

/** The reason a network failure gives (fetch hides it in `cause`). */
export function networkReason(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error) return networkReason(cause);
  return error instanceof Error ? error.message : String(error);
}

/** Runs one API call through the SDK and turns what it throws into a CliError a person can act on. */
export async function apiCall<T>(connection: ApiConnection, hintFor: HintFor, call: (client: Akwe) => PromiseLike<T>): Promise<T> {
  try {
    return await call(sdkClient(connection));
  } catch (error) {
    if (error instanceof ConnectionError) throw new CliError(`cannot reach ${connection.baseUrl}: ${networkReason(error)}`);
    if (error instanceof AkweError) {
      const code = error.code ?? `http_${error.status ?? 0}`;
      throw new CliError(apiErrorMessage(code, error.message, hintFor(code) ?? error.docUrl), error.status, code);
    }
    throw error;
  }
}

/** The same for an answer read without the SDK (the event stream): our `{"error": {code, message}}` shape, or whatever the body says. */
export async function errorOfResponse(response: Response, hintFor: HintFor): Promise<CliError> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string; doc_url?: string } };
    const code = body.error?.code ?? `http_${response.status}`;
    return new CliError(apiErrorMessage(code, body.error?.message ?? text, hintFor(code) ?? body.error?.doc_url), response.status, code);
  } catch {
    return new CliError(apiErrorMessage(`http_${response.status}`, text.slice(0, 200) || response.statusText, undefined), response.status);
  }
}
