import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AkweError } from '../../core/errors/index.js';
import type { EventStore } from '../../core/ports.js';
import { principalOf } from '../plugins/authentication.js';
import { errorResponses } from '../shared/error-schemas.js';
import { eventEnvelope } from './event-envelope.js';

export interface EventRoutesOptions {
  events: EventStore;
  publicUrl: string;
}

const EventEnvelope = Type.Object(
  {
    id: Type.String(),
    type: Type.String(),
    event_version: Type.String(),
    environment: Type.String(),
    merchant_id: Type.String(),
    created_at: Type.String(),
    data: Type.Object({ object: Type.Object({}, { additionalProperties: true }) }, { additionalProperties: true }),
  },
  { additionalProperties: true, description: 'The event exactly as webhooks deliver it.' },
);

/** Catch-up reads of events. Only the key's own merchant and environment are visible; anything else is 404. */
export const eventRoutes: FastifyPluginAsyncTypebox<EventRoutesOptions> = async (app, { events, publicUrl }) => {
  app.get(
    '/events/:id',
    {
      config: { scope: 'webhooks:read' },
      schema: {
        tags: ['events'],
        summary: 'One event',
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 200: EventEnvelope, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const event = await events.findById(principal, request.params.id);
      if (!event) throw new AkweError('not_found', `No event ${request.params.id}`);
      return eventEnvelope(event, publicUrl);
    },
  );
};
