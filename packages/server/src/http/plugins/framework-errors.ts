/**
 * Errors met outside any contract's routes, answered in the shape of the contract the path
 * belongs to (the earlier contract's paths: its `{error, code, detail}`), with the request id:
 * - what Fastify's router meets before any route or hook runs (its `frameworkErrors` option): a
 *   malformed percent escape, or a path parameter longer than the router allows (400
 *   `validation_error`, instead of Fastify's own body);
 * - a request no route matches: 405 `method_not_allowed` with `Allow` on a known path, else 404
 *   `route_not_found`, and what fails on the way there (a body Fastify cannot parse).
 * The root error handler also answers the current contract's routes (the earlier contract's
 * plugin has its own handler), so a path decides the shape, never a guess from the error.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AkweError } from '../../core/errors/index.js';
import { isLegacyPath, legacyErrorBody } from '../contracts/collect-legacy/legacy-errors.js';
import { currentErrorBody, logIfServerError, setRetryAfter } from './error-handler.js';
import type { RouteMethods } from './route-methods.js';

/** The router's limit on one path parameter: references (at most 100 characters) and ids fit. */
export const MAX_PATH_PARAMETER_LENGTH = 100;

export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const answer =
    error.code === 'FST_ERR_BAD_URL'
      ? pathError('The path is not a valid URL: a % must start an escape such as %2F.')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? pathError(`A path segment is longer than ${MAX_PATH_PARAMETER_LENGTH} characters; no reference or id is that long.`)
        : error;
  const { status, body } = errorBodyFor(request.url, answer, request);
  logIfServerError(error, request, status);
  void reply.status(status).header('X-Request-Id', request.id).send(body);
}

function pathError(message: string): AkweError {
  return AkweError.ofField('validation_error', 'path', message);
}

/** The error body of the contract `path` belongs to. */
function errorBodyFor(path: string, error: unknown, request: FastifyRequest) {
  return isLegacyPath(path) ? legacyErrorBody(error, request) : currentErrorBody(error, request);
}

/** The root error handler, and the not-found handler: 405 with `Allow` when the path answers other methods, else 404. */
export function installRootErrorHandling(app: FastifyInstance, routeMethods: RouteMethods): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, body } = errorBodyFor(request.url, error, request);
    logIfServerError(error, request, status);
    setRetryAfter(error, reply);
    return reply.status(status).send(body);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = routeMethods.allowedFor(path);
    const error =
      allowed.length > 0
        ? new AkweError('method_not_allowed', `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`)
        : new AkweError('route_not_found', `No route ${request.method} ${path}`);
    if (allowed.length > 0) reply.header('Allow', allowed.join(', '));
    const { status, body } = errorBodyFor(path, error, request);
    return reply.status(status).send(body);
  });
}
