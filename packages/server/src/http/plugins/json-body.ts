import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies, with one difference from Fastify's own parser: an empty body (or only whitespace)
 * sent with `Content-Type: application/json` counts as no body, as many HTTP clients send it for a
 * POST without data. Routes whose body is optional (cancel, a full refund) then accept it; a route
 * that needs a body answers its usual validation error. Everything else, prototype-poisoning
 * checks included, is Fastify's parser.
 */
export function installJsonBodyParsing(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).trim() === '') {
      done(null, null);
      return;
    }
    parseJson(request, body as string, done);
  });
}
