import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { WebhookService } from '../../core/webhooks/webhook-service.js';
import type { WebhookEndpoint } from '../../core/webhooks/webhook-endpoint.js';
import { principalOf } from '../plugins/authentication.js';
import { recordedRequest } from '../plugins/idempotency.js';
import { errorResponses } from '../shared/error-schemas.js';
import { readList } from '../shared/list-cursors.js';
import type { DestinationUrlCheck } from '../shared/url-policy.js';
import { deliveryToWire, endpointToWire } from './webhook-mapper.js';
import {
  CallbackSecret,
  CreateEndpointBody,
  DeletedEndpoint,
  DeliveryList,
  EndpointList,
  EndpointObject,
  EndpointSecret,
  IdParams,
  PageQuery,
  RotateSecretBody,
  UpdateEndpointBody,
} from './webhook-schemas.js';

export interface WebhookEndpointRoutesOptions {
  webhooks: WebhookService;
  /** Where an endpoint may point (http/shared/url-policy.ts), checked on create and on update. */
  destinationUrls: DestinationUrlCheck;
}

const tags = ['webhooks'];

/** Webhook endpoints of the key's merchant and environment, their deliveries, and the callback secret. */
export const webhookEndpointRoutes: FastifyPluginAsyncTypebox<WebhookEndpointRoutesOptions> = async (app, { webhooks, destinationUrls }) => {
  app.post(
    '/webhook-endpoints',
    {
      config: { scope: 'webhooks:write', idempotency: { required: false, recorded: true, responseHoldsSecret: true }, rateLimitBucket: 'manage' },
      schema: {
        tags,
        operationId: 'createWebhookEndpoint',
        summary: 'Create a webhook endpoint (the answer shows its secret)',
        body: CreateEndpointBody,
        response: { 201: EndpointObject, ...errorResponses(400, 401, 403, 409, 422, 429) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      await destinationUrls(body.url, principalOf(request).environment, 'url');
      const recorded = recordedRequest(request, reply, (endpoint: WebhookEndpoint) => ({ status: 201, body: endpointToWire(endpoint, { withSecret: true }) }));
      const endpoint = await webhooks.createEndpoint(
        principalOf(request),
        { url: body.url, eventTypes: body.events, description: body.description, enabled: body.enabled, apiVersion: body.api_version, maxInFlight: body.max_in_flight },
        recorded,
      );
      return recorded.send(endpoint);
    },
  );

  app.get(
    '/webhook-endpoints',
    {
      config: { scope: 'webhooks:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'listWebhookEndpoints',
        summary: 'List webhook endpoints, newest first',
        querystring: PageQuery,
        response: { 200: EndpointList, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const list = readList(request, 'webhook_endpoints');
      return list.envelope(await webhooks.listEndpoints(principalOf(request), list.page), (e) => endpointToWire(e));
    },
  );

  app.get(
    '/webhook-endpoints/:id',
    {
      config: { scope: 'webhooks:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getWebhookEndpoint',
        summary: 'One webhook endpoint',
        params: IdParams,
        response: { 200: EndpointObject, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => endpointToWire(await webhooks.getEndpoint(principalOf(request), request.params.id)),
  );

  app.patch(
    '/webhook-endpoints/:id',
    {
      config: { scope: 'webhooks:write', rateLimitBucket: 'manage' },
      schema: {
        tags,
        operationId: 'updateWebhookEndpoint',
        summary: 'Change a webhook endpoint (enabled: true re-enables one disabled by a 410)',
        params: IdParams,
        body: UpdateEndpointBody,
        response: { 200: EndpointObject, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const body = request.body;
      if (body.url !== undefined) await destinationUrls(body.url, principalOf(request).environment, 'url');
      const endpoint = await webhooks.updateEndpoint(principalOf(request), request.params.id, {
        url: body.url,
        eventTypes: body.events,
        description: body.description,
        enabled: body.enabled,
        apiVersion: body.api_version,
        maxInFlight: body.max_in_flight,
      });
      return endpointToWire(endpoint);
    },
  );

  app.delete(
    '/webhook-endpoints/:id',
    {
      config: { scope: 'webhooks:write', rateLimitBucket: 'manage' },
      schema: {
        tags,
        operationId: 'deleteWebhookEndpoint',
        summary: 'Delete a webhook endpoint',
        params: IdParams,
        response: { 200: DeletedEndpoint, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => {
      await webhooks.deleteEndpoint(principalOf(request), request.params.id);
      return { object: 'webhook_endpoint' as const, id: request.params.id, deleted: true as const };
    },
  );

  app.get(
    '/webhook-endpoints/:id/secret',
    // A signing secret lets its holder forge webhooks: reading it needs the write scope.
    {
      config: { scope: 'webhooks:write', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getWebhookEndpointSecret',
        summary: 'The endpoint’s signing secret',
        params: IdParams,
        response: { 200: EndpointSecret, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => {
      const endpoint = await webhooks.getEndpoint(principalOf(request), request.params.id);
      return {
        object: 'webhook_endpoint_secret' as const,
        secret: endpoint.secret,
        previous_secret: endpoint.previousSecret,
        previous_secret_expires_at: endpoint.previousSecretExpiresAt,
      };
    },
  );

  app.post(
    '/webhook-endpoints/:id/rotate-secret',
    {
      config: { scope: 'webhooks:write', idempotency: { required: false, recorded: true, responseHoldsSecret: true }, rateLimitBucket: 'manage' },
      schema: {
        tags,
        operationId: 'rotateWebhookEndpointSecret',
        summary: 'Rotate the signing secret',
        description: 'The new secret signs at once; the old one keeps signing as a second v1 value for overlap_seconds.',
        params: IdParams,
        body: RotateSecretBody,
        response: { 200: EndpointObject, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const recorded = recordedRequest(request, reply, (endpoint: WebhookEndpoint) => ({ status: 200, body: endpointToWire(endpoint, { withSecret: true }) }));
      return recorded.send(await webhooks.rotateSecret(principalOf(request), request.params.id, request.body?.overlap_seconds, recorded));
    },
  );

  app.get(
    '/webhook-endpoints/:id/deliveries',
    {
      config: { scope: 'webhooks:read', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'listWebhookEndpointDeliveries',
        summary: 'The endpoint’s deliveries, newest first, with every try',
        params: IdParams,
        querystring: PageQuery,
        response: { 200: DeliveryList, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const list = readList(request, 'webhook_deliveries', {}, request.params.id);
      return list.envelope(await webhooks.listDeliveries(principalOf(request), request.params.id, list.page), deliveryToWire);
    },
  );

  app.get(
    '/account/callback-secret',
    {
      config: { scope: 'webhooks:write', rateLimitBucket: 'read' },
      schema: {
        tags,
        operationId: 'getCallbackSecret',
        summary: 'The secret that signs what is sent to payments’ callback_url',
        response: { 200: CallbackSecret, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      return { object: 'callback_secret' as const, environment: principal.environment, secret: await webhooks.callbackSecret(principal) };
    },
  );
};
