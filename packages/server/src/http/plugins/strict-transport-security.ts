/**
 * `Strict-Transport-Security` on every answer served over HTTPS, so a browser that once opened a
 * checkout page (or, later, the dashboard) over HTTPS never again sends that host a plain-HTTP
 * request a network could tamper with. HSTS is a rule for the whole host, so it goes on every
 * HTTPS answer, API included (harmless to API clients). Never on plain HTTP, where browsers
 * ignore it (RFC 6797 §7.2).
 *
 * "Served over HTTPS" is `request.protocol`: the connection's own TLS, or, behind a reverse proxy
 * that terminates TLS, its `X-Forwarded-Proto`, which Fastify believes only from the proxies
 * TRUST_PROXY names (a client reaching the server directly cannot claim HTTPS).
 */
import type { FastifyInstance } from 'fastify';
import type { HstsConfig } from '../../config.js';

function strictTransportSecurityValue(hsts: HstsConfig): string | undefined {
  if (hsts.maxAgeSeconds === 0) return undefined;
  return `max-age=${hsts.maxAgeSeconds}${hsts.includeSubDomains ? '; includeSubDomains' : ''}`;
}

export function installStrictTransportSecurity(app: FastifyInstance, hsts: HstsConfig): void {
  const value = strictTransportSecurityValue(hsts);
  if (value === undefined) return;
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', value);
  });
}
