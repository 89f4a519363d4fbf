import { EVENT_VERSION } from '../../core/events/event-factory.js';
import type { StoredEvent } from '../../core/events/stored-event.js';
import { paymentToWire, refundToWire } from '../collect-v2026/payment-mapper.js';

/** SPEC.md "Events" envelope of contract 2026-06, with our stable `id` and `created_at`. */
export function eventEnvelope(event: StoredEvent, publicUrl: string) {
  const object = event.subject.kind === 'payment' ? paymentToWire(event.subject.payment, publicUrl) : refundToWire(event.subject.refund);
  return {
    id: event.id,
    type: event.type,
    event_version: EVENT_VERSION,
    environment: event.environment,
    merchant_id: event.merchantId,
    created_at: event.createdAt,
    data: { object },
  };
}
