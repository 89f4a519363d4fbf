/**
 * Errors Fastify's router meets before any route or hook runs (its `frameworkErrors` option): a
 * malformed percent escape, or a path parameter longer than the router allows. Answered as
 * 400 `validation_error` with the request id, in the shape of the contract the path belongs to,
 * instead of Fastify's own body.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { AkweError } from '../../core/errors/index.js';
import { isLegacyPath, legacyErrorBody } from '../collect-legacy/legacy-errors.js';
import { currentErrorBody, logIfServerError } from './error-handler.js';

/** The router's limit on one path parameter: references (at most 100 characters) and ids fit. */
export const MAX_PATH_PARAMETER_LENGTH = 100;

export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const answer =
    error.code === 'FST_ERR_BAD_URL'
      ? pathError('The path is not a valid URL: a % must start an escape such as %2F.')
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? pathError(`A path segment is longer than ${MAX_PATH_PARAMETER_LENGTH} characters; no reference or id is that long.`)
        : error;
  const { status, body } = isLegacyPath(request.url) ? legacyErrorBody(answer, request) : currentErrorBody(answer, request);
  logIfServerError(error, request, status);
  return reply.status(status).header('X-Request-Id', request.id).send(body);
}

function pathError(message: string): AkweError {
  return new AkweError('validation_error', message, { field: 'path', details: [{ field: 'path', message }] });
}
