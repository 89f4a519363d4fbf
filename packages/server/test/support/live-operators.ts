/** Helpers of the live-mode suites: waiting on a real server, and an operators file for the mocks. */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { newId } from '../../src/core/shared/ids.js';
import { createLogger } from '../../src/logging.js';
import type { OperatorMocks } from '../../src/operators/mocks/operator-mocks.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { freePort } from './child-process.js';
import { seedLiveBalance } from './live-balance.js';

/** Polls `probe` until it returns a value (not undefined), or fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 40_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface OperatorsFileChoices {
  /** Operators left out of the file (a live request for them finds no connector). */
  leaveOut?: string[];
  /** This connector's routes first wherever an operator has one (a suite about that provider). */
  first?: string;
  /** Routes of these connectors left out (a suite that needs one route per operator, or another provider's). */
  without?: string[];
  /** `low_float_minor` per route, by `<slug>/<connector>` (docs/operations.md "Floats"). */
  lowFloats?: Record<string, number>;
}

/**
 * The mocks' operators file, written to a temporary folder, with every call's timeout set to
 * `timeoutMs`: MTN's five chained calls must fit in half the server's IDEMPOTENCY_LEASE_SECONDS.
 */
export function operatorsFileFor(mocks: OperatorMocks, timeoutMs: number, choices: OperatorsFileChoices = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'akwe-operators-'));
  const file = join(dir, 'operators.json');
  // pawaPay's availability is read again after 5 s (the least it takes), so a test sees a change soon.
  const withTimeout = (entry: unknown) => ({
    ...(entry as object),
    timeout_ms: timeoutMs,
    ...((entry as { connector?: string }).connector === 'pawapay' ? { availability_ttl_ms: 5_000 } : {}),
  });
  const withLowFloat = (slug: string, entry: object) => {
    const threshold = choices.lowFloats?.[`${slug}/${(entry as { connector?: string }).connector ?? ''}`];
    return threshold === undefined ? entry : { ...entry, low_float_minor: threshold };
  };
  const kept = (routes: unknown[]) => routes.filter((route) => !choices.without?.includes((route as { connector?: string }).connector ?? ''));
  const ordered = (routes: unknown[]) =>
    choices.first === undefined
      ? routes
      : [...routes].sort((a, b) => Number((b as { connector?: string }).connector === choices.first) - Number((a as { connector?: string }).connector === choices.first));
  // An operator with several routes is a list: each route gets the timeout.
  const operators = Object.fromEntries(
    Object.entries(mocks.operatorsFile.operators)
      .filter(([slug]) => !choices.leaveOut?.includes(slug))
      .map(([slug, entry]) => [slug, kept(Array.isArray(entry) ? ordered(entry) : [entry])] as const)
      .filter(([, routes]) => routes.length > 0)
      .map(([slug, routes]) => [slug, routes.map((route) => withLowFloat(slug, withTimeout(route)))] as const)
      .map(([slug, routes]) => [slug, routes.length === 1 ? routes[0] : routes]),
  );
  writeFileSync(file, JSON.stringify({ operators }));
  return file;
}

/** What a live suite needs of its server: the server, its merchant and a live key, and a client for it. */
export interface LiveServer {
  running: RunningServer;
  merchantId: string;
  liveKey: string;
  /** A call with the live key; POSTs carry a new Idempotency-Key unless one is given. */
  api(method: string, path: string, body?: unknown, idempotencyKey?: string): Promise<{ status: number; headers: Headers; body: LiveWire }>;
  close(): Promise<void>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type LiveWire = Record<string, any>;

/**
 * Starts a real server (its workers included) on `databaseUrl` against the mocks' operators file,
 * with fast workers and no rate limits, a KYC-validated merchant with a live key and `balanceMinor`
 * on its live balance, and points the mocks' callbacks at it.
 */
export async function startLiveServer(options: {
  mocks: OperatorMocks;
  databaseUrl: string;
  operatorsFile: string;
  dataDir: string;
  settings?: Record<string, string>;
  balanceMinor?: number;
}): Promise<LiveServer> {
  const port = await freePort();
  const config = loadConfig({
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    AKWE_DEV: 'true',
    AKWE_DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
    OPERATORS_FILE: options.operatorsFile,
    LOG_LEVEL: 'silent',
    PAYOUT_CHECK_INTERVAL_MS: '200',
    PAYMENT_CHECK_MIN_INTERVAL_MS: '200',
    RATE_LIMIT_CREATE_PER_MINUTE: '100000',
    RATE_LIMIT_READ_PER_MINUTE: '100000',
    RATE_LIMIT_PAYOUT_PER_MINUTE: '100000',
    RATE_LIMIT_REFUND_PER_MINUTE: '100000',
    RATE_LIMIT_MANAGE_PER_MINUTE: '100000',
    ...options.settings,
  });
  const running = await startServer(config, { logger: createLogger({ level: 'silent' }), announce: () => undefined });
  options.mocks.sendCallbacksTo(running.url);
  const { merchant } = await running.services.merchants.createMerchant({ name: 'Boutique Live', kycStatus: 'validated', keyEnvironments: [] });
  const liveKey = (await running.services.merchants.createKey({ merchantId: merchant.id, environment: 'live' })).secret;
  if (options.balanceMinor) await seedLiveBalance(running.services.database, merchant.id, options.balanceMinor);
  return {
    running,
    merchantId: merchant.id,
    liveKey,
    async api(method, path, body, idempotencyKey = newId()) {
      const res = await fetch(`${running.url}/api/v1${path}`, {
        method,
        headers: {
          authorization: `Bearer ${liveKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(method === 'POST' ? { 'idempotency-key': idempotencyKey } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as LiveWire };
    },
    close: () => running.shutdown(),
  };
}

/**
 * A customer-return URL given to an operator (operators/return-proof.ts): with its proof it leads
 * (303) to the payment's checkout page; a wrong proof is a 404 page, the address without a proof the
 * neutral page, and neither gives out the checkout token. `also`: more addresses and their status.
 */
export async function assertReturnNeedsProof(returnUrl: string, checkoutUrl: string, also: Array<readonly [string, number]> = []): Promise<void> {
  const returnBase = returnUrl.slice(0, returnUrl.lastIndexOf('/'));
  assert.match(returnUrl.slice(returnBase.length + 1), /^[A-Za-z0-9_-]{43}$/, `the return URL carries a proof: ${returnUrl}`);
  const landed = await fetch(returnUrl, { redirect: 'manual' });
  assert.equal(landed.status, 303);
  assert.equal(landed.headers.get('location'), checkoutUrl);
  const token = checkoutUrl.split('/checkout/')[1] as string;
  for (const [url, status] of [[`${returnBase}/${'A'.repeat(43)}`, 404] as const, [returnBase, 200] as const, ...also]) {
    const refused = await fetch(url, { redirect: 'manual' });
    assert.equal(refused.status, status, url);
    assert.match(refused.headers.get('content-type') ?? '', /^text\/html/, 'a page for the customer, not JSON');
    assert.ok(!(await refused.text()).includes(token), 'never the checkout token');
  }
}
