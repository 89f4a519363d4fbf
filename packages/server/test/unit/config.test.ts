/**
 * Configuration from the environment: documented defaults, database URLs, and a bad deploy that
 * fails at start with every problem listed at once, each naming its variable. Then the
 * session-signing secret: required in production, generated once and kept in development.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { resolveSecret } from '../../src/secret.js';

/** The ConfigError that loading `env` throws (failing the test if it throws nothing or something else). */
function configErrorFor(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail(`loadConfig accepted ${JSON.stringify(env)}`);
}

const longSecret = 'x'.repeat(32);

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    assert.equal(config.port, 8080);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.publicUrl, 'http://localhost:8080');
    assert.deepEqual(config.database, { kind: 'sqlite', file: resolve('data', 'akwe.db') });
    assert.equal(config.dataDir, resolve('data'));
    assert.deepEqual(
      { ...config.rateLimits },
      { createPerMinute: 30, readPerMinute: 120, refundPerMinute: 10, managePerMinute: 30, payoutPerMinute: 30, transferPerMinute: 30, settlementPerMinute: 10 },
    );
    assert.equal(config.transferMaxMinor, 200_000_000);
    assert.equal(config.transferDailyMaxMinor, 1_000_000_000);
    assert.equal(config.settlementAccountCoolingMs, 24 * 3_600_000, 'a live settlement account waits a day');
    assert.equal(config.settlementAccountTestCoolingMs, 0, 'a test one waits nothing');
    assert.equal(config.dev, false);
    assert.equal(config.secret, undefined);
    assert.equal(config.redisUrl, undefined);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.runWorkers, true);
    assert.equal(config.bodyLimitBytes, 1_048_576);
    assert.equal(config.shutdownTimeoutMs, 30_000);
  });

  it('derives PUBLIC_URL from PORT when it is not set, and drops a trailing slash when it is', () => {
    assert.equal(loadConfig({ PORT: '3000' }).publicUrl, 'http://localhost:3000');
    assert.equal(loadConfig({ PUBLIC_URL: 'https://pay.example.bj/' }).publicUrl, 'https://pay.example.bj');
  });

  it('keeps the default SQLite file inside AKWE_DATA_DIR', () => {
    const config = loadConfig({ AKWE_DATA_DIR: '/srv/akwe' });
    assert.deepEqual(config.database, { kind: 'sqlite', file: '/srv/akwe/akwe.db' });
  });

  it('recognises a postgres:// or postgresql:// DATABASE_URL and keeps it whole', () => {
    for (const url of ['postgres://akwe:pw@db.internal:5432/akwe', 'postgresql://akwe@db/akwe?sslmode=require']) {
      assert.deepEqual(loadConfig({ DATABASE_URL: url }).database, { kind: 'postgres', url });
    }
  });

  it('reads a sqlite: or file: DATABASE_URL as a path, relative to the working directory or absolute', () => {
    assert.deepEqual(loadConfig({ DATABASE_URL: 'sqlite:./var/akwe.db' }).database, { kind: 'sqlite', file: resolve('var', 'akwe.db') });
    assert.deepEqual(loadConfig({ DATABASE_URL: 'sqlite:///var/lib/akwe/akwe.db' }).database, { kind: 'sqlite', file: '/var/lib/akwe/akwe.db' });
    assert.deepEqual(loadConfig({ DATABASE_URL: 'file:/var/lib/akwe/akwe.db' }).database, { kind: 'sqlite', file: '/var/lib/akwe/akwe.db' });
  });

  it('recognises the database URL scheme in any letter case, as URLs allow', () => {
    assert.deepEqual(loadConfig({ DATABASE_URL: 'POSTGRES://db/akwe' }).database, { kind: 'postgres', url: 'POSTGRES://db/akwe' });
    assert.deepEqual(loadConfig({ DATABASE_URL: 'SQLite:./var/akwe.db' }).database, { kind: 'sqlite', file: resolve('var', 'akwe.db') });
  });

  it('reads the true/false spellings of AKWE_DEV', () => {
    for (const yes of ['true', '1', 'yes', 'on', 'TRUE']) assert.equal(loadConfig({ AKWE_DEV: yes }).dev, true, yes);
    for (const no of ['false', '0', 'no', 'off']) assert.equal(loadConfig({ AKWE_DEV: no }).dev, false, no);
  });

  it('reads each rate-limit budget from its own variable', () => {
    const config = loadConfig({
      RATE_LIMIT_CREATE_PER_MINUTE: '7',
      RATE_LIMIT_READ_PER_MINUTE: '8',
      RATE_LIMIT_REFUND_PER_MINUTE: '9',
      RATE_LIMIT_MANAGE_PER_MINUTE: '11',
      RATE_LIMIT_PAYOUT_PER_MINUTE: '12',
      RATE_LIMIT_TRANSFER_PER_MINUTE: '13',
      RATE_LIMIT_SETTLEMENT_PER_MINUTE: '14',
    });
    assert.deepEqual(
      { ...config.rateLimits },
      { createPerMinute: 7, readPerMinute: 8, refundPerMinute: 9, managePerMinute: 11, payoutPerMinute: 12, transferPerMinute: 13, settlementPerMinute: 14 },
    );
  });

  it('reads the settlement accounts’ cooling periods, live and test, and refuses one past 30 days', () => {
    const config = loadConfig({ SETTLEMENT_ACCOUNT_COOLING_MS: '3600000', SETTLEMENT_ACCOUNT_TEST_COOLING_MS: '60000' });
    assert.equal(config.settlementAccountCoolingMs, 3_600_000);
    assert.equal(config.settlementAccountTestCoolingMs, 60_000);
    assert.throws(() => loadConfig({ SETTLEMENT_ACCOUNT_COOLING_MS: String(31 * 24 * 3_600_000) }), /SETTLEMENT_ACCOUNT_COOLING_MS/);
    assert.throws(() => loadConfig({ SETTLEMENT_ACCOUNT_TEST_COOLING_MS: '-1' }), /SETTLEMENT_ACCOUNT_TEST_COOLING_MS/);
  });

  it('trusts no proxy unless TRUST_PROXY names them, as addresses, ranges or named private ranges', () => {
    assert.equal(loadConfig({}).trustProxy, false);
    assert.deepEqual(loadConfig({ TRUST_PROXY: ' 10.0.0.0/8, 192.168.1.10 ,loopback,fd00::/8,::1 ' }).trustProxy, ['10.0.0.0/8', '192.168.1.10', 'loopback', 'fd00::/8', '::1']);
    assert.ok(Object.isFrozen(loadConfig({ TRUST_PROXY: 'loopback' }).trustProxy));
  });

  it('sends HSTS for a year by default in production, not at all in development, as HSTS_MAX_AGE and HSTS_INCLUDE_SUBDOMAINS say', () => {
    assert.deepEqual({ ...loadConfig({}).hsts }, { maxAgeSeconds: 31_536_000, includeSubDomains: false });
    assert.deepEqual({ ...loadConfig({ AKWE_DEV: 'true' }).hsts }, { maxAgeSeconds: 0, includeSubDomains: false });
    assert.deepEqual({ ...loadConfig({ AKWE_DEV: 'true', HSTS_MAX_AGE: '600', HSTS_INCLUDE_SUBDOMAINS: 'yes' }).hsts }, { maxAgeSeconds: 600, includeSubDomains: true });
    assert.equal(loadConfig({ HSTS_MAX_AGE: '0' }).hsts.maxAgeSeconds, 0);
    assert.ok(Object.isFrozen(loadConfig({}).hsts));
    assert.match(
      configErrorFor({ HSTS_MAX_AGE: '-1', HSTS_INCLUDE_SUBDOMAINS: 'maybe' }).message,
      /HSTS_MAX_AGE must be a whole number from 0 to 63072000[\s\S]*HSTS_INCLUDE_SUBDOMAINS must be true or false/,
    );
  });

  it('gives a shutdown 10 s of grace, or half a shorter SHUTDOWN_TIMEOUT_MS, and refuses a grace as long as the timeout', () => {
    assert.equal(loadConfig({}).shutdownGraceMs, 10_000);
    assert.equal(loadConfig({ SHUTDOWN_TIMEOUT_MS: '8000' }).shutdownGraceMs, 4_000);
    assert.equal(loadConfig({ SHUTDOWN_GRACE_MS: '2500' }).shutdownGraceMs, 2_500);
    assert.match(configErrorFor({ SHUTDOWN_TIMEOUT_MS: '5000', SHUTDOWN_GRACE_MS: '5000' }).message, /SHUTDOWN_GRACE_MS must be shorter than SHUTDOWN_TIMEOUT_MS \(5000\)/);
    assert.equal(configErrorFor({ SHUTDOWN_TIMEOUT_MS: 'soon' }).problems.length, 1, 'a bad timeout is reported once');
  });

  it('returns a frozen config', () => {
    const config = loadConfig({});
    assert.ok(Object.isFrozen(config) && Object.isFrozen(config.database) && Object.isFrozen(config.rateLimits));
  });

  it('reports every bad value at once in one ConfigError, each problem naming its variable', () => {
    const error = configErrorFor({
      PORT: 'eighty',
      AKWE_DEV: 'maybe',
      DATABASE_URL: 'mysql://db/akwe',
      AKWE_SECRET: 'too-short',
      LOG_LEVEL: 'loud',
      REDIS_URL: 'http://cache:6379',
    });
    const names = ['PORT', 'AKWE_DEV', 'DATABASE_URL', 'AKWE_SECRET', 'LOG_LEVEL', 'REDIS_URL'];
    assert.equal(error.problems.length, names.length, error.message);
    for (const name of names) {
      assert.ok(
        error.problems.some((p) => p.startsWith(`${name} `)),
        `no problem names ${name}: ${error.message}`,
      );
      assert.ok(error.message.includes(name), `the message does not name ${name}`);
    }
  });

  const badValues: [string, Record<string, string>, RegExp][] = [
    ['PORT above 65535', { PORT: '70000' }, /^PORT must be a whole number from 0 to 65535 \(got "70000"\)$/],
    ['PORT that is not a whole number', { PORT: '80.5' }, /^PORT must be a whole number/],
    ['AKWE_DEV that is not true or false', { AKWE_DEV: 'maybe' }, /^AKWE_DEV must be true or false \(got "maybe"\)$/],
    ['DATABASE_URL with another protocol', { DATABASE_URL: 'mysql://db/akwe' }, /^DATABASE_URL must start with postgres:.* or postgresql:.* or sqlite:.* or file:/],
    ['DATABASE_URL that is not a URL', { DATABASE_URL: 'akwe.db' }, /^DATABASE_URL must be a URL/],
    ['sqlite: DATABASE_URL without a file', { DATABASE_URL: 'sqlite:' }, /^DATABASE_URL with sqlite: must name a file/],
    ['sqlite: DATABASE_URL with a broken %-escape', { DATABASE_URL: 'sqlite:./akwe%zz.db' }, /^DATABASE_URL /],
    ['AKWE_SECRET shorter than 32 characters', { AKWE_SECRET: 'x'.repeat(31) }, /^AKWE_SECRET must be at least 32 characters long$/],
    ['LOG_LEVEL that pino does not know', { LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent \(got "loud"\)$/],
    ['REDIS_URL with another protocol', { REDIS_URL: 'http://cache:6379' }, /^REDIS_URL must start with redis:.* or rediss:/],
    ['PUBLIC_URL with another protocol', { PUBLIC_URL: 'ftp://pay.example.bj' }, /^PUBLIC_URL must start with http:.* or https:/],
    ['a rate limit of zero', { RATE_LIMIT_CREATE_PER_MINUTE: '0' }, /^RATE_LIMIT_CREATE_PER_MINUTE must be a whole number from 1 to/],
    ['a management rate limit of zero', { RATE_LIMIT_MANAGE_PER_MINUTE: '0' }, /^RATE_LIMIT_MANAGE_PER_MINUTE must be a whole number from 1 to 1000000 \(got "0"\)$/],
    ['TRUST_PROXY as a hop count', { TRUST_PROXY: '1' }, /^TRUST_PROXY must be the proxies' addresses or ranges separated by commas, e\.g\. 10\.0\.0\.0\/8,loopback \(got "1"\)$/],
    ['TRUST_PROXY trusting everyone', { TRUST_PROXY: 'true' }, /^TRUST_PROXY must be the proxies' addresses or ranges/],
    ['TRUST_PROXY with a host name', { TRUST_PROXY: '10.0.0.1,proxy.internal' }, /^TRUST_PROXY must be the proxies' addresses or ranges/],
    ['TRUST_PROXY with a prefix too long', { TRUST_PROXY: '10.0.0.0/33' }, /^TRUST_PROXY must be the proxies' addresses or ranges/],
    ['TRUST_PROXY with an empty entry', { TRUST_PROXY: '10.0.0.1,' }, /^TRUST_PROXY must be the proxies' addresses or ranges/],
    [
      'a management rate limit that is not a whole number',
      { RATE_LIMIT_MANAGE_PER_MINUTE: '2.5' },
      /^RATE_LIMIT_MANAGE_PER_MINUTE must be a whole number from 1 to 1000000 \(got "2.5"\)$/,
    ],
  ];
  for (const [what, env, problem] of badValues) {
    it(`refuses ${what} with a ConfigError naming the variable`, () => {
      const error = configErrorFor(env);
      assert.equal(error.problems.length, 1, error.message);
      assert.match(error.problems[0]!, problem);
    });
  }

  it('never repeats a secret or a password in its messages', () => {
    const error = configErrorFor({ AKWE_SECRET: 'hunter2-hunter2', DATABASE_URL: 'mysql://akwe:hunter2@db/akwe' });
    assert.ok(!error.message.includes('hunter2'), error.message);
  });
});

describe('resolveSecret', () => {
  let root: string;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'akwe-secret-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('uses AKWE_SECRET when it is set, and writes no file', () => {
    const dataDir = join(root, 'given');
    assert.equal(resolveSecret(loadConfig({ AKWE_SECRET: longSecret, AKWE_DATA_DIR: dataDir })), longSecret);
    assert.equal(existsSync(join(dataDir, 'secret')), false);
  });

  it('requires AKWE_SECRET when AKWE_DEV is off, with a ConfigError naming it', () => {
    const dataDir = join(root, 'production');
    const config = loadConfig({ AKWE_DATA_DIR: dataDir });
    assert.throws(
      () => resolveSecret(config),
      (error: unknown) => error instanceof ConfigError && /AKWE_SECRET/.test(error.message),
    );
    assert.equal(existsSync(join(dataDir, 'secret')), false, 'a secret was generated outside development');
  });

  it('in development, generates a secret once, keeps it in the data folder for the owner only, and reuses it after a restart', () => {
    const dataDir = join(root, 'dev', 'data');
    const first = resolveSecret(loadConfig({ AKWE_DEV: 'true', AKWE_DATA_DIR: dataDir }));
    assert.ok(first.length >= 32, 'the generated secret is shorter than AKWE_SECRET must be');

    const file = join(dataDir, 'secret');
    assert.equal(readFileSync(file, 'utf8').trim(), first);
    assert.equal(statSync(file).mode & 0o777, 0o600);

    const again = resolveSecret(loadConfig({ AKWE_DEV: 'true', AKWE_DATA_DIR: dataDir }));
    assert.equal(again, first);
    const elsewhere = resolveSecret(loadConfig({ AKWE_DEV: 'true', AKWE_DATA_DIR: join(root, 'dev', 'other') }));
    assert.notEqual(elsewhere, first, 'two data folders share one secret');
  });
});

describe('the metrics listener settings', () => {
  it('are off by default, on loopback once a port is given', () => {
    assert.deepEqual(loadConfig({}).metrics, { port: undefined, host: '127.0.0.1' });
    assert.deepEqual(loadConfig({ METRICS_PORT: '9464' }).metrics, { port: 9464, host: '127.0.0.1' });
    assert.deepEqual(loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '10.0.3.7' }).metrics, { port: 9464, host: '10.0.3.7' });
  });

  it("refuse the API's own port, a bad port and a host that is not an address", () => {
    const { problems } = configErrorFor({ PORT: '8080', METRICS_PORT: '8080', METRICS_HOST: 'metrics.example.com' });
    assert.ok(
      problems.some((p) => p.startsWith('METRICS_PORT must differ from PORT')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('METRICS_HOST must be an IP address')),
      problems.join('\n'),
    );
    assert.ok(configErrorFor({ METRICS_PORT: '70000' }).problems.some((p) => p.startsWith('METRICS_PORT must be a whole number')));
  });
});
