import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DashboardCaller, DashboardService } from '../../core/dashboard/dashboard-service.js';
import type { RequestOrigin } from '../../core/dashboard/dashboard-user.js';
import { AkweError } from '../../core/errors/index.js';
import type { Environment } from '../../core/shared/environment.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A dashboard route that needs a signed-in user (an access token). */
    dashboardSession?: boolean;
  }
  interface FastifyRequest {
    /** The dashboard's active environment, from X-Service-Environment. */
    dashboardEnvironment: Environment;
    dashboardCaller: DashboardCaller | undefined;
  }
}

/**
 * The active environment of a dashboard request (SPEC "Authentication"): X-Service-Environment
 * `test` or `live`; missing means test; anything else is refused (400 invalid_environment).
 * Unlike an API key's environment, which the key alone decides, a session serves both.
 */
export function environmentFromHeader(value: string | string[] | undefined): Environment {
  if (value === undefined) return 'test';
  if (value === 'test' || value === 'live') return value;
  throw new AkweError('invalid_environment', `X-Service-Environment must be test or live (got "${String(value).slice(0, 40)}").`);
}

/**
 * Installs, on the dashboard scope, the environment for every route and the session for the routes
 * that need one (`config.dashboardSession`): the access token from `Authorization: Bearer`.
 * Memberships are read with the user on each request, so role changes and removals count at once.
 */
export function installDashboardContext(app: FastifyInstance, dashboard: DashboardService): void {
  app.decorateRequest('dashboardEnvironment', 'test');
  app.decorateRequest('dashboardCaller', undefined);
  app.addHook('onRequest', async (request, reply) => {
    request.dashboardEnvironment = environmentFromHeader(request.headers['x-service-environment']);
    if (!request.routeOptions.config.dashboardSession) return;
    const token = request.headers.authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
    const caller = token === undefined ? undefined : await dashboard.authenticate(token);
    if (!caller) {
      reply.header('WWW-Authenticate', 'Bearer realm="akwe-dashboard"');
      throw new AkweError('invalid_session');
    }
    request.dashboardCaller = caller;
  });
}

export function callerOf(request: FastifyRequest): DashboardCaller {
  if (!request.dashboardCaller) throw new Error('dashboard route reached without a session');
  return request.dashboardCaller;
}

export function originOf(request: FastifyRequest): RequestOrigin {
  const agent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof agent === 'string' ? agent : null };
}
