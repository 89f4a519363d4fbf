/**
 * What every process (server, worker, CLI) does first: open the database, apply migrations,
 * load the catalog and wire the services. One place, so they can never disagree.
 */
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { OperatorDiscrepancy } from './core/operators/operator-discrepancy.js';
import type { OperatorConnectors, OperatorRoute } from './core/operators/operator-connector.js';
import { OperatorCatalog, loadDefaultCatalog } from './core/catalog/operator-catalog.js';
import { loadProviderCostsFile } from './operators/provider-costs-file.js';
import { createServices, type Services } from './services.js';
import { openDatabase } from './storage/database.js';
import { migrateToLatest } from './storage/migrator.js';
import { resolveSecret } from './secret.js';
import { loadOperatorsFile, type ConfiguredOperator } from './operators/operators-file.js';
import { OperatorRegistry } from './operators/operator-registry.js';
import { SandboxLedger } from './operators/sandbox/sandbox-ledger.js';
import { SandboxOperator } from './operators/sandbox/sandbox-operator.js';
import { systemClock } from './core/shared/clock.js';
import { BreakerConnector, type BreakerSettings } from './operators/circuit-breaker.js';
import { AkweMetrics } from './metrics/akwe-metrics.js';
import { configuredMailer } from './notifications/configured-mailer.js';

export interface RuntimeOptions {
  operators?: OperatorConnectors;
  /** A process that runs for long (server, worker): SQLite checkpoints on a thread of their own. */
  longRunning?: boolean;
  /** SQLite's sync of the write-ahead log (tests make the disk fail). */
  sqliteSyncToDisk?: () => Promise<void>;
  /** Where operator discrepancies are reported at error level. */
  logger?: Logger;
}

export async function openRuntime(config: Config, options: RuntimeOptions = {}): Promise<Services> {
  const catalog = config.catalogFile ? OperatorCatalog.fromFile(config.catalogFile) : loadDefaultCatalog();
  // Read before the database opens: a bad operators file stops the start with every problem listed.
  const operators = options.operators ?? configuredOperators(config, catalog);
  const database = openDatabase(config.database, { backgroundCheckpoints: options.longRunning ?? false, sqliteSyncToDisk: options.sqliteSyncToDisk });
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  // Process metrics only for the processes that run for long (server, worker), not a CLI command.
  const metrics = new AkweMetrics({ database, processMetrics: options.longRunning ?? false });
  return createServices({
    database,
    catalog,
    metrics,
    serverSecret: () => resolveSecret(config),
    operators,
    onDiscrepancy: options.logger && discrepancyReporter(options.logger),
    leaseSeconds: config.idempotencyLeaseSeconds,
    apiKeyCacheMs: config.apiKeyCacheMs,
    sandboxFloatMinor: config.sandboxFloatMinor,
    sandboxPayoutDelayMs: config.sandboxPayoutDelayMs,
    payoutCheckIntervalMs: config.payoutCheckIntervalMs,
    floatReadIntervalMs: config.floatReadIntervalMs,
    paymentCheckMinIntervalMs: config.paymentCheckMinIntervalMs,
    paymentExpiryGraceMs: config.paymentExpiryGraceMs,
    paymentLateCheckWindowMs: config.paymentLateCheckWindowMs,
    bulkMaxLines: config.bulkMaxLines,
    transferLimits: { maxMinor: config.transferMaxMinor, dailyMaxMinor: config.transferDailyMaxMinor },
    approvalExpiryMs: config.approvalExpiryHours * 3_600_000,
    settlementAccountCooling: { liveMs: config.settlementAccountCoolingMs, testMs: config.settlementAccountTestCoolingMs },
    mailer: configuredMailer(config, options.logger),
    publicUrl: config.publicUrl,
    dataDir: config.dataDir,
    providerCosts: config.providerCostsFile ? loadProviderCostsFile(config.providerCostsFile) : undefined,
    onMailError: options.logger && ((error: unknown) => options.logger?.error({ err: error }, 'a dashboard email could not be sent (password reset)')),
    onFloatAlertMailError:
      options.logger &&
      ((error: unknown) => options.logger?.error({ err: error }, 'a low-float alert email could not be sent to the platform administrators (docs/operations.md "Floats")')),
  });
}

/** The sandbox for test traffic, and the live connectors OPERATORS_FILE configures (none without it). */
export function configuredOperators(config: Config, catalog: OperatorCatalog): OperatorRegistry {
  const live = config.operatorsFile
    ? loadOperatorsFile(config.operatorsFile, {
        catalog,
        publicUrl: config.publicUrl,
        serverSecret: () => resolveSecret(config),
        clock: systemClock,
        leaseSeconds: config.idempotencyLeaseSeconds,
      })
    : [];
  return new OperatorRegistry({
    test: new SandboxOperator(new SandboxLedger(), { payoutDelayMs: config.sandboxPayoutDelayMs }),
    live: liveRoutes(live, config.operatorBreaker),
  });
}

/** Every new operator discrepancy is an error in the log: money may be where our records say it is not. */
function discrepancyReporter(logger: Logger): (discrepancy: OperatorDiscrepancy) => void {
  return (discrepancy) =>
    logger.error(
      {
        discrepancy: {
          id: discrepancy.id,
          resource: discrepancy.resourceType,
          resource_id: discrepancy.resourceId,
          ours: discrepancy.ourStatus,
          operator_says: discrepancy.operatorStatus,
          operator: discrepancy.operator,
        },
      },
      'operator discrepancy: the operator reports a status our records refuse; a person must decide (akwe reconcile discrepancies)',
    );
}

/** Each configured route behind a circuit breaker of its own, grouped by operator in the file's order. */
export function liveRoutes(configured: readonly ConfiguredOperator[], breaker: BreakerSettings): Map<string, OperatorRoute[]> {
  const routes = new Map<string, OperatorRoute[]>();
  for (const entry of configured) {
    const route: OperatorRoute = {
      name: entry.route,
      label: entry.label,
      connector: new BreakerConnector(entry.connector, breaker),
      ...(entry.flows ? { flows: entry.flows } : {}),
      ...(entry.lowFloatMinor !== undefined ? { lowFloatMinor: entry.lowFloatMinor } : {}),
    };
    routes.set(entry.gatewayCode, [...(routes.get(entry.gatewayCode) ?? []), route]);
  }
  return routes;
}
