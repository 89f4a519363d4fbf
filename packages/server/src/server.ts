/**
 * The server shell: builds the app, listens, runs the workers in the same process when asked,
 * and shuts down in order: stop accepting, then (side by side) finish requests in flight and worker
 * passes, each given SHUTDOWN_GRACE_MS before the peers still holding them are cut off, then close
 * the database.
 */
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import type { OperatorConnectors } from './core/operators/operator-connector.js';
import { ensureDemoMerchant } from './demo-merchant.js';
import { openRuntime } from './runtime.js';
import { resolveSecret } from './secret.js';
import type { Services } from './services.js';
import { createJobs } from './workers/jobs.js';
import { WorkerPool } from './workers/worker-pool.js';
import { bridgeWorkSignals } from './workers/signal-bridge.js';
import { listenForKeyInvalidations } from './storage/postgres/key-invalidations.js';
import { startMetricsServer, type MetricsServer } from './metrics/metrics-server.js';

export interface RunningServer {
  app: FastifyInstance;
  services: Services;
  url: string;
  workers: WorkerPool | undefined;
  /** The METRICS_PORT listener, when configured. */
  metricsServer: MetricsServer | undefined;
  /** Drains and closes everything; safe to call more than once. */
  shutdown(): Promise<void>;
}

export interface StartOptions {
  logger: Logger;
  /** Where first-start notices go (the demo key): the terminal, not the log stream. */
  announce?: (text: string) => void;
  /** Operator adapters (tests hold a request inside an operator call). */
  operators?: OperatorConnectors;
  /** SQLite's sync of the write-ahead log (tests make the disk fail). */
  sqliteSyncToDisk?: () => Promise<void>;
}

export async function startServer(config: Config, { logger, announce = (t) => process.stdout.write(`${t}\n`), operators, sqliteSyncToDisk }: StartOptions): Promise<RunningServer> {
  resolveSecret(config);
  const services = await openRuntime(config, { operators, longRunning: true, sqliteSyncToDisk, logger });
  let app: FastifyInstance;
  try {
    // Only a development server invents a merchant; production starts empty and uses the CLI.
    if (config.dev) await announceDemoMerchant(config, services, announce);
    app = await buildApp({ config, services, logger });
  } catch (error) {
    await services.database.close();
    throw error;
  }
  const keepAlive = keepAliveDrain(app);
  let workers: WorkerPool | undefined;
  let bridge: { close(): Promise<void> } | undefined;
  let metricsServer: MetricsServer | undefined;
  try {
    bridge = await connectSignals(services, logger, { keys: true });
    await app.listen({ port: config.port, host: config.host });
    metricsServer = await serveMetrics(config, services, logger);
  } catch (error) {
    await app.close();
    await metricsServer?.close();
    await bridge?.close();
    await services.database.close();
    throw error;
  }
  if (config.runWorkers) {
    workers = workerPool(services, config, logger);
    workers.start();
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
  logger.info({ url, database: services.database.description, workers: workers?.jobNames ?? 'off' }, 'akwe is serving');

  let closing: Promise<void> | undefined;
  const shutdown = () =>
    (closing ??= (async () => {
      logger.info('shutting down: draining requests and worker jobs');
      keepAlive.startDraining();
      // HTTP and the workers drain side by side, each cutting its peers off after the grace.
      await Promise.all([closeHttp(app, config.shutdownGraceMs, logger), workers?.stop(config.shutdownGraceMs)]);
      await metricsServer?.close();
      await bridge?.close();
      await services.database.close();
      logger.info('shut down cleanly');
    })());

  return { app, services, url, workers, metricsServer, shutdown };
}

/**
 * Stops accepting and waits for the requests in flight. A client still holding a connection after
 * `graceMs` (an upload trickling in, headers never finished, an answer never read) has it
 * destroyed: app.close() would otherwise wait for Node's request timeout (5 min). Handlers whose
 * client has gone still run to the end (payments, idempotency keys), and are waited for.
 */
async function closeHttp(app: FastifyInstance, graceMs: number, logger: Logger): Promise<void> {
  const cutOff = setTimeout(() => {
    logger.warn('shutdown: closing the connections still open after the grace');
    app.server.closeAllConnections();
  }, graceMs);
  try {
    await app.close();
  } finally {
    clearTimeout(cutOff);
  }
  await app.inFlightWork.idle();
}

/**
 * Requests in flight when shutdown starts are answered with `Connection: close`. Otherwise their
 * keep-alive connections stay open after the answer and app.close() waits out the keep-alive
 * timeout (72 s in Fastify), longer than SHUTDOWN_TIMEOUT_MS: the process would exit 1.
 */
function keepAliveDrain(app: FastifyInstance): { startDraining(): void } {
  const inFlight = new Set<ServerResponse>();
  let draining = false;
  const closeAfterAnswer = (response: ServerResponse) => {
    if (!response.headersSent) response.setHeader('connection', 'close');
    // Headers already sent (a streamed answer): close the connection once it is idle again.
    response.once('close', () => app.server.closeIdleConnections());
  };
  app.server.on('request', (_request, response: ServerResponse) => {
    if (draining) return closeAfterAnswer(response);
    inFlight.add(response);
    response.once('close', () => inFlight.delete(response));
  });
  return {
    startDraining() {
      draining = true;
      for (const response of inFlight) closeAfterAnswer(response);
    },
  };
}

async function announceDemoMerchant(config: Config, services: Services, announce: (text: string) => void): Promise<void> {
  const demo = await ensureDemoMerchant(services);
  if (!demo) {
    announce('Merchants exist already. List them with `npx akwe merchants list`; make a key with `npx akwe keys create --merchant ID --env test`.');
    return;
  }
  announce(
    [
      '',
      `Created the demo merchant ${demo.merchantId}. Its test API key (shown once, stored only as a hash):`,
      '',
      `    ${demo.testKey}`,
      '',
      `Try: curl -H "Authorization: Bearer ${demo.testKey}" ${config.publicUrl}/api/v1/collect/payments/operators/`,
      '',
      `The dashboard: ${config.publicUrl}/dashboard (sign up; without SMTP_URL, emails are files in ${config.dataDir}/mailbox/).`,
      '',
    ].join('\n'),
  );
}

/** Runs only the workers (scaled-out deployments). */
export async function startWorker(
  config: Config,
  { logger }: { logger: Logger },
): Promise<{ workers: WorkerPool; services: Services; metricsServer: MetricsServer | undefined; shutdown(): Promise<void> }> {
  const services = await openRuntime(config, { longRunning: true, logger });
  let metricsServer: MetricsServer | undefined;
  try {
    metricsServer = await serveMetrics(config, services, logger);
  } catch (error) {
    await services.database.close();
    throw error;
  }
  const bridge = await connectSignals(services, logger);
  const workers = workerPool(services, config, logger);
  workers.start();
  logger.info({ jobs: workers.jobNames, database: services.database.description }, 'akwe worker is running');
  let closing: Promise<void> | undefined;
  return {
    workers,
    services,
    metricsServer,
    shutdown: () =>
      (closing ??= (async () => {
        await workers.stop(config.shutdownGraceMs);
        await metricsServer?.close();
        await bridge?.close();
        await services.database.close();
      })()),
  };
}

/** The Prometheus listener on METRICS_PORT (private address), or none when it is unset. */
async function serveMetrics(config: Config, services: Services, logger: Logger): Promise<MetricsServer | undefined> {
  if (config.metrics.port === undefined) return undefined;
  const server = await startMetricsServer(services.metrics, { host: config.metrics.host, port: config.metrics.port, logger });
  logger.info({ url: `${server.url}/metrics` }, 'metrics are served');
  return server;
}

/**
 * With several processes on one database (PostgreSQL), each one's commits wake every worker; an
 * API process (`keys`) also hears the key revocations and merchant changes its key cache must forget.
 */
async function connectSignals(services: Services, logger: Logger, { keys = false } = {}): Promise<{ close(): Promise<void> } | undefined> {
  const notifications = services.database.notifications;
  if (!notifications) return undefined;
  const keyListener = keys ? await listenForKeyInvalidations(notifications, services.merchants) : undefined;
  try {
    const work = await bridgeWorkSignals(services.signals, notifications, logger.child({ component: 'workers' }));
    return { close: () => Promise.all([work.close(), keyListener?.close()]).then(() => undefined) };
  } catch (error) {
    await keyListener?.close();
    throw error;
  }
}

function workerPool(services: Services, config: Config, logger: Logger): WorkerPool {
  return new WorkerPool(createJobs(services, config, logger.child({ component: 'webhooks' })), logger.child({ component: 'workers' }), services.signals);
}
