/**
 * What every process (server, worker, CLI) does first: open the database, apply migrations,
 * load the catalog and wire the services. One place, so they can never disagree.
 */
import type { Config } from './config.js';
import type { OperatorConnectors } from './core/operators/operator-connector.js';
import { OperatorCatalog, loadDefaultCatalog } from './core/catalog/operator-catalog.js';
import { createServices, type Services } from './services.js';
import { openDatabase } from './storage/database.js';
import { migrateToLatest } from './storage/migrator.js';
import { resolveSecret } from './secret.js';

export interface RuntimeOptions {
  operators?: OperatorConnectors;
  /** A process that runs for long (server, worker): SQLite checkpoints on a thread of their own. */
  longRunning?: boolean;
  /** SQLite's sync of the write-ahead log (tests make the disk fail). */
  sqliteSyncToDisk?: () => Promise<void>;
}

export async function openRuntime(config: Config, options: RuntimeOptions = {}): Promise<Services> {
  const catalog = config.catalogFile ? OperatorCatalog.fromFile(config.catalogFile) : loadDefaultCatalog();
  const database = openDatabase(config.database, { backgroundCheckpoints: options.longRunning ?? false, sqliteSyncToDisk: options.sqliteSyncToDisk });
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return createServices({ database, catalog, serverSecret: () => resolveSecret(config), operators: options.operators, leaseSeconds: config.idempotencyLeaseSeconds, sandboxFloatMinor: config.sandboxFloatMinor, sandboxPayoutDelayMs: config.sandboxPayoutDelayMs, payoutCheckIntervalMs: config.payoutCheckIntervalMs, bulkMaxLines: config.bulkMaxLines });
}
