/** Waits after a failed try, then the delivery is exhausted (1 try + 10 retries). */
export const retryDelaysSeconds = [5, 60, 300, 1_800, 7_200, 18_000, 36_000, 86_400, 172_800, 259_200] as const;

/** Spread of the jitter: each wait is drawn from ±10 % around its nominal value. */
export const JITTER_RATIO = 0.1;

/** The longest Retry-After honoured; beyond it the receiver's wish would park a delivery for days. */
export const MAX_RETRY_AFTER_SECONDS = 259_200;

/**
 * Seconds to wait after failed try number `attempts` (1-based), or undefined when no try is left.
 * A Retry-After from the receiver is honoured when it asks for longer than the schedule.
 */
export function nextRetryDelaySeconds(attempts: number, retryAfterSeconds: number | undefined, random: () => number = Math.random): number | undefined {
  const nominal = retryDelaysSeconds[attempts - 1];
  if (nominal === undefined) return undefined;
  const jittered = nominal * (1 - JITTER_RATIO + 2 * JITTER_RATIO * random());
  const asked = retryAfterSeconds === undefined ? 0 : Math.min(retryAfterSeconds, MAX_RETRY_AFTER_SECONDS);
  return Math.max(jittered, asked);
}
