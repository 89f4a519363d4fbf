import type { StoredEvent } from '../../../core/events/stored-event.js';
import { EVENT_ID_HEADER, legacySignature, sortedJson, SIGNATURE_HEADER } from '../../../core/webhooks/webhook-signature.js';
import type { DeliveryRenderOptions, RenderedDelivery } from '../../../webhooks/webhook-delivery-job.js';
import { legacyPaymentToWire } from './payment-mapper.js';

/** `collect.payment.completed` -> `collect.completed`: the earlier contract's event names. */
export function legacyEventType(type: string): string {
  return type.replace(/^collect\.payment\./, 'collect.');
}

/** One delivery in the earlier contract: the key-sorted JSON body, signed with a base64 HMAC over that body. */
export function renderLegacyDelivery(event: StoredEvent, options: DeliveryRenderOptions): RenderedDelivery {
  // Only payment events are planned for legacy endpoints (its receiving limit, contract.ts).
  if (event.subject.kind !== 'payment') throw new Error(`event ${event.id} (${event.type}) has no earlier-contract form`);
  const body = sortedJson({ id: event.id, type: legacyEventType(event.type), created_at: event.createdAt, data: legacyPaymentToWire(event.subject.payment, options.now) });
  return { body, headers: { [SIGNATURE_HEADER]: legacySignature(body, options.secrets[0]!), [EVENT_ID_HEADER]: event.id } };
}
