import { Command } from 'commander';
import { loadConfig } from '../config.js';
import { limitHeapGrowth } from './heap-growth.js';
import { output } from './output.js';
import { processLifetime } from './process-lifetime.js';

/** `serve` and `worker`: start, then run until a signal, or a database that fails, stops the process. */
async function runUntilStopped(start: 'startServer' | 'startWorker'): Promise<void> {
  limitHeapGrowth();
  const config = loadConfig();
  const [{ createLogger }, processes] = await Promise.all([import('../logging.js'), import('../server.js')]);
  const logger = createLogger({ level: config.logLevel, pretty: config.dev && process.stdout.isTTY });
  const running = await processes[start](config, { logger });
  const lifetime = processLifetime({ shutdown: running.shutdown, timeoutMs: config.shutdownTimeoutMs, logger });
  lifetime.stopOnSignals();
  lifetime.stopWhenDatabaseFails(running.services.database);
}

export function serveCommands(): Command[] {
  const serve = new Command('serve').description('serve the API (and run the workers unless AKWE_RUN_WORKERS=false)').action(() => runUntilStopped('startServer'));

  const worker = new Command('worker').description('run only the background workers').action(() => runUntilStopped('startWorker'));

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
