import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { errorCatalog } from '../../core/errors/index.js';

const errorTable = Object.entries(errorCatalog)
  .map(([code, { status, message }]) => `| ${status} | \`${code}\` | ${message} |`)
  .join('\n');

/**
 * The OpenAPI 3.1 document is generated from the route schemas (never written by hand).
 * Each operation's required scope is added to its description from the route's config.
 */
export async function installOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Akwe API',
        version: '2026-06',
        description: [
          'Mobile Money collection, payouts and bulk payments for Benin, Togo and Côte d’Ivoire.',
          'The API key decides the environment (`ak_test_…` or `ak_live_…`).',
          '',
          '## Errors',
          'Every error (current contract, payouts, bulk) has the body `{"error": {"code", "message", "field"?, "details"?, "request_id"}}`.',
          'The earlier collect contract keeps `{error, code, detail}` and, for validation, `{field: [messages]}`.',
          '',
          '| HTTP | code | meaning |',
          '|---|---|---|',
          errorTable,
        ].join('\n'),
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    },
    transform: ({ schema, url, route }) => {
      const config = (route.config ?? {}) as { scope?: string; public?: boolean };
      const transformed: Record<string, unknown> = { ...(schema ?? {}) };
      if (config.public) transformed.security = [];
      if (config.scope) {
        const scopeNote = `Required scope: \`${config.scope}\` (an empty scope list grants every scope).`;
        transformed.description = transformed.description ? `${String(transformed.description)}\n\n${scopeNote}` : scopeNote;
      }
      return { schema: transformed as never, url };
    },
  });
}

export function openApiRoute(app: FastifyInstance): void {
  app.get('/collect/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
}
