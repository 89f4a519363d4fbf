import { Command } from 'commander';
import { loadConfig } from '../config.js';
import { limitHeapGrowth } from './heap-growth.js';
import { output } from './output.js';
import { processLifetime } from './process-lifetime.js';

export function serveCommands(): Command[] {
  const serve = new Command('serve').description('serve the API (and run the workers unless AKWE_RUN_WORKERS=false)').action(async () => {
    limitHeapGrowth();
    const config = loadConfig();
    const [{ createLogger }, { startServer }] = await Promise.all([import('../logging.js'), import('../server.js')]);
    const logger = createLogger({ level: config.logLevel, pretty: config.dev && process.stdout.isTTY });
    const server = await startServer(config, { logger });
    const lifetime = processLifetime({ shutdown: server.shutdown, timeoutMs: config.shutdownTimeoutMs, logger });
    lifetime.stopOnSignals();
    lifetime.stopWhenDatabaseFails(server.services.database);
  });

  const worker = new Command('worker').description('run only the background workers').action(async () => {
    limitHeapGrowth();
    const config = loadConfig();
    const [{ createLogger }, { startWorker }] = await Promise.all([import('../logging.js'), import('../server.js')]);
    const logger = createLogger({ level: config.logLevel, pretty: config.dev && process.stdout.isTTY });
    const running = await startWorker(config, { logger });
    const lifetime = processLifetime({ shutdown: running.shutdown, timeoutMs: config.shutdownTimeoutMs, logger });
    lifetime.stopOnSignals();
    lifetime.stopWhenDatabaseFails(running.services.database);
  });

  const migrate = new Command('migrate')
    .description('apply pending database migrations')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const [{ openDatabase }, { migrateToLatest }] = await Promise.all([import('../storage/database.js'), import('../storage/migrator.js')]);
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
