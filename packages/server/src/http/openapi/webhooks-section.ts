import { Type } from 'typebox';
import { EVENT_TYPES } from '../../core/events/event-types.js';
import { EVENT_ID_HEADER, SIGNATURE_HEADER } from '../../core/webhooks/webhook-signature.js';
import { eventFamilies } from '../contracts/index.js';
import { EventEnvelope } from '../events/event-routes.js';

function describeEvent(type: string, subject: string, change: string): string {
  const what =
    change === 'created' || change === 'initiated'
      ? `A ${subject} was created (\`data.object.status\` is the status it starts in).`
      : change === 'updated'
        ? `A ${subject} moved to an intermediate status (\`data.object.status\`).`
        : `A ${subject}’s status became \`${change}\`.`;
  return `${what} \`data.object\` is the ${subject} as it is after the change.`;
}

/** `collect.payment.awaiting_otp` -> `collectPaymentAwaitingOtpWebhook`: an operationId generated clients can name a handler by. */
function webhookOperationId(type: string): string {
  return `${type
    .split(/[._]/)
    .map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('')}Webhook`;
}

function eventOperation(type: string) {
  // The object each family carries in `data.object`: its contract's descriptor says it (http/contracts).
  const family = eventFamilies().find(({ prefix }) => type.startsWith(prefix));
  if (!family) throw new Error(`OpenAPI: event type ${type} has no data.object schema; add its family to its contract's descriptor (http/contracts/<version>/contract.ts)`);
  const body = Type.Object(
    {
      ...EventEnvelope.properties,
      type: Type.Literal(type),
      event_version: Type.Literal(family.version),
      environment: Type.Union([Type.Literal('test'), Type.Literal('live')], { description: 'Check it (and `data.object.sandbox`) before acting: a test event never moves money.' }),
      data: Type.Object({ object: family.object }),
    },
    { description: `The ${type} event (envelope of contract ${family.version}).` },
  );
  return {
    post: {
      summary: type,
      operationId: webhookOperationId(type),
      description: `${describeEvent(type, family.subject, type.slice(family.prefix.length))} See docs/webhooks.md for verifying the signature.`,
      tags: ['webhooks'],
      // Akwe calls the merchant here: no API key; the signature header proves the sender.
      security: [],
      parameters: [
        {
          in: 'header',
          name: SIGNATURE_HEADER,
          required: true,
          description: '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, one v1 per active secret.',
          schema: { type: 'string' },
        },
        {
          in: 'header',
          name: EVENT_ID_HEADER,
          required: true,
          description: 'The event id (`id` in the body): deduplicate on it, delivery is at least once.',
          schema: { type: 'string' },
        },
      ],
      requestBody: { required: true, content: { 'application/json': { schema: JSON.parse(JSON.stringify(body)) as unknown } } },
      responses: {
        '2XX': { description: 'Received. Answer within 30 seconds; any other answer is retried with backoff.' },
        '410': { description: 'Gone: Akwe disables the endpoint.' },
      },
    },
  };
}

/** OpenAPI 3.1 `webhooks`: one entry per event type Akwe emits (core/events/event-types.ts). */
export function webhooksSection(): Record<string, unknown> {
  return Object.fromEntries(EVENT_TYPES.map((type) => [type, eventOperation(type)]));
}
