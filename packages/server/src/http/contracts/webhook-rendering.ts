import { legacySignature, signatureHeader, sortedJson, SIGNATURE_HEADER } from '../../core/webhooks/webhook-signature.js';
import type { StoredEvent } from '../../core/events/stored-event.js';
import type { WebhookApiVersion } from '../../core/webhooks/webhook-endpoint.js';
import { legacyPaymentToWire } from './collect-legacy/payment-mapper.js';
import { eventEnvelope } from './collect-2026-06/event-envelope.js';

export const EVENT_ID_HEADER = 'X-Service-Event-Id';

/** `collect.payment.completed` -> `collect.completed`: the earlier contract's event names. */
export function legacyEventType(type: string): string {
  return type.replace(/^collect\.payment\./, 'collect.');
}

/**
 * The exact bytes and headers of one delivery. 2026-06: the contract's envelope, signed
 * `t=…,v1=…` over `<t>.<raw body>` with every active secret. Earlier contract: the key-sorted
 * JSON body, signed with a base64 HMAC over that body.
 */
export function renderDelivery(
  event: StoredEvent,
  apiVersion: WebhookApiVersion,
  options: { publicUrl: string; secrets: readonly string[]; now: Date },
): { body: string; headers: Record<string, string> } {
  if (apiVersion === 'legacy') {
    // Only payment events are planned for legacy endpoints (WebhookService.planDeliveries).
    if (event.subject.kind !== 'payment') throw new Error(`event ${event.id} (${event.type}) has no earlier-contract form`);
    const body = sortedJson({ id: event.id, type: legacyEventType(event.type), created_at: event.createdAt, data: legacyPaymentToWire(event.subject.payment, options.now) });
    return { body, headers: { [SIGNATURE_HEADER]: legacySignature(body, options.secrets[0]!), [EVENT_ID_HEADER]: event.id } };
  }
  const body = JSON.stringify(eventEnvelope(event, options.publicUrl));
  const timestamp = Math.floor(options.now.getTime() / 1000);
  return { body, headers: { [SIGNATURE_HEADER]: signatureHeader(body, options.secrets, timestamp), [EVENT_ID_HEADER]: event.id } };
}
