import { Type } from 'typebox';
import { listOf, listQuery } from '../shared/pagination.js';
import { defaultDeliveryBudgets, maxInFlightBounds } from '../../core/webhooks/delivery-budgets.js';

const EventTypes = Type.Array(Type.String({ maxLength: 100 }), {
  maxItems: 50,
  description: 'Event types to receive: exact (`collect.payment.completed`), a family (`collect.payment.*`), or `*`; empty means all. An unknown type is refused with 400 (docs/webhooks.md lists them).',
});
const MaxInFlight = Type.Integer({
  minimum: maxInFlightBounds.min,
  maximum: maxInFlightBounds.max,
  description: `Deliveries in flight to this endpoint at once (default ${defaultDeliveryBudgets.perStream}); Akwe sends fewer while the receiver answers 429 or 503 or slows down.`,
});
const ApiVersion = Type.Union([Type.Literal('2026-06'), Type.Literal('legacy')], { description: '`legacy` receives the earlier contract’s events (collect.completed, …).' });

export const CreateEndpointBody = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 2048, description: 'HTTPS for live endpoints; test endpoints may use HTTP.' }),
    events: Type.Optional(EventTypes),
    description: Type.Optional(Type.String({ maxLength: 255 })),
    enabled: Type.Optional(Type.Boolean()),
    api_version: Type.Optional(ApiVersion),
    max_in_flight: Type.Optional(MaxInFlight),
  },
  { additionalProperties: false, title: 'CreateWebhookEndpointRequest' },
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
  { additionalProperties: false, title: 'UpdateWebhookEndpointRequest' },
);

export const RotateSecretBody = Type.Union([
  Type.Object({ overlap_seconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 604_800, description: 'How long the old secret keeps signing (default 86400).' })) }, { additionalProperties: false, title: 'RotateWebhookEndpointSecretRequest' }),
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
  { title: 'WebhookEndpoint', description: 'A webhook endpoint.' },
);

export const EndpointList = listOf(EndpointObject, { title: 'WebhookEndpointList', description: 'Webhook endpoints, newest first.' });
export const DeletedEndpoint = Type.Object({ object: Type.Literal('webhook_endpoint'), id: Type.String(), deleted: Type.Literal(true) }, { title: 'DeletedWebhookEndpoint' });
export const EndpointSecret = Type.Object({
  object: Type.Literal('webhook_endpoint_secret'),
  secret: Type.String(),
  previous_secret: Type.Union([Type.String(), Type.Null()]),
  previous_secret_expires_at: Type.Union([Type.String(), Type.Null()]),
}, { title: 'WebhookEndpointSecret' });

const Attempt = Type.Object({
  number: Type.Integer(),
  attempted_at: Type.String(),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  duration_ms: Type.Integer(),
  response_excerpt: Type.Union([Type.String(), Type.Null()], { description: 'First bytes of the answer.' }),
  error: Type.Union([Type.String(), Type.Null()]),
}, { title: 'DeliveryAttempt' });

export const DeliveryObject = Type.Object(
  {
    object: Type.Literal('webhook_delivery'),
    id: Type.String(),
    event_id: Type.String(),
    endpoint_id: Type.Union([Type.String(), Type.Null()]),
    destination: Type.String({ description: 'The endpoint id, or `callback` for the payment’s callback_url.' }),
    url: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('delivering'), Type.Literal('retrying'), Type.Literal('succeeded'), Type.Literal('exhausted'), Type.Literal('cancelled')]),
    attempts: Type.Integer(),
    next_attempt_at: Type.String(),
    last_status_code: Type.Union([Type.Integer(), Type.Null()]),
    last_error: Type.Union([Type.String(), Type.Null()]),
    succeeded_at: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String(),
    updated_at: Type.String(),
    attempts_log: Type.Optional(Type.Array(Attempt)),
  },
  { title: 'Delivery', description: 'One event on its way to one destination.' },
);

export const DeliveryList = listOf(DeliveryObject, { title: 'DeliveryList', description: 'Deliveries, newest first.' });

export const PageQuery = listQuery({});

export const CallbackSecret = Type.Object(
  { object: Type.Literal('callback_secret'), environment: Type.String(), secret: Type.String() },
  { title: 'CallbackSecret', description: 'Signs what is POSTed to a payment’s callback_url (same scheme as webhooks).' },
);
