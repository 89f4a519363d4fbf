/** Builds the real app on a real database for one test file, plus helpers to make merchants and keys. */
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import type { KycStatus } from '../../src/core/merchants/merchant.js';
import type { Scope } from '../../src/core/merchants/scopes.js';
import type { Clock } from '../../src/core/ports.js';
import type { OperatorConnectors } from '../../src/core/operators/operator-connector.js';
import type { PhaseFaults } from '../../src/core/operators/recorded-call.js';
import { createServices, type Services } from '../../src/services.js';
import { loadProviderCostsFile } from '../../src/operators/provider-costs-file.js';
import { configuredMailer } from '../../src/notifications/configured-mailer.js';
import type { Resolver } from '../../src/webhooks/ssrf-guard.js';
import { exampleHostsResolver } from './example-hosts.js';
import type { OpenTestDatabase, TestDatabase } from './test-databases.js';

/** Seals webhook secrets in tests (never used outside them). */
export const TEST_SERVER_SECRET = 'test-server-secret-0123456789abcdefghijklmnop';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  config: Config;
  db: OpenTestDatabase;
  /** A merchant with a test key and a live key (full access unless scopes are given). */
  newMerchant(options?: { name?: string; kyc?: KycStatus; scopes?: Scope[] }): Promise<{ merchantId: string; testKey: string; liveKey: string }>;
  close(): Promise<void>;
}

/** Rate limits are lifted so suites can make many calls per key; the rate-limit suite sets its own. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    AKWE_DEV: 'true',
    PUBLIC_URL: 'http://localhost:8080',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_CREATE_PER_MINUTE: '1000000',
    RATE_LIMIT_READ_PER_MINUTE: '1000000',
    RATE_LIMIT_REFUND_PER_MINUTE: '1000000',
    RATE_LIMIT_MANAGE_PER_MINUTE: '1000000',
    RATE_LIMIT_PAYOUT_PER_MINUTE: '1000000',
    RATE_LIMIT_TRANSFER_PER_MINUTE: '1000000',
    RATE_LIMIT_SETTLEMENT_PER_MINUTE: '1000000',
    ...env,
  });
}

export async function buildTestApp(
  target: TestDatabase,
  options: {
    env?: Record<string, string>;
    clock?: Clock;
    logger?: Logger;
    beforeReady?: (app: FastifyInstance) => void | Promise<void>;
    /** Operator adapters (default: the sandbox for test, the unconfigured live gateway). */
    operators?: OperatorConnectors;
    /** Probe routes inside the authenticated /api/v1 scope. */
    apiExtensions?: (api: FastifyInstance) => void | Promise<void>;
    /** Crash points between recorded phases. */
    faults?: PhaseFaults;
    /** Resolves the names of webhook and callback URLs at registration (default: exampleHostsResolver()). */
    resolver?: Resolver;
    /** Rows per database read of a CSV export (small to cross pages). */
    exportPageSize?: number;
  } = {},
): Promise<TestApp> {
  const db = await target.open();
  const config = testConfig(options.env);
  const services = createServices({
    database: db.database,
    catalog: loadDefaultCatalog(),
    clock: options.clock,
    operators: options.operators,
    serverSecret: () => TEST_SERVER_SECRET,
    faults: options.faults,
    leaseSeconds: config.idempotencyLeaseSeconds,
    apiKeyCacheMs: config.apiKeyCacheMs,
    sandboxFloatMinor: config.sandboxFloatMinor,
    sandboxPayoutDelayMs: config.sandboxPayoutDelayMs,
    payoutCheckIntervalMs: config.payoutCheckIntervalMs,
    bulkMaxLines: config.bulkMaxLines,
    transferLimits: { maxMinor: config.transferMaxMinor, dailyMaxMinor: config.transferDailyMaxMinor },
    settlementAccountCooling: { liveMs: config.settlementAccountCoolingMs, testMs: config.settlementAccountTestCoolingMs },
    exportPageSize: options.exportPageSize,
    mailer: configuredMailer(config),
    publicUrl: config.publicUrl,
    dataDir: config.dataDir,
    providerCosts: config.providerCostsFile ? loadProviderCostsFile(config.providerCostsFile) : undefined,
  });
  const app = await buildApp({ config, services, logger: options.logger, apiExtensions: options.apiExtensions, resolver: options.resolver ?? exampleHostsResolver() });
  await options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    services,
    config,
    db,
    async newMerchant({ name = 'Test Merchant', kyc = 'validated', scopes } = {}) {
      const { merchant } = await services.merchants.createMerchant({ name, kycStatus: kyc, keyEnvironments: [] });
      const testKey = await services.merchants.createKey({ merchantId: merchant.id, environment: 'test', scopes });
      const liveKey = await services.merchants.createKey({ merchantId: merchant.id, environment: 'live', scopes });
      return { merchantId: merchant.id, testKey: testKey.secret, liveKey: liveKey.secret };
    },
    async close() {
      await app.close();
      await db.close();
    },
  };
}
