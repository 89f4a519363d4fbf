import type { FastifyPluginAsync } from 'fastify';
import type { AkweDatabase } from '../../storage/database.js';
import { pendingMigrations } from '../../storage/migrator.js';

export interface HealthRoutesOptions {
  database: AkweDatabase;
}

/** Liveness and readiness, outside /api/v1 and without a key, for load balancers and orchestrators. */
export const healthRoutes: FastifyPluginAsync<HealthRoutesOptions> = async (app, { database }) => {
  app.get('/health', { config: { public: true }, schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/ready', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    try {
      await database.ping();
      const pending = await pendingMigrations(database);
      if (pending.length > 0) return reply.status(503).send({ status: 'not_ready', reason: `pending migrations: ${pending.join(', ')}` });
      return { status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.status(503).send({ status: 'not_ready', reason: 'database unreachable' });
    }
  });
};
