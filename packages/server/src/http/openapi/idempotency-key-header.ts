import { IDEMPOTENCY_KEY_HEADER, MAX_IDEMPOTENCY_KEY_LENGTH, type IdempotencyRouteConfig } from '../plugins/idempotency.js';

/**
 * The `headers` schema of a route with the Idempotency-Key header added, as the route's
 * `config.idempotency` says (required or not, its length), for the document only: the header is
 * checked by the idempotency plugin, not by the route's validation.
 */
export function headersWithIdempotencyKey(headers: unknown, idempotency: IdempotencyRouteConfig): Record<string, unknown> {
  const existing = (headers ?? { type: 'object', properties: {} }) as { properties?: Record<string, unknown>; required?: string[] };
  const maxLength = Math.min(idempotency.maxKeyLength ?? MAX_IDEMPOTENCY_KEY_LENGTH, MAX_IDEMPOTENCY_KEY_LENGTH);
  const key = {
    type: 'string',
    minLength: 1,
    maxLength,
    pattern: '^[\\x20-\\x7e]+$',
    description: [
      idempotency.required ? 'Required.' : 'Optional; without it the request is not idempotent.',
      'The same key with the same request within 24 hours answers the first result again (`idempotent_replay: true`, header `Idempotent-Replayed: true`) without doing the work twice;',
      'with another request, 422 `idempotency_key_reused`; while the first is still running, 409 `idempotency_request_in_progress` with `Retry-After`.',
    ].join(' '),
  };
  return {
    ...existing,
    type: 'object',
    properties: { ...existing.properties, [IDEMPOTENCY_KEY_HEADER]: key },
    required: idempotency.required ? [...(existing.required ?? []), IDEMPOTENCY_KEY_HEADER] : existing.required,
  };
}
