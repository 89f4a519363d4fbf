import type { FastifyPluginAsync } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AkweDatabase } from '../../storage/database.js';
import { pendingMigrations } from '../../storage/migrator.js';

export interface HealthRoutesOptions {
  database: AkweDatabase;
  /** How long /ready waits for the database (READY_TIMEOUT_MS): a probe must answer before its own timeout. */
  timeoutMs: number;
}

type Readiness = { ready: true } | { ready: false; reason: string };

/** Liveness and readiness, outside /api/v1 and without a key, for load balancers and orchestrators. */
export const healthRoutes: FastifyPluginAsync<HealthRoutesOptions> = async (app, { database, timeoutMs }) => {
  app.get('/health', { config: { public: true }, schema: { hide: true } }, async () => ({ status: 'ok' }));

  const checkDatabase = async (): Promise<Readiness> => {
    await database.ping();
    const pending = await pendingMigrations(database);
    return pending.length > 0 ? { ready: false, reason: `pending migrations: ${pending.join(', ')}` } : { ready: true };
  };

  app.get('/ready', { config: { public: true }, schema: { hide: true } }, async (request, reply) => {
    // A database that accepts connections but never answers (a network partition) must not hold
    // the probe until the orchestrator's own timeout: it answers 503 with the reason instead.
    const stopWaiting = new AbortController();
    const tooLate = sleep(timeoutMs, { ready: false, reason: `database did not answer within ${timeoutMs} ms` } as Readiness, { signal: stopWaiting.signal });
    try {
      const readiness = await Promise.race([checkDatabase(), tooLate]);
      if (readiness.ready) return { status: 'ready' };
      return reply.status(503).send({ status: 'not_ready', reason: readiness.reason });
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.status(503).send({ status: 'not_ready', reason: 'database unreachable' });
    } finally {
      stopWaiting.abort();
      tooLate.catch(() => {});
    }
  });
};
