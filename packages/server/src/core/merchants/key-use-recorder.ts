import type { Clock } from '../ports.js';

/** How often a key's `last_used_at` is written at most, per process. */
export const KEY_USE_WRITE_INTERVAL_MS = 60_000;

/** Keys remembered at most; past that, those written more than an interval ago are forgotten. */
const MAX_REMEMBERED_KEYS = 10_000;

export interface KeyUseWrites {
  /** Sets the key's last use to `at` unless a later one is recorded already (another process). */
  recordKeyUse(keyId: string, at: string): Promise<void>;
}

/**
 * Records when each API key was last used (docs/dashboard.md "Developers") without a write per
 * request: a key's time is written at most once per interval in this process, and never awaited
 * by the request that triggers it (fire and forget; a failed write is counted, never thrown). So
 * the value is a lower bound, exact to the interval, which is what a "last used" column needs.
 */
export class KeyUseRecorder {
  /** Key id -> when this process last wrote its use (clock milliseconds). */
  private readonly written = new Map<string, number>();
  private failedWrites = 0;

  constructor(
    private readonly writes: KeyUseWrites,
    private readonly clock: Clock,
    private readonly onWriteFailure: (error: unknown) => void = () => {},
    private readonly intervalMs: number = KEY_USE_WRITE_INTERVAL_MS,
  ) {}

  /** Called after a key authenticated (cache hit or read): at most one write per key per interval. */
  noteUse(keyId: string): void {
    const now = this.clock.now();
    const nowMs = now.getTime();
    const last = this.written.get(keyId);
    if (last !== undefined && nowMs - last < this.intervalMs) return;
    if (last === undefined && this.written.size >= MAX_REMEMBERED_KEYS) this.forgetOlderThan(nowMs - this.intervalMs);
    this.written.set(keyId, nowMs);
    this.writes.recordKeyUse(keyId, now.toISOString()).catch((error: unknown) => {
      this.failedWrites++;
      this.onWriteFailure(error);
    });
  }

  /** Writes that failed since the process started (also counted in the metrics). */
  get failures(): number {
    return this.failedWrites;
  }

  private forgetOlderThan(limitMs: number): void {
    for (const [keyId, at] of this.written) if (at <= limitMs) this.written.delete(keyId);
    // Still full of keys used within the interval: start afresh rather than grow without bound.
    if (this.written.size >= MAX_REMEMBERED_KEYS) this.written.clear();
  }
}
