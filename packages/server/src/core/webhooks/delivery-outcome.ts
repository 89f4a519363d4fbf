import { nextRetryDelaySeconds } from './retry-schedule.js';

/** What a receiver did with one try, as the sender saw it. */
export interface TryResult {
  statusCode?: number;
  retryAfterSeconds?: number;
  error?: string;
}

export type DeliveryDecision =
  | { status: 'succeeded' }
  /** 410 Gone: the receiver asks never to be called again; its endpoint is disabled. */
  | { status: 'cancelled'; disableEndpoint: true }
  | { status: 'retrying'; nextAttemptAt: Date }
  | { status: 'exhausted' };

/** 2xx succeeds; 410 disables the endpoint; anything else (3xx included: redirects are not followed) retries on the schedule. */
export function decideAfterTry(result: TryResult, attempts: number, now: Date, random?: () => number): DeliveryDecision {
  const code = result.statusCode;
  if (code !== undefined && code >= 200 && code < 300) return { status: 'succeeded' };
  if (code === 410) return { status: 'cancelled', disableEndpoint: true };
  const delay = nextRetryDelaySeconds(attempts, result.retryAfterSeconds, random);
  if (delay === undefined) return { status: 'exhausted' };
  return { status: 'retrying', nextAttemptAt: new Date(now.getTime() + Math.round(delay * 1000)) };
}
