import { Type } from 'typebox';
import { listOf, listQuery } from '../shared/pagination.js';
import { defaultDeliveryBudgets, maxInFlightBounds } from '../../core/webhooks/delivery-budgets.js';
import { contractVersions, webhookVersionsDescription } from '../contracts/index.js';

const EventTypes = Type.Array(Type.String({ maxLength: 100 }), {
  maxItems: 50,
  description:
    'Event types to receive: exact (`collect.payment.completed`), a family (`collect.payment.*`), or `*`; empty means all. An unknown type is refused with 400 (docs/webhooks.md lists them).',
});
const MaxInFlight = Type.Integer({
  minimum: maxInFlightBounds.min,
  maximum: maxInFlightBounds.max,
  description: `Deliveries in flight to this endpoint at once (default ${defaultDeliveryBudgets.perStream}); Akwe sends fewer while the receiver answers 429 or 503 or slows down.`,
});
const ApiVersion = Type.Union(
  contractVersions.webhookVersions.map((version) => Type.Literal(version)),
  { description: webhookVersionsDescription() },
);

export const CreateEndpointBody = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 2048, description: 'HTTPS for live endpoints; test endpoints may use HTTP.' }),
    events: Type.Optional(EventTypes),
    description: Type.Optional(Type.String({ maxLength: 255 })),
    enabled: Type.Optional(Type.Boolean()),
    api_version: Type.Optional(ApiVersion),
    max_in_flight: Type.Optional(MaxInFlight),
  },
  {
    additionalProperties: false,
    title: 'CreateWebhookEndpointRequest',
    examples: [{ url: 'https://shop.example.com/akwe/webhooks', events: ['collect.payment.*', 'payout.*'], description: 'Order updates' }],
  },
);

export const UpdateEndpointBody = Type.Object(
  {
    url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })),
    events: Type.Optional(EventTypes),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
    enabled: Type.Optional(Type.Boolean()),
    api_version: Type.Optional(ApiVersion),
    max_in_flight: Type.Optional(Type.Union([MaxInFlight, Type.Null()], { description: 'null: back to the default.' })),
  },
  { additionalProperties: false, title: 'UpdateWebhookEndpointRequest', examples: [{ enabled: false }] },
);

export const RotateSecretBody = Type.Union([
  Type.Object(
    { overlap_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 604_800, description: 'How long the old secret keeps signing (default 86400).' })) },
    { additionalProperties: false, title: 'RotateWebhookEndpointSecretRequest', examples: [{ overlap_seconds: 3600 }] },
  ),
  Type.Null(),
]);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const EndpointObject = Type.Object(
  {
    object: Type.Literal('webhook_endpoint'),
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.String()),
    description: Type.Union([Type.String(), Type.Null()]),
    enabled: Type.Boolean(),
    disabled_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why Akwe disabled it (e.g. the receiver answered 410).' }),
    api_version: Type.String(),
    max_in_flight: Type.Integer({ description: 'Deliveries in flight to it at once (its own bound, or the default).' }),
    environment: Type.String(),
    secret: Type.Optional(Type.String({ description: 'whsec_…; returned at creation, rotation and by GET …/secret.' })),
    previous_secret_expires_at: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  {
    title: 'WebhookEndpoint',
    description: 'A webhook endpoint.',
    examples: [
      {
        object: 'webhook_endpoint',
        id: '0193a800-3c4d-7e5f-8a6b-7c8d9e0f1a2b',
        url: 'https://shop.example.com/akwe/webhooks',
        events: ['collect.payment.*', 'payout.*'],
        description: 'Order updates',
        enabled: true,
        disabled_reason: null,
        api_version: '2026-06',
        max_in_flight: 10,
        environment: 'test',
        secret: 'whsec_3q2+7w8Zs0bYpQ1xXk9vUe4rT6yN5mLc',
        previous_secret_expires_at: null,
        created_at: '2026-06-01T09:30:00.000Z',
        updated_at: '2026-06-01T09:30:00.000Z',
      },
    ],
  },
);

export const EndpointList = listOf(EndpointObject, { title: 'WebhookEndpointList', description: 'Webhook endpoints, newest first.' });
export const DeletedEndpoint = Type.Object(
  { object: Type.Literal('webhook_endpoint'), id: Type.String(), deleted: Type.Literal(true) },
  { title: 'DeletedWebhookEndpoint', examples: [{ object: 'webhook_endpoint', id: '0193a800-3c4d-7e5f-8a6b-7c8d9e0f1a2b', deleted: true }] },
);
export const EndpointSecret = Type.Object(
  {
    object: Type.Literal('webhook_endpoint_secret'),
    secret: Type.String(),
    previous_secret: Type.Union([Type.String(), Type.Null()]),
    previous_secret_expires_at: Type.Union([Type.String(), Type.Null()]),
  },
  {
    title: 'WebhookEndpointSecret',
    examples: [{ object: 'webhook_endpoint_secret', secret: 'whsec_3q2+7w8Zs0bYpQ1xXk9vUe4rT6yN5mLc', previous_secret: null, previous_secret_expires_at: null }],
  },
);

const Attempt = Type.Object(
  {
    number: Type.Integer(),
    attempted_at: Type.String(),
    status_code: Type.Union([Type.Integer(), Type.Null()]),
    duration_ms: Type.Integer(),
    response_excerpt: Type.Union([Type.String(), Type.Null()], { description: 'First bytes of the answer.' }),
    error: Type.Union([Type.String(), Type.Null()]),
  },
  { title: 'DeliveryAttempt', examples: [{ number: 1, attempted_at: '2026-06-01T09:30:02.000Z', status_code: 200, duration_ms: 143, response_excerpt: 'ok', error: null }] },
);

export const DeliveryObject = Type.Object(
  {
    object: Type.Literal('webhook_delivery'),
    id: Type.String(),
    event_id: Type.String(),
    endpoint_id: Type.Union([Type.String(), Type.Null()]),
    destination: Type.String({ description: 'The endpoint id, or `callback` for the payment’s callback_url.' }),
    url: Type.String(),
    status: Type.Union([
      Type.Literal('pending'),
      Type.Literal('delivering'),
      Type.Literal('retrying'),
      Type.Literal('succeeded'),
      Type.Literal('exhausted'),
      Type.Literal('cancelled'),
    ]),
    attempts: Type.Integer(),
    next_attempt_at: Type.String(),
    last_status_code: Type.Union([Type.Integer(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    succeeded_at: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String(),
    updated_at: Type.String(),
    attempts_log: Type.Optional(Type.Array(Attempt)),
  },
  {
    title: 'Delivery',
    description: 'One event on its way to one destination.',
    examples: [
      {
        object: 'webhook_delivery',
        id: '0193a801-4d5e-7f60-8b7c-8d9e0f1a2b3c',
        event_id: '0193a7c2-6c2f-7d4e-8a31-5b7c9d1e3f52',
        endpoint_id: '0193a800-3c4d-7e5f-8a6b-7c8d9e0f1a2b',
        destination: '0193a800-3c4d-7e5f-8a6b-7c8d9e0f1a2b',
        url: 'https://shop.example.com/akwe/webhooks',
        status: 'succeeded',
        attempts: 1,
        next_attempt_at: '2026-06-01T09:30:02.000Z',
        last_status_code: 200,
        last_error: null,
        succeeded_at: '2026-06-01T09:30:02.000Z',
        created_at: '2026-06-01T09:30:01.000Z',
        updated_at: '2026-06-01T09:30:02.000Z',
      },
    ],
  },
);

export const DeliveryList = listOf(DeliveryObject, { title: 'DeliveryList', description: 'Deliveries, newest first.' });

export const PageQuery = listQuery({});

export const CallbackSecret = Type.Object(
  { object: Type.Literal('callback_secret'), environment: Type.String(), secret: Type.String() },
  {
    title: 'CallbackSecret',
    description: 'Signs what is POSTed to a payment’s callback_url (same scheme as webhooks).',
    examples: [{ object: 'callback_secret', environment: 'test', secret: 'whsec_9Lk2mN4pQ6rS8tU0vW2xY4zA6bC8dE0f' }],
  },
);
