import type { FastifyInstance } from 'fastify';
import type { AkweMetrics } from './akwe-metrics.js';

/** What a request no route matched is counted under: its raw URL would make a series per probe. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Counts every answered request and its latency by the route's pattern (`/api/v1/collect/payments/:id`),
 * never the URL itself, whose ids and query strings would make a series per request. Two map
 * look-ups and an addition per request; nothing is read from the database.
 */
export function installHttpMetrics(app: FastifyInstance, metrics: AkweMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const method = request.method;
    metrics.httpRequests.inc({ route, method, status_code: String(reply.statusCode) });
    metrics.httpDuration.observe({ route, method }, reply.elapsedTime / 1000);
  });
}
