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
  /** Attempts admitted and not yet settled (their password or code is being checked). */
  inFlight: number;
  locks: number;
  lockedUntil: number;
  lastFailureAt: number;
}

/** How an admitted attempt ended: a failure counts towards the lock, a success clears the address. */
export type AttemptOutcome = 'failed' | 'succeeded' | 'neither';

/** One admitted attempt; `settle` once it is known how it went (later calls do nothing). */
export interface SignInAttempt {
  settle(outcome: AttemptOutcome): void;
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
 * `failures` of them the key is locked for a while, longer at each lock. An attempt is admitted
 * before its password is checked, and counts from then on: failures plus attempts still being
 * checked never exceed the allowance, so parallel requests cannot get more passwords checked than
 * sequential ones (admission is synchronous, hence atomic in this process). The counts live in this
 * process's memory (docs/decisions.md, "Dashboard"): each process of a deployment counts for itself.
 */
export class SignInThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly rules: Record<'email' | 'ip', ThrottleRule>,
  ) {}

  /**
   * Admits one attempt, or answers the seconds to wait: a key is locked, or its failures and the
   * attempts in flight already reach the allowance (then 1 s: those attempts decide soon).
   */
  admit(keys: ThrottleKeys): SignInAttempt | { retryAfterSeconds: number } {
    const now = this.clock.now().getTime();
    this.sweep(now);
    let lockedUntil = 0;
    let full = false;
    for (const [kind, key] of this.kindsOf(keys)) {
      const entry = this.current(key, now);
      lockedUntil = Math.max(lockedUntil, entry?.lockedUntil ?? 0);
      if (entry && entry.failures + entry.inFlight >= this.rules[kind].failures) full = true;
    }
    if (lockedUntil > now) return { retryAfterSeconds: Math.max(1, Math.ceil((lockedUntil - now) / 1000)) };
    if (full) return { retryAfterSeconds: 1 };
    for (const [, key] of this.kindsOf(keys)) {
      const entry = this.current(key, now) ?? { failures: 0, inFlight: 0, locks: 0, lockedUntil: 0, lastFailureAt: now };
      entry.inFlight += 1;
      this.entries.set(key, entry);
    }
    let settled = false;
    return {
      settle: (outcome) => {
        if (settled) return;
        settled = true;
        this.settle(keys, outcome);
      },
    };
  }

  /** A password reset proves the address: its failures and lock are forgotten. */
  forgive(email: string): void {
    const entry = this.entries.get(`email:${email}`);
    if (!entry) return;
    if (entry.inFlight === 0) this.entries.delete(`email:${email}`);
    else Object.assign(entry, { failures: 0, locks: 0, lockedUntil: 0 });
  }

  private settle(keys: ThrottleKeys, outcome: AttemptOutcome): void {
    const now = this.clock.now().getTime();
    for (const [kind, key] of this.kindsOf(keys)) {
      const rule = this.rules[kind];
      const entry = this.entries.get(key);
      if (!entry) continue;
      entry.inFlight = Math.max(0, entry.inFlight - 1);
      if (outcome === 'failed') {
        if (now - entry.lastFailureAt > FORGET_AFTER_MS) Object.assign(entry, { failures: 0, locks: 0 });
        entry.failures += 1;
        entry.lastFailureAt = now;
        if (entry.failures >= rule.failures) {
          entry.lockedUntil = now + Math.min(rule.maxLockMs, rule.lockMs * 2 ** entry.locks);
          entry.locks += 1;
          entry.failures = 0;
        }
      } else if (outcome === 'succeeded' && kind === 'email') {
        // A success clears its address's count (not the IP's: one account's success says nothing of the others tried).
        Object.assign(entry, { failures: 0, locks: 0, lockedUntil: 0 });
      }
      if (entry.inFlight === 0 && entry.failures === 0 && entry.lockedUntil <= now && entry.locks === 0) this.entries.delete(key);
    }
  }

  /** The key's entry, unless its failures are old enough to be forgotten (and nothing is in flight). */
  private current(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.inFlight === 0 && entry.lockedUntil < now && now - entry.lastFailureAt > FORGET_AFTER_MS) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private kindsOf(keys: ThrottleKeys): Array<['email' | 'ip', string]> {
    const kinds: Array<['email' | 'ip', string]> = [['email', `email:${keys.email}`]];
    if (keys.ip) kinds.push(['ip', `ip:${keys.ip}`]);
    return kinds;
  }

  /** Bounded memory: old entries go, and past MAX_ENTRIES the oldest go first (never one in flight). */
  private sweep(now: number): void {
    if (this.entries.size < MAX_ENTRIES) return;
    for (const [key, entry] of this.entries) {
      if (entry.inFlight === 0 && now - entry.lastFailureAt > FORGET_AFTER_MS && entry.lockedUntil < now) this.entries.delete(key);
    }
    for (const [key, entry] of this.entries) {
      if (this.entries.size < MAX_ENTRIES) break;
      if (entry.inFlight === 0) this.entries.delete(key);
    }
  }
}

export interface ThrottleKeys {
  email: string;
  ip: string | null;
}
