import type { FastifyInstance } from 'fastify';
import { AkweError } from '../../core/errors/index.js';
import { MAX_JSON_NESTING_DEPTH, nestsDeeperThan } from './json-depth.js';

/**
 * JSON bodies, with one difference from Fastify's own parser: an empty body (or only whitespace)
 * sent with `Content-Type: application/json` counts as no body, as many HTTP clients send it for a
 * POST without data. Routes whose body is optional (cancel, a full refund) then accept it; a route
 * that needs a body answers its usual validation error. A body nested deeper than
 * MAX_JSON_NESTING_DEPTH is refused before it is parsed (json-depth.ts). Everything else,
 * prototype-poisoning checks included, is Fastify's parser.
 */
export function installJsonBodyParsing(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') {
      done(null, null);
      return;
    }
    if (nestsDeeperThan(body as string, MAX_JSON_NESTING_DEPTH)) {
      const message = `body nests deeper than ${MAX_JSON_NESTING_DEPTH} levels of objects and arrays`;
      done(AkweError.ofField('validation_error', 'body', message), undefined);
      return;
    }
    void parseJson(request, body as string, done);
  });
}
