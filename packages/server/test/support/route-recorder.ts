import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * Runs `build` while recording the options of every route any Fastify instance registers (HEAD
 * twins of GET routes included), so a test can go through the app's real routes and a new route is
 * covered without editing the test.
 */
export async function recordRoutes<T>(build: () => Promise<T>): Promise<{ result: T; routes: RouteOptions[] }> {
  const routes: RouteOptions[] = [];
  // Fastify publishes each new instance on this channel before anything is registered on it.
  const onInit = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (route: RouteOptions) => {
      routes.push(route);
    });
  };
  subscribe('fastify.initialization', onInit);
  try {
    return { result: await build(), routes };
  } finally {
    unsubscribe('fastify.initialization', onInit);
  }
}

/**
 * Routes whose 200 answer never ends on its own (server-sent events): `inject` would wait on them
 * forever, so the sweeps over every route leave them out; event-stream.test.ts covers them through
 * a real socket (authentication, refusals, isolation).
 */
export const ENDLESS_STREAM_ROUTES: readonly string[] = ['/api/v1/events/stream'];

export function answersEndlessly(route: Pick<RouteOptions, 'url'>): boolean {
  return ENDLESS_STREAM_ROUTES.includes(route.url);
}
