import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { inAmountUnit } from '../../shared/amount-wording.js';
import { toAkweError } from '../../shared/to-akwe-error.js';
import { logIfServerError, setRetryAfter } from '../../plugins/error-handler.js';

/**
 * The earlier contract keeps its own shapes exactly (docs/decisions.md, earlier contract):
 * errors are `{error, code, detail}`; schema validation failures map each field to its messages.
 */
/** The earlier contract answers 400 where the current one says 409 ("payment not eligible for confirmation"). */
export const legacyStatuses: Partial<Record<string, number>> = { payment_not_confirmable: 400 };

/** The earlier contract's paths, known from the URL alone (for errors met before routing). */
export function isLegacyPath(url: string): boolean {
  return /^\/api\/v1\/collect\/(mobile-money|operators)(\/|$)/.test(url);
}

export function legacyErrorBody(error: unknown, request: FastifyRequest) {
  // The earlier contract speaks centimes.
  const akweError = inAmountUnit(toAkweError(error), 'minor');
  const status = legacyStatuses[akweError.code] ?? akweError.status;
  if (akweError.code === 'validation_error' && akweError.details) {
    const byField: Record<string, string[]> = {};
    for (const detail of akweError.details) (byField[detail.field] ??= []).push(detail.message);
    return { status: 400, body: byField };
  }
  const detail = status >= 500 ? `${akweError.message} (request ${request.id})` : akweError.message;
  return {
    status,
    body: { error: STATUS_CODES[status] ?? 'Error', code: akweError.code, detail },
  };
}

export function installLegacyErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = legacyErrorBody(error, request);
    logIfServerError(error, request, status);
    setRetryAfter(error, reply);
    return reply.status(status).send(body);
  });
}
