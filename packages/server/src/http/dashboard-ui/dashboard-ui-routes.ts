/**
 * Serves the dashboard and the back office pages (docs/dashboard.md "Pages"): one HTML shell for
 * every address under /dashboard and /admin (the script routes in the browser), and the hashed
 * script, its chunks (the back office's pages, loaded when opened) and stylesheet. Strict CSP: same-origin script and style only, never framed.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { pageSecurityHeaders } from '../shared/page-security.js';
import { loadDashboardAssets, type DashboardAssets } from './dashboard-assets.js';

function shell(assets: DashboardAssets): string {
  return [
    '<!doctype html>',
    '<html lang="fr">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="robots" content="noindex">',
    '<title>Akwe</title>',
    // An empty icon: spares the browser a /favicon.ico request.
    '<link rel="icon" href="data:,">',
    `<link rel="stylesheet" href="/dashboard/assets/${assets.css.name}">`,
    `<script type="module" src="/dashboard/assets/${assets.js.name}"></script>`,
    // The chunks the script imports at once, fetched beside it rather than after it.
    ...assets.preload.map((name) => `<link rel="modulepreload" href="/dashboard/assets/${name}">`),
    '</head>',
    '<body>',
    '<div id="app"></div>',
    '<noscript><p>Le tableau de bord a besoin de JavaScript. The dashboard needs JavaScript.</p></noscript>',
    '</body>',
    '</html>',
  ].join('\n');
}

const NOT_BUILT =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Akwe</title></head><body><p>The dashboard is not built: run <code>npm run build</code> (or <code>npm run build -w @akwe/dashboard</code>), then restart.</p></body></html>';

export const dashboardUiRoutes: FastifyPluginAsync<{ distDir?: string }> = async (app, options) => {
  const assets = loadDashboardAssets(options.distDir);
  const html = assets ? shell(assets) : undefined;
  const page = async (_request: unknown, reply: FastifyReply) => {
    pageSecurityHeaders(reply, 'no-store');
    reply.type('text/html; charset=utf-8');
    if (!html) return reply.code(503).send(NOT_BUILT);
    return reply.send(html);
  };
  const route = { config: { public: true }, schema: { hide: true } };
  for (const prefix of ['/dashboard', '/admin']) {
    app.get(prefix, route, page);
    app.get(`${prefix}/*`, route, page);
  }
  app.get<{ Params: { name: string } }>(
    '/dashboard/assets/:name',
    { config: { public: true }, schema: { hide: true, params: { type: 'object', properties: { name: { type: 'string', maxLength: 64 } }, required: ['name'] } } },
    async (request, reply) => {
      const asset = assets?.byName.get(request.params.name);
      pageSecurityHeaders(reply, asset ? 'public, max-age=31536000, immutable' : 'no-store');
      if (!asset) return reply.code(404).type('text/plain; charset=utf-8').send('not found');
      return reply.type(asset.contentType).send(asset.body);
    },
  );
};
