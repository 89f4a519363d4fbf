import type { StoredEvent } from '../../../core/events/stored-event.js';
import type { RenderedEventObject } from '../contract-version.js';

/**
 * The contract's event envelope (type, event_version, environment, merchant_id, data.object;
 * docs/webhooks.md), with our stable `id` and `created_at`. The contract owning the event's
 * subject renders `data.object` and says its `event_version`: collect events carry 2026-06,
 * payout and bulk events 2025-01 (the payout contract's version).
 */
export function eventEnvelope(event: StoredEvent, { version, object }: RenderedEventObject) {
  return {
    id: event.id,
    type: event.type,
    event_version: version,
    environment: event.environment,
    merchant_id: event.merchantId,
    created_at: event.createdAt,
    data: { object },
  };
}
