/**
 * The caps on open event streams (GET /events/stream): per API key and per merchant (every key and
 * both environments), counted in this server process. A stream over either cap is refused with 429
 * `too_many_event_streams` and Retry-After; a stream that ends frees its slot at once.
 */
import { AkweError } from '../errors/index.js';

export interface EventStreamLimits {
  /** Open streams of one API key (EVENT_STREAM_MAX_PER_KEY). */
  perKey: number;
  /** Open streams of one merchant, all its keys and both environments (EVENT_STREAM_MAX_PER_MERCHANT). */
  perMerchant: number;
}

/** The defaults of the configuration: a few `akwe listen` per developer, a handful of developers per merchant. */
export const DEFAULT_EVENT_STREAM_LIMITS: EventStreamLimits = { perKey: 20, perMerchant: 100 };

/** Retry-After of a refused stream: a slot frees only when a stream ends, which nothing announces. */
export const STREAM_RETRY_AFTER_SECONDS = 10;

export class EventStreamSlots {
  private readonly byKey = new Map<string, number>();
  private readonly byMerchant = new Map<string, number>();

  constructor(private readonly limits: EventStreamLimits) {}

  /** Takes a slot for the key and its merchant, or refuses; the answer frees it (once, however often called). */
  take(owner: { keyId: string; merchantId: string }): () => void {
    const ofKey = this.byKey.get(owner.keyId) ?? 0;
    const ofMerchant = this.byMerchant.get(owner.merchantId) ?? 0;
    if (ofKey >= this.limits.perKey) {
      throw new AkweError('too_many_event_streams', `This API key has ${ofKey} event streams open, the most one key may; close one first.`, {
        retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS,
      });
    }
    if (ofMerchant >= this.limits.perMerchant) {
      throw new AkweError('too_many_event_streams', `This merchant has ${ofMerchant} event streams open over its keys, the most one merchant may; close one first.`, {
        retryAfterSeconds: STREAM_RETRY_AFTER_SECONDS,
      });
    }
    this.byKey.set(owner.keyId, ofKey + 1);
    this.byMerchant.set(owner.merchantId, ofMerchant + 1);
    let freed = false;
    return () => {
      if (freed) return;
      freed = true;
      decrement(this.byKey, owner.keyId);
      decrement(this.byMerchant, owner.merchantId);
    };
  }
}

function decrement(counts: Map<string, number>, name: string): void {
  const left = (counts.get(name) ?? 1) - 1;
  if (left > 0) counts.set(name, left);
  else counts.delete(name);
}
