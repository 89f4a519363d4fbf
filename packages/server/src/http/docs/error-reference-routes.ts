import type { FastifyPluginAsync } from 'fastify';
import { ERROR_REFERENCE_PATH } from '../shared/error-doc-url.js';
import { errorReferencePage } from './error-reference-page.js';

/**
 * GET /docs/errors: the error reference that every error body's `doc_url` points to, served by the
 * server itself so that the link works for a self-hosted one. Outside /api/v1: no key, no budget.
 */
export const errorReferenceRoutes: FastifyPluginAsync = async (app) => {
  const page = errorReferencePage();
  app.get(ERROR_REFERENCE_PATH, { config: { public: true }, schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'")
      .header('Cache-Control', 'public, max-age=3600')
      .send(page),
  );
};
