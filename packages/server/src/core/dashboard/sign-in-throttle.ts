import type { Clock } from '../shared/clock.js';

export interface ThrottleRule {
  /** Failures allowed before the first lock. */
  failures: number;
  /** The first lock; each further lock doubles, up to maxLockMs. */
  lockMs: number;
  maxLockMs: number;
}

interface Entry {
  failures: number;
  locks: number;
  lockedUntil: number;
  lastFailureAt: number;
}

/** 5 wrong passwords for one address lock it for a minute, then 2, 4 … up to 15; 50 from one IP lock that IP. */
export const SIGN_IN_THROTTLE_RULES: Record<'email' | 'ip', ThrottleRule> = {
  email: { failures: 5, lockMs: 60_000, maxLockMs: 15 * 60_000 },
  ip: { failures: 50, lockMs: 60_000, maxLockMs: 15 * 60_000 },
};

/** Failures are forgotten this long after the last one (and the lock length starts again from lockMs). */
const FORGET_AFTER_MS = 60 * 60_000;
const MAX_ENTRIES = 100_000;

/**
 * Brute-force protection for sign-in (docs/dashboard.md): failures are counted per address (the
 * email, whether or not an account has it, so the lock tells nothing) and per client IP. After
 * `failures` of them the key is locked for a while, longer at each lock. The counts live in this
 * process's memory (docs/decisions.md, "Dashboard"): each process of a deployment counts for itself.
 */
export class SignInThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly rules: Record<'email' | 'ip', ThrottleRule>,
  ) {}

  /** Seconds until the first of these keys is free again; undefined when none is locked. */
  retryAfterSeconds(keys: ThrottleKeys): number | undefined {
    const now = this.clock.now().getTime();
    let until = 0;
    for (const key of this.keysOf(keys)) until = Math.max(until, this.entries.get(key)?.lockedUntil ?? 0);
    return until > now ? Math.max(1, Math.ceil((until - now) / 1000)) : undefined;
  }

  failed(keys: ThrottleKeys): void {
    const now = this.clock.now().getTime();
    this.sweep(now);
    for (const [kind, key] of this.kindsOf(keys)) {
      const rule = this.rules[kind];
      const entry = this.entries.get(key);
      const fresh = entry === undefined || now - entry.lastFailureAt > FORGET_AFTER_MS;
      const current: Entry = fresh ? { failures: 0, locks: 0, lockedUntil: 0, lastFailureAt: now } : entry;
      current.failures += 1;
      current.lastFailureAt = now;
      if (current.failures >= rule.failures) {
        current.lockedUntil = now + Math.min(rule.maxLockMs, rule.lockMs * 2 ** current.locks);
        current.locks += 1;
        current.failures = 0;
      }
      this.entries.set(key, current);
    }
  }

  /** A successful sign-in clears its address's count (not the IP's: one account's success says nothing of the others tried). */
  succeeded(keys: ThrottleKeys): void {
    this.entries.delete(`email:${keys.email}`);
  }

  private kindsOf(keys: ThrottleKeys): Array<['email' | 'ip', string]> {
    const kinds: Array<['email' | 'ip', string]> = [['email', `email:${keys.email}`]];
    if (keys.ip) kinds.push(['ip', `ip:${keys.ip}`]);
    return kinds;
  }

  private keysOf(keys: ThrottleKeys): string[] {
    return this.kindsOf(keys).map(([, key]) => key);
  }

  /** Bounded memory: old entries go, and past MAX_ENTRIES the oldest go first. */
  private sweep(now: number): void {
    if (this.entries.size < MAX_ENTRIES) return;
    for (const [key, entry] of this.entries) {
      if (now - entry.lastFailureAt > FORGET_AFTER_MS && entry.lockedUntil < now) this.entries.delete(key);
    }
    for (const key of this.entries.keys()) {
      if (this.entries.size < MAX_ENTRIES) break;
      this.entries.delete(key);
    }
  }
}

export interface ThrottleKeys {
  email: string;
  ip: string | null;
}
