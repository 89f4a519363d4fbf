/**
 * Fixed-window hit counters behind the rate limits: one per process in memory, or shared by every
 * process through Redis. A counter only counts; the plugin (rate-limit.ts) decides what a count means.
 */
import { Redis } from 'ioredis';
import { systemClock, type Clock } from '../../core/shared/clock.js';

export interface WindowCount {
  /** Hits in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends and the count starts again; always at least 1. */
  resetInMs: number;
}

export interface RateLimitCounter {
  /** Counts one hit for `key` in its current window of `windowMs`, opening a window when none is open. */
  hit(key: string, windowMs: number): Promise<WindowCount>;
  close(): Promise<void>;
}

/**
 * One process's counters. Entries of ended windows are swept at most once per window, so memory
 * stays bounded by the keys active in the last window (callers are authenticated API keys).
 */
export class MemoryRateLimitCounter implements RateLimitCounter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private nextSweepAt = 0;

  constructor(private readonly clock: Clock = systemClock) {}

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const now = this.clock.now().getTime();
    if (now >= this.nextSweepAt) this.sweep(now, windowMs);
    let window = this.windows.get(key);
    if (!window || now >= window.endsAt) {
      window = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, window);
    }
    window.count += 1;
    return { count: window.count, resetInMs: Math.max(1, window.endsAt - now) };
  }

  async close(): Promise<void> {
    this.windows.clear();
  }

  private sweep(now: number, windowMs: number): void {
    for (const [key, window] of this.windows) if (now >= window.endsAt) this.windows.delete(key);
    this.nextSweepAt = now + windowMs;
  }
}

/**
 * INCR and the window's expiry in one atomic step. A key that lost its expiry (PTTL -1, e.g. after
 * a failed PEXPIRE or a manual SET) gets one again, so a budget can never stay exhausted for good.
 */
const hitScript = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if count == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

interface HitCommand {
  akweRateLimitHit(key: string, windowMs: number): Promise<[number, number]>;
}

export interface RedisCounterOptions {
  url: string;
  /** Prepended to every key, e.g. `akwe:ratelimit:`; tests use one of their own. */
  keyPrefix: string;
  /** Connection trouble (also raised by every reconnection attempt while Redis is down). */
  onConnectionError: (error: Error) => void;
  /** Redis answers again after trouble. */
  onReady: () => void;
}

/**
 * Counters in Redis, shared by every process pointed at the same server and prefix. A request never
 * waits for Redis to come back: without a connection a hit fails at once (no offline queue, no retry),
 * and a connected but stalled server fails it after a short command timeout.
 */
export class RedisRateLimitCounter implements RateLimitCounter {
  private readonly redis: Redis;
  private readonly keyPrefix: string;

  constructor(options: RedisCounterOptions) {
    this.keyPrefix = options.keyPrefix;
    this.redis = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: 500,
      connectTimeout: 2000,
      // Names the connection after its prefix in CLIENT LIST (printable ASCII only, no spaces).
      connectionName: `akwe-rate-limit:${options.keyPrefix}`.replace(/[^!-~]/g, '_'),
      // Reconnects forever in the background, at most every 2 s.
      retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
    });
    this.redis.on('error', options.onConnectionError);
    this.redis.on('ready', options.onReady);
    this.redis.defineCommand('akweRateLimitHit', { numberOfKeys: 1, lua: hitScript });
  }

  /** Resolves once connected, or at the first failure or after `timeoutMs`: true when connected. */
  waitUntilReady(timeoutMs: number): Promise<boolean> {
    if (this.redis.status === 'ready') return Promise.resolve(true);
    return new Promise((resolve) => {
      const settle = (ready: boolean) => {
        clearTimeout(timer);
        this.redis.off('ready', onReady);
        this.redis.off('error', onError);
        resolve(ready);
      };
      const onReady = () => settle(true);
      const onError = () => settle(false);
      const timer = setTimeout(() => settle(false), timeoutMs);
      this.redis.once('ready', onReady);
      this.redis.once('error', onError);
    });
  }

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    const [count, ttl] = await (this.redis as Redis & HitCommand).akweRateLimitHit(this.keyPrefix + key, windowMs);
    return { count: Number(count), resetInMs: Math.max(1, Number(ttl)) };
  }

  async close(): Promise<void> {
    if (this.redis.status === 'ready') {
      try {
        await this.redis.quit();
        return;
      } catch {
        // fall through: drop the connection instead
      }
    }
    this.redis.disconnect();
  }
}
