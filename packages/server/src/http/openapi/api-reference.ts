import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const API_REFERENCE_PATH = '/docs';

/**
 * Only this origin, and the API's own for "Try it out": the reference loads nothing from elsewhere
 * (the package's default policy also allows any https: font or style and the online validator).
 */
function contentSecurityPolicy(publicUrl: string): string {
  return [
    "default-src 'self'",
    `connect-src 'self' ${new URL(publicUrl).origin}`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "script-src 'self'",
    "script-src-attr 'none'",
    "style-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/**
 * The API reference people read: Swagger UI, served from the package's own files (no CDN), on the
 * document the API serves (its `/docs/json` is `app.swagger()`, the same as /api/v1/openapi.json).
 * Outside /api/v1 like the health probes; its routes are hidden from the document by the package
 * and marked public here, so no key is asked for and no budget spent wherever it is mounted.
 */
export async function installApiReference(app: FastifyInstance, publicUrl: string): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    await scope.register(swaggerUi, {
      routePrefix: API_REFERENCE_PATH,
      staticCSP: contentSecurityPolicy(publicUrl),
      theme: { title: 'Akwe API reference' },
      // The plain layout: no top bar inviting to load some other document.
      uiConfig: { layout: 'BaseLayout', deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 },
    });
  });
}
