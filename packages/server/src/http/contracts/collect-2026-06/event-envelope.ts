import { BULK_EVENT_VERSION, EVENT_VERSION, PAYOUT_EVENT_VERSION } from '../../../core/events/event-factory.js';
import { bulkBatchToWire } from '../../bulk/bulk-mapper.js';
import type { StoredEvent } from '../../../core/events/stored-event.js';
import { paymentToWire, refundToWire } from './payment-mapper.js';
import { payoutToWire } from '../payouts-2025-01/payout-mapper.js';

function wireObject(subject: StoredEvent['subject'], publicUrl: string) {
  switch (subject.kind) {
    case 'payment':
      return paymentToWire(subject.payment, publicUrl);
    case 'refund':
      return refundToWire(subject.refund);
    case 'payout':
      return payoutToWire(subject.payout);
    case 'bulk_batch':
      return bulkBatchToWire({ batch: subject.batch, totals: subject.totals });
  }
}

/**
 * The contract's event envelope (type, event_version, environment, merchant_id, data.object; docs/webhooks.md), with our stable `id` and `created_at`: collect events carry
 * `event_version` 2026-06, payout events 2025-01 (their contract's version).
 */
export function eventEnvelope(event: StoredEvent, publicUrl: string) {
  const object = wireObject(event.subject, publicUrl);
  return {
    id: event.id,
    type: event.type,
    event_version: event.subject.kind === 'payout' ? PAYOUT_EVENT_VERSION : event.subject.kind === 'bulk_batch' ? BULK_EVENT_VERSION : EVENT_VERSION,
    environment: event.environment,
    merchant_id: event.merchantId,
    created_at: event.createdAt,
    data: { object },
  };
}
