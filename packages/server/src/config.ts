/**
 * Environment -> one frozen, typed Config. Every bad value is reported at once, each with a
 * message that names the variable and what it accepts, so a misconfigured deploy fails at start.
 */
import { isIP } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { DEFAULT_TRANSFER_LIMITS } from './core/transfers/transfer-service.js';
import { DEFAULT_EVENT_STREAM_LIMITS } from './core/events/event-stream-slots.js';

/**
 * API_KEY_CACHE_MS's default. A revocation reaches the other processes by a notice on PostgreSQL;
 * this lifetime bounds it when there is none (SQLite, a notice lost), within the promised second.
 */
export const DEFAULT_API_KEY_CACHE_MS = 1_000;

export type DatabaseTarget = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

export interface RateLimitConfig {
  createPerMinute: number;
  readPerMinute: number;
  refundPerMinute: number;
  /** Non-payment writes: webhook endpoint changes, secret rotation, event resends. */
  managePerMinute: number;
  payoutPerMinute: number;
  transferPerMinute: number;
  /** Settlement creations and settlement-account changes. */
  settlementPerMinute: number;
}

/** The hosted checkout page's actions (form posts), per minute. */
export interface CheckoutLimitConfig {
  /** Per checkout token (RATE_LIMIT_CHECKOUT_PER_TOKEN). */
  perToken: number;
  /** Per client address, across checkouts (RATE_LIMIT_CHECKOUT_PER_IP). */
  perAddress: number;
}

/** Strict-Transport-Security on HTTPS answers (http/plugins/strict-transport-security.ts). */
export interface HstsConfig {
  /** HSTS_MAX_AGE seconds; 0 sends no header. Default: a year, or 0 with AKWE_DEV. */
  maxAgeSeconds: number;
  /** HSTS_INCLUDE_SUBDOMAINS: the rule covers every subdomain too (only when all of them serve HTTPS). */
  includeSubDomains: boolean;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  database: DatabaseTarget;
  redisUrl: string | undefined;
  /** Development setting: pretty logs, generated secret, private webhook targets allowed. */
  dev: boolean;
  /** Session-signing secret; when absent, serving needs AKWE_DEV (see secret.ts). */
  secret: string | undefined;
  dataDir: string;
  logLevel: string;
  bodyLimitBytes: number;
  rateLimits: RateLimitConfig;
  checkoutLimits: CheckoutLimitConfig;
  runWorkers: boolean;
  catalogFile: string | undefined;
  /** The shortest wait between two reconciliation checks of a live payment (PAYMENT_CHECK_MIN_INTERVAL_MS). */
  paymentCheckMinIntervalMs: number;
  /** How long a live payment its operator still holds at expiry is asked about before it expires (PAYMENT_EXPIRY_GRACE_SECONDS, in ms). */
  paymentExpiryGraceMs: number;
  /** How long after expiry a live payment that reached an operator is still checked (PAYMENT_LATE_CHECK_HOURS, in ms). */
  paymentLateCheckWindowMs: number;
  /** Each live connector's circuit breaker (OPERATOR_BREAKER_FAILURES, OPERATOR_BREAKER_HALF_OPEN_MS). */
  operatorBreaker: { failures: number; halfOpenAfterMs: number };
  /** Operator callbacks per client address and minute (RATE_LIMIT_OPERATOR_CALLBACKS_PER_IP). */
  operatorCallbacksPerMinute: number;
  /** The live connectors and their credentials (OPERATORS_FILE, JSON; docs/operators.md); none: live collects nothing. */
  operatorsFile: string | undefined;
  /** What each route's provider charges, per flow, for the revenue report's margins (PROVIDER_COSTS_FILE, JSON; docs/operations.md "Revenue"). */
  providerCostsFile: string | undefined;
  shutdownTimeoutMs: number;
  /**
   * How long a shutdown waits for what peers hold open (requests still arriving or being answered,
   * webhook sends awaiting an answer) before cutting it (SHUTDOWN_GRACE_MS).
   */
  shutdownGraceMs: number;
  /** How long an idempotency claim's holder (and an operator call's) is presumed alive. */
  idempotencyLeaseSeconds: number;
  /** How long an authenticated API key and its merchant are kept in memory (API_KEY_CACHE_MS); 0: not at all. */
  apiKeyCacheMs: number;
  /** How long /ready waits for the database before answering 503 (READY_TIMEOUT_MS). */
  readyTimeoutMs: number;
  /** The events stream's fallback poll, for events committed by another process (EVENT_STREAM_POLL_MS). */
  eventStreamPollMs: number;
  /** Open event streams per API key and per merchant, in this process (EVENT_STREAM_MAX_PER_KEY, EVENT_STREAM_MAX_PER_MERCHANT). */
  eventStreamLimits: { perKey: number; perMerchant: number };
  /** Centimes every test balance starts with (SANDBOX_FLOAT, in major units). */
  sandboxFloatMinor: number;
  /** How long a sandbox payout stays PROCESSING before its outcome (SANDBOX_PAYOUT_DELAY_MS). */
  sandboxPayoutDelayMs: number;
  /** How long after a hand-off (and between checks) a PROCESSING payout is asked about (PAYOUT_CHECK_INTERVAL_MS). */
  payoutCheckIntervalMs: number;
  /** How often each live route's provider float is read (FLOAT_READ_INTERVAL_SECONDS; docs/operations.md "Floats"). */
  floatReadIntervalMs: number;
  /**
   * The reverse proxies whose X-Forwarded-For is believed (TRUST_PROXY): none (the connection's
   * address is the client's), or their addresses and ranges. See trustedProxies below.
   */
  trustProxy: false | string[];
  /** Lines per bulk batch, JSON or CSV (BULK_MAX_LINES). */
  bulkMaxLines: number;
  /** The largest single wallet transfer, centimes (TRANSFER_MAX_MINOR). */
  transferMaxMinor: number;
  /** The most one merchant sends by transfer per UTC day, per environment and currency, centimes (TRANSFER_DAILY_MAX_MINOR). */
  transferDailyMaxMinor: number;
  /** How long a new or changed live settlement account waits before it is usable, ms (SETTLEMENT_ACCOUNT_COOLING_MS). */
  settlementAccountCoolingMs: number;
  /** The same for test accounts (SETTLEMENT_ACCOUNT_TEST_COOLING_MS; none by default, so test settlements can be tried at once). */
  settlementAccountTestCoolingMs: number;
  /** Hours after midnight UTC before the daily reconciliation fetches the day before's statements (RECONCILIATION_STATEMENT_HOUR_UTC). */
  reconciliationStatementHourUtc: number;
  /** How long a live money-out request waits for its second user's approval before it expires, hours (APPROVAL_EXPIRY_HOURS). */
  approvalExpiryHours: number;
  /** Bytes of a bulk batch's body: the CSV file, or the JSON of a create (BULK_MAX_BYTES). */
  bulkMaxBytes: number;
  /** Bytes of one KYC document (KYC_MAX_DOCUMENT_BYTES, 5 MiB by default). */
  kycMaxDocumentBytes: number;
  hsts: HstsConfig;
  /** The Prometheus listener (src/metrics/metrics-server.ts); off unless METRICS_PORT is set. */
  metrics: MetricsListenerConfig;
  /** The dashboard's emails go through this SMTP server (SMTP_URL); unset: files in <data dir>/mailbox. */
  smtpUrl: string | undefined;
  /** The From of the dashboard's emails (MAIL_FROM). */
  mailFrom: string;
  /** Dashboard sign-in, sign-up and password-reset requests per client address and minute (RATE_LIMIT_DASHBOARD_AUTH_PER_IP). */
  dashboardAuthPerMinute: number;
}

/** `GET /metrics` on a port of its own, apart from the API, on a private address. */
export interface MetricsListenerConfig {
  /** METRICS_PORT; undefined: no listener. 0 lets the system choose (tests). */
  port: number | undefined;
  /** METRICS_HOST: loopback by default; a private interface's address for a scraper on another machine. */
  host: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Every environment variable loadConfig reads, and only those: the reader accepts no other name,
 * and a test holds this list and docs/configuration.md together.
 */
export const configVariables = [
  'TRUST_PROXY',
  'SHUTDOWN_GRACE_MS',
  'DATABASE_URL',
  'AKWE_DEV',
  'PORT',
  'HOST',
  'AKWE_DATA_DIR',
  'PUBLIC_URL',
  'AKWE_SECRET',
  'SHUTDOWN_TIMEOUT_MS',
  'REDIS_URL',
  'LOG_LEVEL',
  'BODY_LIMIT_BYTES',
  'RATE_LIMIT_CREATE_PER_MINUTE',
  'RATE_LIMIT_READ_PER_MINUTE',
  'RATE_LIMIT_REFUND_PER_MINUTE',
  'RATE_LIMIT_MANAGE_PER_MINUTE',
  'RATE_LIMIT_PAYOUT_PER_MINUTE',
  'RATE_LIMIT_TRANSFER_PER_MINUTE',
  'RATE_LIMIT_SETTLEMENT_PER_MINUTE',
  'RATE_LIMIT_CHECKOUT_PER_TOKEN',
  'RATE_LIMIT_CHECKOUT_PER_IP',
  'AKWE_RUN_WORKERS',
  'AKWE_CATALOG_FILE',
  'OPERATORS_FILE',
  'PROVIDER_COSTS_FILE',
  'PAYMENT_CHECK_MIN_INTERVAL_MS',
  'PAYMENT_EXPIRY_GRACE_SECONDS',
  'PAYMENT_LATE_CHECK_HOURS',
  'OPERATOR_BREAKER_FAILURES',
  'OPERATOR_BREAKER_HALF_OPEN_MS',
  'RATE_LIMIT_OPERATOR_CALLBACKS_PER_IP',
  'IDEMPOTENCY_LEASE_SECONDS',
  'API_KEY_CACHE_MS',
  'READY_TIMEOUT_MS',
  'EVENT_STREAM_POLL_MS',
  'EVENT_STREAM_MAX_PER_KEY',
  'EVENT_STREAM_MAX_PER_MERCHANT',
  'SANDBOX_FLOAT',
  'SANDBOX_PAYOUT_DELAY_MS',
  'PAYOUT_CHECK_INTERVAL_MS',
  'FLOAT_READ_INTERVAL_SECONDS',
  'BULK_MAX_LINES',
  'BULK_MAX_BYTES',
  'KYC_MAX_DOCUMENT_BYTES',
  'TRANSFER_MAX_MINOR',
  'TRANSFER_DAILY_MAX_MINOR',
  'SETTLEMENT_ACCOUNT_COOLING_MS',
  'SETTLEMENT_ACCOUNT_TEST_COOLING_MS',
  'RECONCILIATION_STATEMENT_HOUR_UTC',
  'APPROVAL_EXPIRY_HOURS',
  'HSTS_MAX_AGE',
  'HSTS_INCLUDE_SUBDOMAINS',
  'METRICS_PORT',
  'METRICS_HOST',
  'SMTP_URL',
  'MAIL_FROM',
  'RATE_LIMIT_DASHBOARD_AUTH_PER_IP',
] as const;

export type ConfigVariable = (typeof configVariables)[number];

type Env = Record<string, string | undefined>;

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Reads values one variable at a time and collects every problem instead of stopping at the first. */
class EnvReader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  raw(name: ConfigVariable): string | undefined {
    const value = this.env[name];
    return value === undefined || value.trim() === '' ? undefined : value.trim();
  }

  string(name: ConfigVariable, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  integer(name: ConfigVariable, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max} (got "${value}")`);
      return fallback;
    }
    return Number(value);
  }

  boolean(name: ConfigVariable, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(value)) return true;
    if (['0', 'false', 'no', 'off'].includes(value)) return false;
    this.problems.push(`${name} must be true or false (got "${value}")`);
    return fallback;
  }

  oneOf(name: ConfigVariable, fallback: string, allowed: string[]): string {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!allowed.includes(value)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
      return fallback;
    }
    return value;
  }

  url(name: ConfigVariable, protocols: string[]): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      this.problems.push(`${name} must be a URL (${protocols.join(' or ')})`);
      return undefined;
    }
    if (!protocols.includes(parsed.protocol)) {
      this.problems.push(`${name} must start with ${protocols.join(' or ')} (got "${parsed.protocol}")`);
      return undefined;
    }
    return value;
  }
}

/** proxy-addr's names for the private ranges a proxy in the same network has. */
const NAMED_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: unset, the connection's address is the client's (a client cannot choose it). Set,
 * X-Forwarded-For is believed from the proxies at those addresses and ranges only. Neither "trust
 * everyone" nor a hop count is offered: with either, anyone reaching the server directly could
 * pick their own address and escape the per-address limits (Fastify itself ignores hop counts).
 */
function trustedProxies(reader: EnvReader): false | string[] {
  const value = reader.raw('TRUST_PROXY');
  if (value === undefined) return false;
  const entries = value.split(',').map((entry) => entry.trim());
  if (entries.every((entry) => NAMED_RANGES.includes(entry) || isAddressOrRange(entry))) return entries;
  reader.problems.push(`TRUST_PROXY must be the proxies' addresses or ranges separated by commas, e.g. 10.0.0.0/8,loopback (got "${value}")`);
  return false;
}

function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * SHUTDOWN_GRACE_MS: 10 s by default, or half of SHUTDOWN_TIMEOUT_MS when that is shorter, so the
 * drain after the grace still fits before the process gives up; set explicitly, it must be shorter.
 */
function shutdownGrace(reader: EnvReader, timeout: number): number {
  const explicit = reader.raw('SHUTDOWN_GRACE_MS') !== undefined;
  const grace = reader.integer('SHUTDOWN_GRACE_MS', Math.min(10_000, Math.floor(timeout / 2)), 0, 600_000);
  if (explicit && grace >= timeout && timeout > 0) reader.problems.push(`SHUTDOWN_GRACE_MS must be shorter than SHUTDOWN_TIMEOUT_MS (${timeout}); got ${grace}`);
  return grace;
}

/** METRICS_PORT and METRICS_HOST; the API's own port is refused, since the point is to keep them apart. */
function metricsListener(reader: EnvReader, apiPort: number): MetricsListenerConfig {
  const port = reader.raw('METRICS_PORT') === undefined ? undefined : reader.integer('METRICS_PORT', 0, 0, 65535);
  const host = reader.string('METRICS_HOST', '127.0.0.1');
  if (port !== undefined && port !== 0 && port === apiPort) reader.problems.push(`METRICS_PORT must differ from PORT (${apiPort}): metrics are served apart from the API`);
  if (isIP(host) === 0 && host !== 'localhost') reader.problems.push(`METRICS_HOST must be an IP address or localhost (got "${host}")`);
  return { port, host };
}

function databaseTarget(reader: EnvReader, dataDir: string): DatabaseTarget {
  const url = reader.url('DATABASE_URL', ['postgres:', 'postgresql:', 'sqlite:', 'file:']);
  if (url === undefined) return { kind: 'sqlite', file: resolve(dataDir, 'akwe.db') };
  // URL schemes are case-insensitive (Postgres://… is PostgreSQL); URL lower-cases the protocol.
  const protocol = new URL(url).protocol;
  if (protocol === 'postgres:' || protocol === 'postgresql:') return { kind: 'postgres', url };
  // sqlite:relative/or/absolute.db or file:… — a path, resolved against the working directory.
  let path: string;
  try {
    path = decodeURIComponent(url.replace(/^(sqlite|file):(\/\/)?/i, ''));
  } catch {
    reader.problems.push('DATABASE_URL has a broken %-escape in its file path (write % as %25)');
    return { kind: 'sqlite', file: resolve(dataDir, 'akwe.db') };
  }
  if (path === '') {
    reader.problems.push('DATABASE_URL with sqlite: must name a file, e.g. sqlite:./data/akwe.db');
  }
  return { kind: 'sqlite', file: isAbsolute(path) ? path : resolve(path) };
}

export function loadConfig(env: Env = process.env): Config {
  const reader = new EnvReader(env);
  const dev = reader.boolean('AKWE_DEV', false);
  const port = reader.integer('PORT', 8080, 0, 65535);
  const host = reader.string('HOST', '0.0.0.0');
  const dataDir = resolve(reader.string('AKWE_DATA_DIR', './data'));
  const publicUrl = (reader.url('PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const secret = reader.raw('AKWE_SECRET');
  if (secret !== undefined && secret.length < 32) {
    reader.problems.push('AKWE_SECRET must be at least 32 characters long');
  }

  const shutdownTimeoutMs = reader.integer('SHUTDOWN_TIMEOUT_MS', 30_000, 0, 600_000);

  const config: Config = {
    port,
    host,
    publicUrl,
    database: databaseTarget(reader, dataDir),
    redisUrl: reader.url('REDIS_URL', ['redis:', 'rediss:']),
    dev,
    secret,
    dataDir,
    logLevel: reader.oneOf('LOG_LEVEL', 'info', logLevels),
    bodyLimitBytes: reader.integer('BODY_LIMIT_BYTES', 1_048_576, 1024, 104_857_600),
    rateLimits: {
      createPerMinute: reader.integer('RATE_LIMIT_CREATE_PER_MINUTE', 30, 1, 1_000_000),
      readPerMinute: reader.integer('RATE_LIMIT_READ_PER_MINUTE', 120, 1, 1_000_000),
      refundPerMinute: reader.integer('RATE_LIMIT_REFUND_PER_MINUTE', 10, 1, 1_000_000),
      managePerMinute: reader.integer('RATE_LIMIT_MANAGE_PER_MINUTE', 30, 1, 1_000_000),
      payoutPerMinute: reader.integer('RATE_LIMIT_PAYOUT_PER_MINUTE', 30, 1, 1_000_000),
      transferPerMinute: reader.integer('RATE_LIMIT_TRANSFER_PER_MINUTE', 30, 1, 1_000_000),
      settlementPerMinute: reader.integer('RATE_LIMIT_SETTLEMENT_PER_MINUTE', 10, 1, 1_000_000),
    },
    checkoutLimits: {
      perToken: reader.integer('RATE_LIMIT_CHECKOUT_PER_TOKEN', 10, 1, 1_000_000),
      perAddress: reader.integer('RATE_LIMIT_CHECKOUT_PER_IP', 60, 1, 1_000_000),
    },
    runWorkers: reader.boolean('AKWE_RUN_WORKERS', true),
    catalogFile: reader.raw('AKWE_CATALOG_FILE'),
    operatorsFile: reader.raw('OPERATORS_FILE'),
    providerCostsFile: reader.raw('PROVIDER_COSTS_FILE'),
    paymentCheckMinIntervalMs: reader.integer('PAYMENT_CHECK_MIN_INTERVAL_MS', 5_000, 100, 3_600_000),
    paymentExpiryGraceMs: reader.integer('PAYMENT_EXPIRY_GRACE_SECONDS', 300, 0, 86_400) * 1000,
    paymentLateCheckWindowMs: reader.integer('PAYMENT_LATE_CHECK_HOURS', 24, 0, 720) * 3_600_000,
    operatorBreaker: {
      failures: reader.integer('OPERATOR_BREAKER_FAILURES', 5, 1, 1_000),
      halfOpenAfterMs: reader.integer('OPERATOR_BREAKER_HALF_OPEN_MS', 30_000, 100, 3_600_000),
    },
    operatorCallbacksPerMinute: reader.integer('RATE_LIMIT_OPERATOR_CALLBACKS_PER_IP', 600, 1, 1_000_000),
    shutdownTimeoutMs,
    shutdownGraceMs: shutdownGrace(reader, shutdownTimeoutMs),
    idempotencyLeaseSeconds: reader.integer('IDEMPOTENCY_LEASE_SECONDS', 60, 1, 60),
    apiKeyCacheMs: reader.integer('API_KEY_CACHE_MS', DEFAULT_API_KEY_CACHE_MS, 0, 60_000),
    readyTimeoutMs: reader.integer('READY_TIMEOUT_MS', 2_000, 10, 60_000),
    eventStreamPollMs: reader.integer('EVENT_STREAM_POLL_MS', 1_000, 50, 3_600_000),
    eventStreamLimits: {
      perKey: reader.integer('EVENT_STREAM_MAX_PER_KEY', DEFAULT_EVENT_STREAM_LIMITS.perKey, 1, 100_000),
      perMerchant: reader.integer('EVENT_STREAM_MAX_PER_MERCHANT', DEFAULT_EVENT_STREAM_LIMITS.perMerchant, 1, 1_000_000),
    },
    sandboxFloatMinor: reader.integer('SANDBOX_FLOAT', 100_000_000, 0, 1_000_000_000_000) * 100,
    sandboxPayoutDelayMs: reader.integer('SANDBOX_PAYOUT_DELAY_MS', 2_000, 0, 600_000),
    payoutCheckIntervalMs: reader.integer('PAYOUT_CHECK_INTERVAL_MS', 1_000, 100, 3_600_000),
    floatReadIntervalMs: reader.integer('FLOAT_READ_INTERVAL_SECONDS', 300, 10, 86_400) * 1000,
    bulkMaxLines: reader.integer('BULK_MAX_LINES', 10_000, 1, 100_000),
    transferMaxMinor: reader.integer('TRANSFER_MAX_MINOR', DEFAULT_TRANSFER_LIMITS.maxMinor, 1, Number.MAX_SAFE_INTEGER),
    transferDailyMaxMinor: reader.integer('TRANSFER_DAILY_MAX_MINOR', DEFAULT_TRANSFER_LIMITS.dailyMaxMinor, 1, Number.MAX_SAFE_INTEGER),
    settlementAccountCoolingMs: reader.integer('SETTLEMENT_ACCOUNT_COOLING_MS', 24 * 3_600_000, 0, 30 * 24 * 3_600_000),
    settlementAccountTestCoolingMs: reader.integer('SETTLEMENT_ACCOUNT_TEST_COOLING_MS', 0, 0, 30 * 24 * 3_600_000),
    reconciliationStatementHourUtc: reader.integer('RECONCILIATION_STATEMENT_HOUR_UTC', 3, 0, 23),
    approvalExpiryHours: reader.integer('APPROVAL_EXPIRY_HOURS', 72, 1, 30 * 24),
    bulkMaxBytes: reader.integer('BULK_MAX_BYTES', 5 * 1024 * 1024, 1024, 104_857_600),
    kycMaxDocumentBytes: reader.integer('KYC_MAX_DOCUMENT_BYTES', 5 * 1024 * 1024, 1024, 52_428_800),
    trustProxy: trustedProxies(reader),
    hsts: {
      maxAgeSeconds: reader.integer('HSTS_MAX_AGE', dev ? 0 : 31_536_000, 0, 63_072_000),
      includeSubDomains: reader.boolean('HSTS_INCLUDE_SUBDOMAINS', false),
    },
    metrics: metricsListener(reader, port),
    smtpUrl: reader.url('SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: reader.string('MAIL_FROM', 'Akwe <no-reply@localhost>'),
    dashboardAuthPerMinute: reader.integer('RATE_LIMIT_DASHBOARD_AUTH_PER_IP', 20, 1, 1_000_000),
  };
  if (reader.problems.length > 0) throw new ConfigError(reader.problems);
  if (Array.isArray(config.trustProxy)) Object.freeze(config.trustProxy);
  return Object.freeze({
    ...config,
    database: Object.freeze(config.database),
    rateLimits: Object.freeze(config.rateLimits),
    checkoutLimits: Object.freeze(config.checkoutLimits),
    hsts: Object.freeze(config.hsts),
    metrics: Object.freeze(config.metrics),
  });
}
