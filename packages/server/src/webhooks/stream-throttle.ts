import type { WebhookAnswer } from './webhook-sender.js';

/** Above this, an answer counts as the receiver slowing down. */
const SLOW_ANSWER_MS = 5_000;
/** The longest pause a Retry-After may impose on a whole stream (each delivery still keeps its own schedule). */
const MAX_PAUSE_MS = 60_000;

/**
 * Back-off per stream, in this process (docs/webhooks.md): a receiver that answers 429 or 503,
 * times out or slows down gets half as many deliveries in flight (at least one); each quick
 * success gives one back. A Retry-After on 429/503 pauses the stream for that long (up to 60 s).
 */
export class StreamThrottle {
  private readonly caps = new Map<string, number>();
  private readonly pausedUntil = new Map<string, number>();

  /** `ceiling`: the largest bound any stream may have; a cap grown back to it is lifted. */
  constructor(private readonly ceiling: number) {}

  /** The stream's current bound (Infinity: no back-off, the endpoint's own bound applies). */
  cap(stream: string): number {
    return this.caps.get(stream) ?? Number.POSITIVE_INFINITY;
  }

  paused(nowMs: number): string[] {
    for (const [stream, until] of this.pausedUntil) if (until <= nowMs) this.pausedUntil.delete(stream);
    return [...this.pausedUntil.keys()];
  }

  /** `inFlight`: this stream's sends in flight in this process when the answer came (this one included). */
  observe(stream: string, answer: WebhookAnswer, inFlight: number, nowMs: number): void {
    const pushedBack = answer.statusCode === 429 || answer.statusCode === 503;
    const struggling = pushedBack || answer.outcome === 'failed' || answer.durationMs > SLOW_ANSWER_MS;
    if (struggling) {
      const current = Math.min(this.cap(stream), Math.max(1, inFlight));
      this.caps.set(stream, Math.max(1, Math.floor(current / 2)));
      if (pushedBack && answer.retryAfterSeconds !== undefined && answer.retryAfterSeconds > 0) {
        this.pausedUntil.set(stream, nowMs + Math.min(answer.retryAfterSeconds * 1000, MAX_PAUSE_MS));
      }
      return;
    }
    const capped = this.caps.get(stream);
    if (capped === undefined) return;
    if (capped + 1 >= this.ceiling) this.caps.delete(stream);
    else this.caps.set(stream, capped + 1);
  }
}
