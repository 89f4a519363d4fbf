import type { CreateWebhookEndpointParams, QueryParams, RequestBody, UpdateWebhookEndpointParams } from '../api-types.js';
import type { RequestOptions } from '../transport.js';
import { Resource, segment } from './resource.js';

/** Where events are delivered; create() answers the signing secret once. */
export class WebhookEndpoints extends Resource {
  /** POST /webhook-endpoints: answers the endpoint with its `secret`. */
  create(params: CreateWebhookEndpointParams, options?: RequestOptions) {
    return this.call('createWebhookEndpoint', { method: 'POST', path: '/webhook-endpoints', body: params, idempotent: true }, options);
  }

  /** GET /webhook-endpoints/{id} (no secret). */
  retrieve(id: string, options?: RequestOptions) {
    return this.call('getWebhookEndpoint', { method: 'GET', path: `/webhook-endpoints/${segment(id)}` }, options);
  }

  /** GET /webhook-endpoints, newest first (no secrets). */
  list(query?: QueryParams<'listWebhookEndpoints'>, options?: RequestOptions) {
    return this.paginate('listWebhookEndpoints', '/webhook-endpoints', query, options);
  }

  /** PATCH /webhook-endpoints/{id}. */
  update(id: string, params: UpdateWebhookEndpointParams, options?: RequestOptions) {
    return this.call('updateWebhookEndpoint', { method: 'PATCH', path: `/webhook-endpoints/${segment(id)}`, body: params }, options);
  }

  /** DELETE /webhook-endpoints/{id}: its waiting deliveries are cancelled. */
  del(id: string, options?: RequestOptions) {
    return this.call('deleteWebhookEndpoint', { method: 'DELETE', path: `/webhook-endpoints/${segment(id)}` }, options);
  }

  /** GET /webhook-endpoints/{id}/secret: the secret, and the previous one while it still signs. */
  retrieveSecret(id: string, options?: RequestOptions) {
    return this.call('getWebhookEndpointSecret', { method: 'GET', path: `/webhook-endpoints/${segment(id)}/secret` }, options);
  }

  /** POST /webhook-endpoints/{id}/rotate-secret: a retry with the same key answers the same new secret. */
  rotateSecret(id: string, params: RequestBody<'rotateWebhookEndpointSecret'> = {}, options?: RequestOptions) {
    return this.call('rotateWebhookEndpointSecret', { method: 'POST', path: `/webhook-endpoints/${segment(id)}/rotate-secret`, body: params, idempotent: true }, options);
  }

  /** GET /webhook-endpoints/{id}/deliveries, newest first, each with its tries. */
  listDeliveries(id: string, query?: QueryParams<'listWebhookEndpointDeliveries'>, options?: RequestOptions) {
    return this.paginate('listWebhookEndpointDeliveries', `/webhook-endpoints/${segment(id)}/deliveries`, query, options);
  }
}
