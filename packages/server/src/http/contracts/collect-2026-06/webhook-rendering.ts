import type { StoredEvent } from '../../../core/events/stored-event.js';
import { EVENT_ID_HEADER, signatureHeader, SIGNATURE_HEADER } from '../../../core/webhooks/webhook-signature.js';
import type { DeliveryRenderOptions, RenderedDelivery } from '../../../webhooks/webhook-delivery-job.js';

/** One delivery in this contract: the event envelope, signed `t=…,v1=…` over `<t>.<raw body>` with every active secret. */
export function renderDelivery(event: StoredEvent, options: DeliveryRenderOptions, envelope: (event: StoredEvent) => object): RenderedDelivery {
  const body = JSON.stringify(envelope(event));
  const timestamp = Math.floor(options.now.getTime() / 1000);
  return { body, headers: { [SIGNATURE_HEADER]: signatureHeader(body, options.secrets, timestamp), [EVENT_ID_HEADER]: event.id } };
}
