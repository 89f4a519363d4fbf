import { Command } from 'commander';
import { loadConfig } from '../config.js';
import { createLogger } from '../logging.js';
import { startServer, startWorker } from '../server.js';
import { openDatabase } from '../storage/database.js';
import { migrateToLatest } from '../storage/migrator.js';
import { output } from './output.js';

/** SIGTERM/SIGINT: drain, then exit 0; if draining takes longer than allowed, exit 1. */
function exitOnSignal(shutdown: () => Promise<void>, timeoutMs: number, log: (msg: string) => void): void {
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal} received`);
    setTimeout(() => {
      log(`shutdown took longer than ${timeoutMs} ms; exiting`);
      process.exit(1);
    }, timeoutMs).unref();
    shutdown().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

export function serveCommands(): Command[] {
  const serve = new Command('serve')
    .description('serve the API (and run the workers unless AKWE_RUN_WORKERS=false)')
    .action(async () => {
      const config = loadConfig();
      const logger = createLogger({ level: config.logLevel, pretty: config.dev && process.stdout.isTTY });
      const server = await startServer(config, { logger });
      exitOnSignal(server.shutdown, config.shutdownTimeoutMs, (m) => logger.info(m));
    });

  const worker = new Command('worker').description('run only the background workers').action(async () => {
    const config = loadConfig();
    const logger = createLogger({ level: config.logLevel, pretty: config.dev && process.stdout.isTTY });
    const running = await startWorker(config, { logger });
    exitOnSignal(running.shutdown, config.shutdownTimeoutMs, (m) => logger.info(m));
  });

  const migrate = new Command('migrate')
    .description('apply pending database migrations')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const database = openDatabase(loadConfig().database);
      try {
        const results = await migrateToLatest(database);
        const applied = results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
        output(options.json, { database: database.description, applied }, () =>
          applied.length > 0 ? `applied ${applied.join(', ')} to ${database.description}` : `${database.description} is up to date`,
        );
      } finally {
        await database.close();
      }
    });

  return [serve, worker, migrate];
}
