/**
 * Whether an error answer has its contract's stable shape: the current one
 * `{"error": {code, message, field?, details?, doc_url, request_id}}` with a code from the catalog
 * and doc_url its entry in the server's error reference (…/docs/errors#<code>), the
 * earlier one `{error, code, detail}` or its field -> [messages] validation body.
 */
import type { LightMyRequestResponse } from 'fastify';
import { errorCatalog } from '../../src/core/errors/error-catalog.js';

const isText = (value: unknown): value is string => typeof value === 'string';

/** What is wrong with the error answer's body, or undefined when it has its contract's shape. */
export function errorShapeProblem(res: LightMyRequestResponse, contract: 'current' | 'legacy'): string | undefined {
  if (!String(res.headers['content-type'] ?? '').startsWith('application/json')) return `content-type ${res.headers['content-type']}`;
  let body: unknown;
  try {
    body = res.json();
  } catch {
    return 'body is not JSON';
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'body is not an object';
  const fields = body as Record<string, unknown>;
  if (contract === 'legacy') {
    if (isText(fields.error) && isText(fields.code) && isText(fields.detail) && fields.code in errorCatalog) return undefined;
    const byField = Object.values(fields);
    if (byField.length > 0 && byField.every((messages) => Array.isArray(messages) && messages.length > 0 && messages.every(isText))) return undefined;
    return 'not {error, code, detail} with a catalog code, nor field -> [messages]';
  }
  const error = fields.error as Record<string, unknown> | undefined;
  if (Object.keys(fields).length !== 1 || error === null || typeof error !== 'object') return 'not {"error": {…}}';
  if (!isText(error.code) || !(error.code in errorCatalog)) return `code ${JSON.stringify(error.code)} is not in the catalog`;
  if (!isText(error.message) || error.message === '') return 'no message';
  if (error.field !== undefined && !isText(error.field)) return 'field is not a string';
  if (error.details !== undefined && !(Array.isArray(error.details) && error.details.every((d: { field?: unknown; message?: unknown }) => isText(d.field) && isText(d.message))))
    return 'details is not [{field, message}]';
  if (!isText(error.doc_url) || !error.doc_url.endsWith(`/docs/errors#${error.code}`))
    return `doc_url ${JSON.stringify(error.doc_url)} is not the code's entry in the error reference`;
  const extra = Object.keys(error).filter((key) => !['code', 'message', 'field', 'details', 'doc_url', 'request_id'].includes(key));
  if (extra.length > 0) return `unexpected members ${extra.join(', ')}`;
  // A replay repeats the first answer byte for byte, request id included.
  if (error.request_id !== res.headers['x-request-id'] && res.headers['idempotent-replayed'] !== 'true') return 'request_id is not the X-Request-Id of the answer';
  return undefined;
}
