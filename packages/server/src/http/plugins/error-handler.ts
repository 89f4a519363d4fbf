import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { toAkweError } from '../shared/to-akwe-error.js';
import type { RouteMethods } from './route-methods.js';

/**
 * The error body of the current contract, payouts and bulk (PRODUCT.md "Errors"):
 * `{"error": {"code", "message", "field"?, "details"?, "request_id"}}`. A 500 says nothing of internals.
 */
export function currentErrorBody(error: unknown, request: FastifyRequest) {
  const akweError = toAkweError(error);
  return {
    status: akweError.status,
    body: {
      error: {
        code: akweError.code,
        message: akweError.message,
        ...(akweError.field !== undefined ? { field: akweError.field } : {}),
        ...(akweError.details !== undefined ? { details: akweError.details } : {}),
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

export function sendCurrentError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const { status, body } = currentErrorBody(error, request);
  logIfServerError(error, request, status);
  setRetryAfter(error, reply);
  return reply.status(status).send(body);
}

export function installCurrentErrorHandling(app: FastifyInstance, routeMethods: RouteMethods): void {
  app.setErrorHandler((error: FastifyError, request, reply) => sendCurrentError(error, request, reply));
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = routeMethods.allowedFor(path);
    if (allowed.length > 0) {
      return reply
        .status(405)
        .header('Allow', allowed.join(', '))
        .send({ error: { code: 'method_not_allowed', message: `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`, request_id: request.id } });
    }
    return reply.status(404).send({ error: { code: 'route_not_found', message: `No route ${request.method} ${path}`, request_id: request.id } });
  });
}
