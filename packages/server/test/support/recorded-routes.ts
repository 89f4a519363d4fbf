/**
 * Every route an app registers, as Fastify sees it (method, url, schema, config), HEAD twins of
 * GET routes included: tests that must cover every route (rate limits, random input) enumerate
 * them here, so a new route joins them without editing the test.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** Runs `build` while recording the routes of every Fastify instance created meanwhile. */
export async function recordingRoutes<T>(build: () => Promise<T>): Promise<{ built: T; routes: RouteOptions[] }> {
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
    return { built: await build(), routes };
  } finally {
    unsubscribe('fastify.initialization', onInit);
  }
}
