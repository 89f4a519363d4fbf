/**
 * One JSON exchange with an operator's API, shared by the connectors' clients: the URL under the
 * configured base (a path prefix kept), the call's timeout, no redirects, and the answer as a
 * status and a parsed body. No answer at all (network, timeout, a cut body) is OperatorUnreachable:
 * whether the operator received the request is then unknown.
 */

import { OperatorNoAnswer } from '../core/operators/operator-connector.js';

export interface OperatorRequest {
  method: 'GET' | 'POST' | 'PUT';
  /** Under the base URL, with its query string. */
  path: string;
  headers: Record<string, string>;
  body?: Record<string, unknown>;
  /** Sent as application/x-www-form-urlencoded instead of JSON (OAuth token requests). */
  form?: Record<string, string>;
}

export interface OperatorResponse {
  status: number;
  /** The JSON body, or undefined when there was none (202, an empty 200) or it was not JSON. */
  body: unknown;
}

export class OperatorUnreachable extends OperatorNoAnswer {
  constructor(operator: string, message: string, options?: { cause?: unknown }) {
    super(`${operator} unreachable: ${message}`, options);
    this.name = 'OperatorUnreachable';
  }
}

export interface OperatorEndpoint {
  /** Named in errors: `MTN MoMo`, `Wave`. */
  operator: string;
  baseUrl: string;
  timeoutMs: number;
  fetchImpl: typeof fetch;
}

export async function exchangeJson(endpoint: OperatorEndpoint, request: OperatorRequest): Promise<OperatorResponse> {
  // The query string may carry our references: errors name the path alone.
  const what = `${request.method} ${request.path.split('?')[0]}`;
  let response: Response;
  let text: string;
  try {
    response = await endpoint.fetchImpl(`${endpoint.baseUrl.replace(/\/+$/, '')}${request.path}`, {
      method: request.method,
      headers: request.headers,
      ...(request.form !== undefined ? { body: new URLSearchParams(request.form).toString() } : request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
      signal: AbortSignal.timeout(endpoint.timeoutMs),
      redirect: 'manual',
    });
    text = await response.text();
  } catch (error) {
    throw new OperatorUnreachable(endpoint.operator, `${what}: ${(error as Error).message}`, { cause: error });
  }
  return { status: response.status, body: parseJson(text) };
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
