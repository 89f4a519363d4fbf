/**
 * Redis failures fail OPEN (requests pass unlimited and a warning is logged, at most every 30 s),
 * because the limits protect capacity from misbehaving clients while a closed failure would turn a
 * Redis outage into an outage of every payment of every merchant.
 *
 * Per-API-key rate limits (docs/configuration.md: creation 30, reads 120, refunds 10 a minute): a route names its budget with
 * `config: { rateLimitBucket }`, and every route of a bucket shares one budget per key and per
 * minute (create 30, read 120, refund 10, manage 30 by default, from RATE_LIMIT_*_PER_MINUTE).
 * Every route of the scope the plugin is installed in counts against a budget: a route that names
 * none and is not `public` gets 'read' if it only answers GET/HEAD and 'manage' otherwise, so a
 * route added without thinking about limits is never unlimited (docs/decisions.md, "Rate limits on
 * every authenticated route").
 * A public route without a bucket has no key to count against and is not limited.
 * Over the budget: 429 `rate_limited` in the route's own error shape, with `Retry-After` and a
 * message naming the budget. Every limited response carries the draft-ietf-httpapi-ratelimit-headers
 * fields RateLimit-Limit, -Remaining, -Reset and -Policy.
 * Counters live in memory (one process) or, with REDIS_URL, in Redis (shared by all processes).
 */
import fastifyRateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, preParsingAsyncHookHandler, RouteOptions } from 'fastify';
import type { RateLimitConfig } from '../../config.js';
import { AkweError } from '../../core/errors/index.js';
import type { Clock } from '../../core/shared/clock.js';
import { MemoryRateLimitCounter, RedisRateLimitCounter, type RateLimitCounter } from './rate-limit-store.js';

export type RateLimitBucket = 'create' | 'read' | 'refund' | 'manage' | 'payout' | 'transfer' | 'settlement';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The budget this route counts against. Absent: 'read' for a GET/HEAD route, 'manage' for any
     * other, unless the route is `public` (then it is not limited).
     */
    rateLimitBucket?: RateLimitBucket;
  }
}

/** What the 429 message calls each budget ("Too many <label> requests: …"). */
const BUCKET_LABELS: Record<RateLimitBucket, string> = {
  create: 'payment write',
  read: 'read',
  refund: 'refund',
  manage: 'management',
  payout: 'payout',
  transfer: 'transfer',
  settlement: 'settlement',
};

export interface RateLimitDeps {
  limits: RateLimitConfig;
  /** Shared counters in Redis; absent means counters in this process's memory. */
  redisUrl?: string;
  /** Time of the in-memory counters (Redis keeps its own); tests move it forward. */
  clock?: Clock;
  /** Prefix of every Redis key; defaults to `akwe:ratelimit:`. Tests use one per run. */
  redisKeyPrefix?: string;
}

export const RATE_LIMIT_WINDOW_MS = 60_000;
export const DEFAULT_REDIS_KEY_PREFIX = 'akwe:ratelimit:';
const WARN_EVERY_MS = 30_000;
/** How long start-up waits for Redis before serving unlimited (fail open) until it answers. */
const REDIS_START_WAIT_MS = 2500;

/**
 * Installs the limits on the scope it is called in (the authenticated /api/v1 scope, after
 * installAuthentication and before the routes, which it sees through an onRoute hook).
 * Await it like a register; routes registered in the same tick are limited either way.
 */
export async function installRateLimits(api: FastifyInstance, deps: RateLimitDeps): Promise<void> {
  const maxPerWindow: Record<RateLimitBucket, number> = {
    create: deps.limits.createPerMinute,
    read: deps.limits.readPerMinute,
    refund: deps.limits.refundPerMinute,
    manage: deps.limits.managePerMinute,
    payout: deps.limits.payoutPerMinute,
    transfer: deps.limits.transferPerMinute,
    settlement: deps.limits.settlementPerMinute,
  };
  const failures = failureReporter(api.log);
  const counter: RateLimitCounter = deps.redisUrl
    ? new RedisRateLimitCounter({
        url: deps.redisUrl,
        keyPrefix: deps.redisKeyPrefix ?? DEFAULT_REDIS_KEY_PREFIX,
        onConnectionError: failures.failed,
        onReady: failures.recovered,
      })
    : new MemoryRateLimitCounter(deps.clock);
  // Filled when the plugin below loads, which is always before the first request.
  const limiters = new Map<RateLimitBucket, (request: FastifyRequest, reply: Parameters<preParsingAsyncHookHandler>[1]) => Promise<void>>();

  // The hook: route-level preParsing. It runs after every onRequest hook of the scope, so
  // authentication (and the scope check) has set request.principal before anything is counted, and
  // a 401 or 403 never spends or reports a budget; and it runs before the body is read and
  // validated, so a caller over its limit costs no parsing. It is attached here rather than through
  // @fastify/rate-limit's `hook` option (which would pick the same 'preParsing') because the plugin's
  // per-route configuration gives each route a budget of its own, whereas a bucket's budget is shared
  // by all its routes (legacy and current payment creation spend the same 30 per minute).
  api.addHook('onRoute', (route) => {
    const bucket = bucketOf(route);
    if (bucket === undefined) return;
    if (!Object.hasOwn(maxPerWindow, bucket)) {
      throw new Error(`Unknown rateLimitBucket "${String(bucket)}" on ${String(route.method)} ${route.url}`);
    }
    const policy = `${maxPerWindow[bucket]};w=${RATE_LIMIT_WINDOW_MS / 1000}`;
    const enforce: preParsingAsyncHookHandler = async (request, reply) => {
      const limiter = limiters.get(bucket);
      if (!limiter) throw new Error('rate limits are not loaded yet');
      reply.header('RateLimit-Policy', policy);
      await limiter(request, reply);
    };
    const existing = route.preParsing;
    route.preParsing = existing === undefined ? [enforce] : [...(Array.isArray(existing) ? existing : [existing]), enforce];
  });

  api.addHook('onClose', async () => {
    await counter.close();
  });

  await api.register(async (scope) => {
    if (counter instanceof RedisRateLimitCounter && !(await counter.waitUntilReady(REDIS_START_WAIT_MS))) {
      api.log.warn('Redis for rate limits is not reachable at start; requests pass unlimited until it answers');
    }
    await scope.register(fastifyRateLimit, {
      global: false,
      enableDraftSpec: true,
      skipOnError: true,
      store: counterStore(counter, failures.failed),
      errorResponseBuilder: () => new AkweError('rate_limited'),
    });
    for (const bucket of Object.keys(maxPerWindow) as RateLimitBucket[]) {
      const handler = scope.rateLimit({
        max: maxPerWindow[bucket],
        timeWindow: RATE_LIMIT_WINDOW_MS,
        keyGenerator: (request) => `${bucket}:${callerOf(request)}`,
        errorResponseBuilder: (request, context) =>
          new AkweError(
            'rate_limited',
            `Too many ${BUCKET_LABELS[bucket]} requests: ${context.max} per minute ${request.principal ? 'per API key' : 'per client address'}; ` +
              `retry in ${Math.max(1, Math.ceil(context.ttl / 1000))} s`,
          ),
      });
      limiters.set(bucket, async (request, reply) => {
        await handler.call(scope, request, reply);
      });
    }
  });
}

/**
 * The bucket a route counts against: the one it names; none for a public route that names none;
 * otherwise 'read' for a route that only answers GET or HEAD and 'manage' for anything that can
 * change something (the stricter default for writes).
 */
export function bucketOf(route: RouteOptions): RateLimitBucket | undefined {
  const named = route.config?.rateLimitBucket;
  if (named !== undefined) return named;
  if (route.config?.public === true) return undefined;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return methods.every((method) => method === 'GET' || method === 'HEAD') ? 'read' : 'manage';
}

/**
 * Who spends the budget: the API key. A public route given a bucket (none today) has no key, so
 * it counts per client address instead.
 */
function callerOf(request: FastifyRequest): string {
  return request.principal ? `key:${request.principal.keyId}` : `ip:${request.ip}`;
}

/**
 * Our counter as an @fastify/rate-limit store. The bucket is in the key, so one store serves every
 * limiter (child() is the store itself); a failing counter is reported and, through `skipOnError`,
 * lets the request through.
 */
function counterStore(counter: RateLimitCounter, onFailure: (error: Error) => void): FastifyRateLimitStoreCtor {
  return class CounterStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      counter.hit(key, timeWindow).then(
        ({ count, resetInMs }) => callback(null, { current: count, ttl: resetInMs }),
        (error: unknown) => {
          const failure = error instanceof Error ? error : new Error(String(error));
          onFailure(failure);
          callback(failure);
        },
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

/** Warns at the first failure and then at most every 30 s (with the count in between), not per request. */
function failureReporter(log: FastifyBaseLogger) {
  let failing = false;
  let lastWarnAt = Number.NEGATIVE_INFINITY;
  let suppressed = 0;
  return {
    failed(error: Error): void {
      failing = true;
      const now = Date.now();
      if (now - lastWarnAt < WARN_EVERY_MS) {
        suppressed += 1;
        return;
      }
      log.warn({ err: error, failures_since_last_warning: suppressed }, 'rate limit store unavailable; requests pass unlimited');
      lastWarnAt = now;
      suppressed = 0;
    },
    recovered(): void {
      if (!failing) return;
      failing = false;
      lastWarnAt = Number.NEGATIVE_INFINITY;
      suppressed = 0;
      log.info('rate limit store reachable again; requests are counted');
    },
  };
}
