import { notFoundIn } from '../../core/shared/not-found.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { EventStore } from '../../core/ports.js';
import type { WebhookDelivery } from '../../core/webhooks/webhook-endpoint.js';
import { recordedRequest } from '../plugins/idempotency.js';
import { principalOf } from '../plugins/authentication.js';
import { errorResponses } from '../shared/error-schemas.js';
import { renderEvent } from '../contracts/index.js';
import { instantFilter } from '../shared/list-filters.js';
import { listOf, listQuery } from '../shared/pagination.js';
import { readList } from '../shared/list-cursors.js';
import type { WebhookService } from '../../core/webhooks/webhook-service.js';
import { DeliveryObject } from '../webhooks/webhook-schemas.js';
import { deliveryToWire } from '../webhooks/webhook-mapper.js';
import type { WorkSignals } from '../../core/shared/work-signals.js';
import type { EventStreamLimits } from '../../core/events/event-stream-slots.js';
import { eventStreamRoute } from './event-stream-route.js';

export interface EventRoutesOptions {
  events: EventStore;
  webhooks: WebhookService;
  publicUrl: string;
  /** Wakes the events stream when an event commits in this process (or, bridged, in another). */
  signals: WorkSignals;
  /** The stream's fallback poll, ms (EVENT_STREAM_POLL_MS). */
  streamPollMs: number;
  /** Open streams per key and per merchant (EVENT_STREAM_MAX_PER_KEY, EVENT_STREAM_MAX_PER_MERCHANT). */
  streamLimits: EventStreamLimits;
}

// An unknown filter used to be ignored silently, returning everything: listQuery refuses it.
const ListQuery = listQuery({
  type: Type.Optional(Type.String({ maxLength: 500, description: 'Comma-separated types; `collect.payment.*` matches a family.' })),
  reference: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only events about the object with this merchant reference.' })),
  created_gte: Type.Optional(Type.String({ format: 'date-time' })),
  created_lte: Type.Optional(Type.String({ format: 'date-time' })),
});

const ResendBody = Type.Union([Type.Object({ endpoint_id: Type.Optional(Type.String({ maxLength: 64 })) }, { additionalProperties: false }), Type.Null()]);

export const EventEnvelope = Type.Object(
  {
    id: Type.String({ examples: ['0193a7c2-6c2f-7d4e-8a31-5b7c9d1e3f52'] }),
    type: Type.String({ examples: ['collect.payment.completed'] }),
    event_version: Type.String({ examples: ['2026-06'] }),
    environment: Type.String({ examples: ['test'] }),
    merchant_id: Type.String({ examples: ['0193a6b0-0a1b-7c2d-8e3f-4a5b6c7d8e9f'] }),
    created_at: Type.String({ examples: ['2026-06-01T09:30:01.000Z'] }),
    data: Type.Object({ object: Type.Object({}, { additionalProperties: true }) }, { additionalProperties: true }),
  },
  { additionalProperties: true, title: 'Event', description: 'The event exactly as webhooks deliver it.' },
);

/** Catch-up reads of events. Only the key's own merchant and environment are visible; anything else is 404. */
export const eventRoutes: FastifyPluginAsyncTypebox<EventRoutesOptions> = async (app, { events, webhooks, publicUrl, signals, streamPollMs, streamLimits }) => {
  await app.register(eventStreamRoute, { webhooks, publicUrl, signals, pollMs: streamPollMs, limits: streamLimits });
  app.get(
    '/events/:id',
    {
      config: { scope: 'webhooks:read', rateLimitBucket: 'read' },
      schema: {
        tags: ['events'],
        operationId: 'getEvent',
        summary: 'One event',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: EventEnvelope, ...errorResponses(401, 403, 404, 429) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const event = await events.findById(principal, request.params.id);
      if (!event) throw await notFoundIn(principal, 'event', request.params.id, (other) => events.findById(other, request.params.id));
      return renderEvent(event, publicUrl);
    },
  );

  app.get(
    '/events',
    {
      config: { scope: 'webhooks:read', rateLimitBucket: 'read' },
      schema: {
        tags: ['events'],
        operationId: 'listEvents',
        summary: 'Events, newest first, for catch-up',
        querystring: ListQuery,
        response: { 200: listOf(EventEnvelope, { title: 'EventList', description: 'Events, newest first.' }), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const query = request.query;
      const filters = {
        // Event types are all lowercase: `Collect.Payment.Completed` means the same type.
        types: query.type
          ?.split(',')
          .map((t) => t.trim().toLowerCase())
          .filter(Boolean),
        reference: query.reference,
        createdGte: instantFilter(query.created_gte, 'created_gte'),
        createdLte: instantFilter(query.created_lte, 'created_lte'),
      };
      const list = readList(request, 'events', filters);
      return list.envelope(await webhooks.listEvents(principalOf(request), filters, list.page), (event) => renderEvent(event, publicUrl));
    },
  );

  app.post(
    '/events/:id/resend',
    {
      config: { scope: 'webhooks:write', idempotency: { required: false, recorded: true }, rateLimitBucket: 'manage' },
      schema: {
        tags: ['events'],
        operationId: 'resendEvent',
        summary: 'Send an event again, to one endpoint or to all its destinations',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        body: ResendBody,
        response: { 202: Type.Object({ object: Type.Literal('list'), data: Type.Array(DeliveryObject) }), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      const recorded = recordedRequest(request, reply, (deliveries: WebhookDelivery[]) => ({
        status: 202,
        body: { object: 'list' as const, data: deliveries.map((d) => deliveryToWire(d)) },
      }));
      return recorded.send(await webhooks.resend(principalOf(request), request.params.id, request.body?.endpoint_id, recorded));
    },
  );
};
