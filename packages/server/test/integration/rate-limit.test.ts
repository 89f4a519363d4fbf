/**
 * Rate limits (docs/configuration.md): per-API-key budgets per bucket, 429 rate_limited with Retry-After,
 * the RateLimit-* headers; counters in memory, or in Redis shared by several processes
 * (the Redis suite runs when AKWE_TEST_REDIS_URL is set). Then every authenticated route of the real
 * app, found as the app registers it (so a new route is included by itself), driven to its 429, on
 * every test database.
 * Limits are tiny (3 creates, 5 reads, 2 refunds, 4 management writes; the whole-app suite 1 to 4)
 * and the window is a whole minute, so no test races the clock; the one test about the window's end
 * moves an injected clock instead of waiting.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance, type InjectOptions, type LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { installLegacyErrorHandling } from '../../src/http/contracts/collect-legacy/legacy-errors.js';
import { installRateLimits, type RateLimitDeps } from '../../src/http/plugins/rate-limit.js';
import { openDatabase } from '../../src/storage/database.js';
import { answersEndlessly, recordRoutes } from '../support/route-recorder.js';
import { capturedLog } from '../support/captured-log.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases, type TestDatabase } from '../support/test-databases.js';

const sqlite = testDatabases().find((d) => d.name === 'sqlite')!;
const limits = { createPerMinute: 3, readPerMinute: 5, refundPerMinute: 2, managePerMinute: 4, payoutPerMinute: 6, transferPerMinute: 7, settlementPerMinute: 8 };
const redisUrl = process.env.AKWE_TEST_REDIS_URL;

/**
 * Probe routes inside the authenticated scope: one per bucket, two naming none (a GET and a POST),
 * two public (one with a bucket, one without), one of the earlier contract.
 */
function probes(deps: RateLimitDeps, options: { awaitInstall?: boolean } = {}) {
  return async (api: FastifyInstance) => {
    if (options.awaitInstall === false) void installRateLimits(api, deps);
    else await installRateLimits(api, deps);
    api.get('/probe/read', { config: { rateLimitBucket: 'read' } }, async () => ({ ok: true }));
    api.post('/probe/create', { config: { rateLimitBucket: 'create' } }, async () => ({ ok: true }));
    api.post('/probe/manage', { config: { rateLimitBucket: 'manage' } }, async () => ({ ok: true }));
    api.get('/probe/no-bucket', async () => ({ ok: true }));
    api.post('/probe/no-bucket', async () => ({ ok: true }));
    api.get('/probe/public', { config: { public: true, rateLimitBucket: 'refund' } }, async () => ({ ok: true }));
    api.get('/probe/public-unlimited', { config: { public: true } }, async () => ({ ok: true }));
    await api.register(async (legacy) => {
      installLegacyErrorHandling(legacy);
      legacy.post('/probe/legacy-create', { config: { rateLimitBucket: 'create' } }, async () => ({ ok: true }));
    });
  };
}

function call(t: TestApp, method: 'GET' | 'POST', path: string, key?: string): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url: `/api/v1${path}`,
    headers: key === undefined ? {} : { 'x-api-key': key },
    ...(method === 'POST' ? { payload: {} } : {}),
  });
}

function assertRetryAfter(res: LightMyRequestResponse, max = 60): number {
  const value = String(res.headers['retry-after']);
  assert.match(value, /^\d+$/, `Retry-After "${value}" is not whole seconds`);
  const seconds = Number(value);
  assert.ok(seconds >= 1 && seconds <= max, `Retry-After ${seconds} is outside 1..${max}`);
  return seconds;
}

describe('rate limits in memory', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp(sqlite, { apiExtensions: probes({ limits }) });
  });
  after(() => t.close());

  it('answers the (limit+1)th create of a key within the minute with 429 rate_limited and Retry-After', async () => {
    const { testKey } = await t.newMerchant();
    for (let i = 1; i <= limits.createPerMinute; i++) {
      assert.equal((await call(t, 'POST', '/probe/create', testKey)).statusCode, 200, `request ${i}`);
    }
    const res = await call(t, 'POST', '/probe/create', testKey);
    assert.equal(res.statusCode, 429);
    assertRetryAfter(res);
    const body = res.json();
    assert.equal(body.error.code, 'rate_limited');
    assert.equal(typeof body.error.message, 'string');
    assert.equal(body.error.request_id, res.headers['x-request-id']);
    assert.equal(res.headers['ratelimit-remaining'], '0');
    assert.equal((await call(t, 'POST', '/probe/create', testKey)).statusCode, 429, 'stays limited within the window');
  });

  it('sends RateLimit-Limit, -Remaining, -Reset and -Policy on every limited response, remaining counting down', async () => {
    const { testKey } = await t.newMerchant();
    for (let expected = limits.readPerMinute - 1; expected >= 0; expected--) {
      const res = await call(t, 'GET', '/probe/read', testKey);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['ratelimit-limit'], String(limits.readPerMinute));
      assert.equal(res.headers['ratelimit-remaining'], String(expected));
      const reset = Number(res.headers['ratelimit-reset']);
      assert.ok(Number.isInteger(reset) && reset >= 1 && reset <= 60, `RateLimit-Reset ${res.headers['ratelimit-reset']}`);
      assert.equal(res.headers['ratelimit-policy'], `${limits.readPerMinute};w=60`);
    }
    const over = await call(t, 'GET', '/probe/read', testKey);
    assert.equal(over.statusCode, 429);
    assert.equal(over.headers['ratelimit-limit'], String(limits.readPerMinute));
    assert.equal(over.headers['ratelimit-remaining'], '0');
    assert.ok(over.headers['ratelimit-reset'] !== undefined);
    assert.equal(over.headers['ratelimit-policy'], `${limits.readPerMinute};w=60`);
  });

  it('gives every API key its own budget, even two keys of one merchant', async () => {
    const merchant = await t.newMerchant();
    const second = await t.services.merchants.createKey({ merchantId: merchant.merchantId, environment: 'test' });
    for (let i = 0; i < limits.createPerMinute; i++) await call(t, 'POST', '/probe/create', merchant.testKey);
    assert.equal((await call(t, 'POST', '/probe/create', merchant.testKey)).statusCode, 429);
    const other = await call(t, 'POST', '/probe/create', second.secret);
    assert.equal(other.statusCode, 200);
    assert.equal(other.headers['ratelimit-remaining'], String(limits.createPerMinute - 1));
    assert.equal((await call(t, 'POST', '/probe/create', merchant.liveKey)).statusCode, 200);
  });

  it('gives every bucket its own budget: reads neither spend nor are stopped by the create budget', async () => {
    const { testKey } = await t.newMerchant();
    for (let i = 0; i < limits.createPerMinute; i++) await call(t, 'POST', '/probe/create', testKey);
    assert.equal((await call(t, 'POST', '/probe/create', testKey)).statusCode, 429);
    const read = await call(t, 'GET', '/probe/read', testKey);
    assert.equal(read.statusCode, 200);
    assert.equal(read.headers['ratelimit-remaining'], String(limits.readPerMinute - 1));

    const fresh = await t.newMerchant();
    for (let i = 0; i < limits.readPerMinute; i++) await call(t, 'GET', '/probe/read', fresh.testKey);
    const create = await call(t, 'POST', '/probe/create', fresh.testKey);
    assert.equal(create.statusCode, 200);
    assert.equal(create.headers['ratelimit-remaining'], String(limits.createPerMinute - 1));
  });

  it('shares one bucket between its routes and answers an earlier-contract route in {error, code, detail}', async () => {
    const { testKey } = await t.newMerchant();
    for (let i = 0; i < limits.createPerMinute; i++) await call(t, 'POST', '/probe/create', testKey);
    const res = await call(t, 'POST', '/probe/legacy-create', testKey);
    assert.equal(res.statusCode, 429);
    assertRetryAfter(res);
    assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'detail', 'error']);
    assert.equal(res.json().error, 'Too Many Requests');
    assert.equal(res.json().code, 'rate_limited');
  });

  it('never limits a public route without a bucket and sends it no RateLimit headers', async () => {
    const { testKey } = await t.newMerchant();
    for (let i = 0; i < limits.readPerMinute * 3; i++) {
      for (const key of [testKey, undefined]) {
        const res = await call(t, 'GET', '/probe/public-unlimited', key);
        assert.equal(res.statusCode, 200, `request ${i + 1}`);
        assert.equal(res.headers['ratelimit-limit'], undefined);
        assert.equal(res.headers['ratelimit-policy'], undefined);
      }
    }
  });

  it('counts an authenticated route that names no bucket as a read (GET) or a management request (POST), never unlimited', async () => {
    const { testKey } = await t.newMerchant();
    for (let i = 0; i < limits.readPerMinute; i++) assert.equal((await call(t, 'GET', '/probe/no-bucket', testKey)).statusCode, 200);
    const read = await call(t, 'GET', '/probe/no-bucket', testKey);
    assert.equal(read.statusCode, 429);
    assert.equal(read.headers['ratelimit-policy'], `${limits.readPerMinute};w=60`);
    assert.match(read.json().error.message, /^Too many read requests: 5 per minute per API key; retry in \d+ s$/);
    assert.equal((await call(t, 'GET', '/probe/read', testKey)).statusCode, 429, 'it spends the read budget that named routes spend');

    for (let i = 0; i < limits.managePerMinute; i++) assert.equal((await call(t, 'POST', '/probe/no-bucket', testKey)).statusCode, 200);
    const write = await call(t, 'POST', '/probe/no-bucket', testKey);
    assert.equal(write.statusCode, 429);
    assert.equal(write.headers['ratelimit-policy'], `${limits.managePerMinute};w=60`);
    assert.match(write.json().error.message, /^Too many management requests: 4 per minute per API key; retry in \d+ s$/);
    assert.equal((await call(t, 'POST', '/probe/manage', testKey)).statusCode, 429, 'it spends the manage budget');
    assert.equal((await call(t, 'POST', '/probe/create', testKey)).statusCode, 200, 'and not the create budget');
  });

  it('names the budget that ran out, its size and the wait in the 429 message', async () => {
    const { testKey } = await t.newMerchant();
    for (let i = 0; i < limits.createPerMinute; i++) await call(t, 'POST', '/probe/create', testKey);
    const res = await call(t, 'POST', '/probe/create', testKey);
    assert.equal(res.statusCode, 429);
    assert.equal(res.json().error.message, `Too many payment write requests: ${limits.createPerMinute} per minute per API key; retry in ${res.headers['retry-after']} s`);
    const legacy = await call(t, 'POST', '/probe/legacy-create', testKey);
    assert.equal(legacy.json().detail, `Too many payment write requests: ${limits.createPerMinute} per minute per API key; retry in ${legacy.headers['retry-after']} s`);
  });

  it('answers 401, never 429, to requests without a valid key, and does not count them', async () => {
    for (let i = 0; i < limits.createPerMinute * 2; i++) {
      const anonymous = await call(t, 'POST', '/probe/create');
      assert.equal(anonymous.statusCode, 401);
      assert.equal(anonymous.json().error.code, 'unauthenticated');
      assert.equal(anonymous.headers['ratelimit-limit'], undefined);
      assert.equal((await call(t, 'POST', '/probe/create', `ak_test_${'A'.repeat(43)}`)).statusCode, 401);
    }
    const { testKey } = await t.newMerchant();
    for (let i = 0; i < limits.createPerMinute; i++) await call(t, 'POST', '/probe/create', testKey);
    assert.equal((await call(t, 'POST', '/probe/create', testKey)).statusCode, 429);
    assert.equal((await call(t, 'POST', '/probe/create', 'not-a-key')).statusCode, 401, 'a bad key is refused as such, not as over the limit');
  });

  it('counts a public route given a bucket per client address', async () => {
    for (let i = 0; i < limits.refundPerMinute; i++) assert.equal((await call(t, 'GET', '/probe/public')).statusCode, 200);
    const res = await call(t, 'GET', '/probe/public');
    assert.equal(res.statusCode, 429);
    assert.equal(res.json().error.code, 'rate_limited');
    assert.match(res.json().error.message, /^Too many refund requests: 2 per minute per client address; retry in \d+ s$/);
  });
});

describe('rate limit windows and installation', () => {
  it('starts a fresh budget when the minute is over, and Retry-After says when', async () => {
    let now = Date.parse('2026-06-01T10:00:00.000Z');
    const clock = { now: () => new Date(now) };
    const t = await buildTestApp(sqlite, { apiExtensions: probes({ limits, clock }) });
    try {
      const { testKey } = await t.newMerchant();
      for (let i = 0; i < limits.createPerMinute; i++) await call(t, 'POST', '/probe/create', testKey);
      const first = await call(t, 'POST', '/probe/create', testKey);
      assert.equal(first.statusCode, 429);
      assert.equal(first.headers['retry-after'], '60');
      now += 45_500;
      const later = await call(t, 'POST', '/probe/create', testKey);
      assert.equal(later.statusCode, 429);
      assert.equal(later.headers['retry-after'], '15');
      now += 14_500;
      const next = await call(t, 'POST', '/probe/create', testKey);
      assert.equal(next.statusCode, 200);
      assert.equal(next.headers['ratelimit-remaining'], String(limits.createPerMinute - 1));
      assert.equal(next.headers['ratelimit-reset'], '60');
    } finally {
      await t.close();
    }
  });

  it('limits routes registered in the same tick even when installRateLimits is not awaited', async () => {
    const t = await buildTestApp(sqlite, { apiExtensions: probes({ limits }, { awaitInstall: false }) });
    try {
      const { testKey } = await t.newMerchant();
      for (let i = 0; i < limits.createPerMinute; i++) assert.equal((await call(t, 'POST', '/probe/create', testKey)).statusCode, 200);
      assert.equal((await call(t, 'POST', '/probe/create', testKey)).statusCode, 429);
    } finally {
      await t.close();
    }
  });

  it('gives a route that names no bucket "read" when it only answers GET or HEAD, "manage" otherwise, and none when public', async () => {
    const app = Fastify();
    try {
      await installRateLimits(app, { limits });
      app.get('/get', async () => ({}));
      app.route({ method: ['GET', 'POST'], url: '/get-or-post', handler: async () => ({}) });
      app.delete('/delete', async () => ({}));
      app.get('/public', { config: { public: true } }, async () => ({}));
      app.post('/named', { config: { rateLimitBucket: 'create' } }, async () => ({}));
      const policy = async (method: 'GET' | 'HEAD' | 'POST' | 'DELETE', url: string) => (await app.inject({ method, url })).headers['ratelimit-policy'];
      assert.equal(await policy('GET', '/get'), `${limits.readPerMinute};w=60`);
      assert.equal(await policy('HEAD', '/get'), `${limits.readPerMinute};w=60`);
      assert.equal(await policy('GET', '/get-or-post'), `${limits.managePerMinute};w=60`);
      assert.equal(await policy('POST', '/get-or-post'), `${limits.managePerMinute};w=60`);
      assert.equal(await policy('DELETE', '/delete'), `${limits.managePerMinute};w=60`);
      assert.equal(await policy('GET', '/public'), undefined);
      assert.equal(await policy('POST', '/named'), `${limits.createPerMinute};w=60`);
    } finally {
      await app.close();
    }
  });

  it('refuses a route naming an unknown bucket when it is registered', async () => {
    const app = Fastify();
    try {
      await installRateLimits(app, { limits });
      assert.throws(() => app.get('/x', { config: { rateLimitBucket: 'bulk' as never } }, async () => ({})), /Unknown rateLimitBucket "bulk"/);
    } finally {
      await app.close();
    }
  });

  it('lets requests through and logs a warning when Redis cannot be reached (fails open)', async () => {
    const { logger, lines: logLines } = capturedLog('warn');
    const t = await buildTestApp(sqlite, {
      logger,
      apiExtensions: probes({ limits, redisUrl: `redis://127.0.0.1:${await closedPort()}`, redisKeyPrefix: uniquePrefix() }),
    });
    try {
      const { testKey } = await t.newMerchant();
      for (let i = 0; i <= limits.createPerMinute * 2; i++) {
        assert.equal((await call(t, 'POST', '/probe/create', testKey)).statusCode, 200, `request ${i + 1}`);
      }
      const warnings = logLines.map((l) => JSON.parse(l)).filter((l) => l.level === 40 && /rate limit/i.test(l.msg));
      assert.ok(warnings.length >= 1, 'no warning about the rate limit store was logged');
    } finally {
      await t.close();
    }
  });
});

/** Every route the app registers, seen through an onRoute hook on the root instance as Fastify creates it. */
interface SeenRoute {
  method: string;
  url: string;
  /** Outside the API key's budgets: a public route, or a dashboard route (its own sign-in and limits, dashboard-auth.test.ts). */
  withoutKey: boolean;
}

/** Builds the test app while recording every route it registers (HEAD twins of GET routes included). */
async function buildRecordingRoutes(target: TestDatabase, env: Record<string, string>): Promise<{ t: TestApp; routes: SeenRoute[] }> {
  const { result: t, routes } = await recordRoutes(() => buildTestApp(target, { env }));
  return {
    t,
    routes: routes
      .filter((route) => !answersEndlessly(route))
      .flatMap((route) =>
        [route.method].flat().map((method) => ({
          method,
          url: route.url,
          // Dashboard and back-office routes sign a person in (a session), never an API key.
          withoutKey: route.config?.public === true || route.url.startsWith('/api/v1/dashboard/') || route.url.startsWith('/api/v1/admin/'),
        })),
      ),
  };
}

/** Tiny budgets, each different, so RateLimit-Limit tells which bucket a route spends. */
const appBudgets = { refund: 1, create: 2, read: 3, manage: 4, payout: 5, transfer: 6, settlement: 7 } as const;
type Bucket = keyof typeof appBudgets;
const bucketLabels: Record<Bucket, string> = {
  refund: 'refund',
  create: 'payment write',
  read: 'read',
  manage: 'management',
  payout: 'payout',
  transfer: 'transfer',
  settlement: 'settlement',
};

/**
 * The budget a route must spend: reads are 'read'; refund creation 'refund'; the other collect
 * writes (creation, confirm, cancel, pay, either contract) 'create'; payout and bulk payment
 * writes 'payout'; transfer creation 'transfer'; settlement and settlement-account writes 'settlement'; every other write 'manage'.
 */
function expectedBucket(route: SeenRoute): Bucket {
  if (route.method === 'GET' || route.method === 'HEAD') return 'read';
  // A POST that reads and writes nothing of the merchant's (docs/decisions.md, issue 24).
  if (route.url === '/api/v1/operators/predict') return 'read';
  if (/^\/api\/v1\/collect\/payments\/:[^/]+\/refunds\/?$/.test(route.url)) return 'refund';
  if (route.url.startsWith('/api/v1/collect/')) return 'create';
  if (route.url.startsWith('/api/v1/payout/') || route.url.startsWith('/api/v1/bulk-payments/')) return 'payout';
  if (route.url.startsWith('/api/v1/transfers/')) return 'transfer';
  if (route.url.startsWith('/api/v1/settlement')) return 'settlement';
  return 'manage';
}

/** The earlier contract answers `{error, code, detail}`; everything else the current shape. */
const isEarlierContract = (url: string) => /^\/api\/v1\/collect\/(mobile-money|operators)(\/|$)/.test(url);

/** A request to the route with every path parameter filled in; writes carry an empty JSON object. */
function requestTo(t: TestApp, route: SeenRoute, key?: string): Promise<LightMyRequestResponse> {
  const url = route.url.replace(/:[A-Za-z_]+/g, 'rl-probe');
  const hasBody = !['GET', 'HEAD', 'DELETE'].includes(route.method);
  return t.app.inject({
    method: route.method as InjectOptions['method'],
    url,
    headers: key === undefined ? {} : { 'x-api-key': key },
    ...(hasBody ? { payload: {} } : {}),
  });
}

for (const target of testDatabases()) {
  describe(`rate limits on every authenticated route of the app on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let authenticated: SeenRoute[];

    before(async () => {
      const built = await buildRecordingRoutes(target, {
        RATE_LIMIT_REFUND_PER_MINUTE: String(appBudgets.refund),
        RATE_LIMIT_CREATE_PER_MINUTE: String(appBudgets.create),
        RATE_LIMIT_READ_PER_MINUTE: String(appBudgets.read),
        RATE_LIMIT_MANAGE_PER_MINUTE: String(appBudgets.manage),
        RATE_LIMIT_PAYOUT_PER_MINUTE: String(appBudgets.payout),
        RATE_LIMIT_TRANSFER_PER_MINUTE: String(appBudgets.transfer),
        RATE_LIMIT_SETTLEMENT_PER_MINUTE: String(appBudgets.settlement),
      });
      t = built.t;
      authenticated = built.routes.filter((route) => !route.withoutKey);
    });
    after(() => t?.close());

    it('finds the routes (the recording works): account, events, webhook endpoints, collect, payouts', () => {
      const seen = new Set(authenticated.map((r) => `${r.method} ${r.url}`));
      for (const route of [
        'GET /api/v1/account',
        'GET /api/v1/account/callback-secret',
        'POST /api/v1/events/:id/resend',
        'DELETE /api/v1/webhook-endpoints/:id',
        'POST /api/v1/collect/payments',
        'GET /api/v1/payout/operators/',
      ]) {
        assert.ok(seen.has(route), `${route} was not recorded`);
      }
      assert.ok(!seen.has('GET /health') && !seen.has('GET /api/v1/collect/openapi.json'), 'public routes are left out');
      assert.ok(!seen.has('GET /api/v1/dashboard/me') && !seen.has('POST /api/v1/dashboard/auth/sign-in'), 'dashboard routes are left out');
      assert.ok(!seen.has('GET /api/v1/admin/kyc-submissions'), 'back-office routes are left out');
    });

    it("limits every one of them per API key, 429 rate_limited with Retry-After and RateLimit headers in its contract's shape", async () => {
      assert.ok(authenticated.length >= 30, `only ${authenticated.length} authenticated routes recorded`);
      for (const route of authenticated) {
        const name = `${route.method} ${route.url}`;
        const bucket = expectedBucket(route);
        const budget = appBudgets[bucket];
        const anonymous = await requestTo(t, route);
        assert.equal(anonymous.statusCode, 401, `${name} answers ${anonymous.statusCode} without a key: not authenticated, so not counted per key`);

        // A key of its own per route: buckets are shared between routes.
        const { testKey } = await t.newMerchant({ name: `Limits ${name}` });
        for (let i = 1; i <= budget; i++) {
          const res = await requestTo(t, route, testKey);
          assert.notEqual(res.statusCode, 429, `${name}: request ${i} of ${budget} refused`);
          assert.equal(res.headers['ratelimit-limit'], String(budget), `${name} spends the ${bucket} budget`);
          assert.equal(res.headers['ratelimit-remaining'], String(budget - i), name);
        }
        const over = await requestTo(t, route, testKey);
        assert.equal(over.statusCode, 429, `${name}: request ${budget + 1} is not refused`);
        const retryAfter = assertRetryAfter(over);
        assert.equal(over.headers['ratelimit-limit'], String(budget), name);
        assert.equal(over.headers['ratelimit-remaining'], '0', name);
        const reset = Number(over.headers['ratelimit-reset']);
        assert.ok(Number.isInteger(reset) && reset >= 1 && reset <= 60, `${name}: RateLimit-Reset ${over.headers['ratelimit-reset']}`);
        assert.equal(over.headers['ratelimit-policy'], `${budget};w=60`, name);
        if (route.method === 'HEAD') continue; // no body to look at
        const message = `Too many ${bucketLabels[bucket]} requests: ${budget} per minute per API key; retry in ${retryAfter} s`;
        const body = over.json();
        if (isEarlierContract(route.url)) {
          assert.deepEqual(body, { error: 'Too Many Requests', code: 'rate_limited', detail: message }, name);
        } else {
          assert.deepEqual(
            body,
            { error: { code: 'rate_limited', message, doc_url: 'http://localhost:8080/docs/errors#rate_limited', request_id: over.headers['x-request-id'] } },
            name,
          );
        }
      }
    });

    it('keeps the manage budget apart from the read and create budgets', async () => {
      const { testKey } = await t.newMerchant({ name: 'Manager' });
      const route = (method: string, url: string): SeenRoute => ({ method, url, withoutKey: false });
      const manageRoutes = [
        route('POST', '/api/v1/webhook-endpoints'),
        route('PATCH', '/api/v1/webhook-endpoints/:id'),
        route('POST', '/api/v1/events/:id/resend'),
        route('DELETE', '/api/v1/webhook-endpoints/:id'),
      ];
      for (const r of manageRoutes) assert.notEqual((await requestTo(t, r, testKey)).statusCode, 429, `${r.method} ${r.url}`);
      const rotate = await requestTo(t, route('POST', '/api/v1/webhook-endpoints/:id/rotate-secret'), testKey);
      assert.equal(rotate.statusCode, 429, 'the manage budget is shared by the management routes');

      const list = await requestTo(t, route('GET', '/api/v1/webhook-endpoints'), testKey);
      assert.equal(list.statusCode, 200, 'reads are not stopped by a spent manage budget');
      assert.equal(list.headers['ratelimit-remaining'], String(appBudgets.read - 1), 'nor did management requests spend the read budget');
      const create = await requestTo(t, route('POST', '/api/v1/collect/payments'), testKey);
      assert.notEqual(create.statusCode, 429, 'nor the create budget');
      assert.equal(create.headers['ratelimit-remaining'], String(appBudgets.create - 1));

      const reader = await t.newMerchant({ name: 'Reader' });
      for (let i = 0; i < appBudgets.read; i++) await requestTo(t, route('GET', '/api/v1/events'), reader.testKey);
      assert.equal((await requestTo(t, route('GET', '/api/v1/account'), reader.testKey)).statusCode, 429);
      const manage = await requestTo(t, route('POST', '/api/v1/webhook-endpoints'), reader.testKey);
      assert.notEqual(manage.statusCode, 429, 'a spent read budget does not stop management requests');
      assert.equal(manage.headers['ratelimit-remaining'], String(appBudgets.manage - 1));
    });
  });
}

describe('rate limits in Redis', { skip: redisUrl ? false : 'Redis (set AKWE_TEST_REDIS_URL)' }, () => {
  const prefix = uniquePrefix();
  let admin: Redis;
  let a: TestApp;
  let b: TestApp;

  before(async () => {
    admin = new Redis(redisUrl!);
    const deps = { limits, redisUrl: redisUrl!, redisKeyPrefix: prefix };
    a = await buildTestApp(sqlite, { apiExtensions: probes(deps) });
    // A second process: its own app and Redis connection, the same database file and Redis.
    b = await buildTestApp(sameDatabaseAs(a), { apiExtensions: probes(deps) });
  });
  after(async () => {
    await a?.close();
    await b?.close();
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length > 0) await admin.del(...keys);
    await admin.quit();
  });

  it('shares one budget between two apps on the same Redis: the (limit+1)th request in total gets 429', async () => {
    const { testKey } = await a.newMerchant();
    const apps = [a, b, a];
    for (const [i, app] of apps.entries()) {
      const res = await call(app, 'POST', '/probe/create', testKey);
      assert.equal(res.statusCode, 200, `request ${i + 1}`);
      assert.equal(res.headers['ratelimit-remaining'], String(limits.createPerMinute - 1 - i));
    }
    const overOnB = await call(b, 'POST', '/probe/create', testKey);
    assert.equal(overOnB.statusCode, 429);
    assert.equal(overOnB.json().error.code, 'rate_limited');
    assertRetryAfter(overOnB);
    assert.equal((await call(a, 'POST', '/probe/create', testKey)).statusCode, 429);
  });

  it('keeps per-key and per-bucket budgets apart in Redis', async () => {
    const merchant = await a.newMerchant();
    for (let i = 0; i < limits.createPerMinute; i++) await call(i % 2 === 0 ? a : b, 'POST', '/probe/create', merchant.testKey);
    assert.equal((await call(b, 'POST', '/probe/create', merchant.testKey)).statusCode, 429);
    assert.equal((await call(b, 'POST', '/probe/create', merchant.liveKey)).statusCode, 200);
    const read = await call(a, 'GET', '/probe/read', merchant.testKey);
    assert.equal(read.statusCode, 200);
    assert.equal(read.headers['ratelimit-remaining'], String(limits.readPerMinute - 1));
  });

  it('stores its counters under the configured prefix, each expiring within the minute', async () => {
    const keys = await admin.keys(`${prefix}*`);
    assert.ok(keys.length > 0, 'no counter under the prefix');
    for (const key of keys) {
      const ttl = await admin.pttl(key);
      assert.ok(ttl > 0 && ttl <= 60_000, `${key} has PTTL ${ttl}`);
    }
  });

  it('closes its Redis connection when the app closes', async () => {
    const name = `akwe-rate-limit:${prefix}`;
    const extraPrefix = `${prefix}close:`;
    const t = await buildTestApp(sameDatabaseAs(a), { apiExtensions: probes({ limits, redisUrl: redisUrl!, redisKeyPrefix: extraPrefix }) });
    const own = `akwe-rate-limit:${extraPrefix}`;
    assert.equal(await clientsNamed(admin, own), 1);
    await t.close();
    assert.equal(await waitForClients(admin, own, 0), 0);
    assert.equal(await clientsNamed(admin, name), 2, 'the other apps keep their connections');
  });
});

/** A prefix of its own for every run, so parallel runs and leftovers never meet. */
function uniquePrefix(): string {
  return `akwe-test:ratelimit:${randomBytes(6).toString('hex')}:`;
}

/** Another connection to the database of an open test app, as a second process would have. */
function sameDatabaseAs(t: TestApp): TestDatabase {
  return {
    name: 'sqlite',
    skip: false,
    async open() {
      const database = openDatabase(t.db.target);
      return { database, target: t.db.target, url: t.db.url, close: () => database.close() };
    },
  };
}

/** A local port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address !== null && typeof address === 'object');
  return address.port;
}

async function clientsNamed(admin: Redis, name: string): Promise<number> {
  const list = String(await admin.client('LIST'));
  return list.split('\n').filter((line) => line.split(' ').includes(`name=${name}`)).length;
}

/** Redis frees a closed client on its own schedule; look again a few times before concluding. */
async function waitForClients(admin: Redis, name: string, expected: number): Promise<number> {
  let count = await clientsNamed(admin, name);
  for (let attempt = 0; attempt < 50 && count !== expected; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    count = await clientsNamed(admin, name);
  }
  return count;
}
