import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AmountUnit } from '../../core/shared/amount-units.js';
import { inAmountUnit } from '../shared/amount-wording.js';
import { errorDocUrl } from '../shared/error-doc-url.js';
import { toAkweError } from '../shared/to-akwe-error.js';

/**
 * The error body of the current contract, payouts and bulk:
 * `{"error": {"code", "message", "field"?, "details"?, "doc_url", "request_id"}}`, where `doc_url` is
 * the code's entry in this server's error reference (GET /docs/errors). A 500 says nothing of internals.
 */
export function currentErrorBody(error: unknown, request: FastifyRequest) {
  // Errors met before routing have no route config.
  const routeConfig = request.routeOptions.config as { amountUnit?: AmountUnit } | undefined;
  const akweError = inAmountUnit(toAkweError(error), routeConfig?.amountUnit ?? 'minor');
  return {
    status: akweError.status,
    body: {
      error: {
        code: akweError.code,
        message: akweError.message,
        ...(akweError.field !== undefined ? { field: akweError.field } : {}),
        ...(akweError.details !== undefined ? { details: akweError.details } : {}),
        doc_url: errorDocUrl(request.server.errorReferenceUrl, akweError.code),
        request_id: request.id,
      },
    },
  };
}

export function logIfServerError(error: unknown, request: FastifyRequest, status: number): void {
  if (status >= 500) request.log.error({ err: error }, 'request failed');
}

/** Sets Retry-After when the error says when trying again makes sense (a claim in progress). */
export function setRetryAfter(error: unknown, reply: FastifyReply): void {
  const seconds = toAkweError(error).retryAfterSeconds;
  if (seconds !== undefined) reply.header('Retry-After', String(Math.max(1, Math.ceil(seconds))));
}
