/**
 * GET /events/stream: the key's events as server-sent events, as they happen (docs/cli.md, `akwe listen`).
 *
 * Each message is `id: <event id>`, `event: <type>`, `data: <the body a webhook of the current
 * contract carries>`. The stream starts after `Last-Event-ID` (or `?after=`), else at the moment
 * of connection. Events are ordered by id (UUIDv7, docs/webhooks.md "Ordering events").
 *
 * A stream reads the events table itself only once, to catch up from its resume point; after that
 * it is fed by the one reader of its merchant and environment (core/events/event-stream-hub.ts),
 * which a commit's `events` signal wakes and EVENT_STREAM_POLL_MS polls, and which looks back for
 * late commits. Open streams are capped per key and per merchant (event-stream-slots.ts).
 */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AkweError } from '../../core/errors/index.js';
import { EventStreamHub, idFloorAt, type StreamBatch } from '../../core/events/event-stream-hub.js';
import { EventStreamSlots, type EventStreamLimits } from '../../core/events/event-stream-slots.js';
import type { StoredEvent } from '../../core/events/stored-event.js';
import type { TenantScope } from '../../core/shared/environment.js';
import type { WorkSignals } from '../../core/shared/work-signals.js';
import { subscribes } from '../../core/webhooks/webhook-endpoint.js';
import type { WebhookService } from '../../core/webhooks/webhook-service.js';
import { contractVersions, renderDelivery } from '../contracts/index.js';
import { principalOf } from '../plugins/authentication.js';
import { errorResponses } from '../shared/error-schemas.js';

export const STREAM_HEARTBEAT_MS = 15_000;
const PAGE = 100;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const StreamQuery = Type.Object(
  {
    types: Type.Optional(Type.String({ maxLength: 500, description: 'Comma-separated patterns, as endpoint subscriptions take them: exact types, `payout.*`, `*`.' })),
    after: Type.Optional(Type.String({ maxLength: 64, description: 'Start after this event id (the `Last-Event-ID` header wins when both are given).' })),
  },
  { additionalProperties: false },
);

const streamExample = [
  ': connected',
  '',
  'id: 0193a7c2-6c2f-7d4e-8a31-5b7c9d1e3f52',
  'event: payout.completed',
  'data: {"id":"0193a7c2-6c2f-7d4e-8a31-5b7c9d1e3f52","type":"payout.completed","event_version":"2025-01","environment":"test",…}',
  '',
  ': heartbeat',
  '',
].join('\n');

function startAfter(header: string | string[] | undefined, query: string | undefined, now: number): string {
  const given = (Array.isArray(header) ? header[0] : header)?.trim() || query?.trim();
  if (given === undefined || given === '') return idFloorAt(now);
  const id = given.toLowerCase();
  if (!UUID.test(id)) throw new AkweError('validation_error', 'Last-Event-ID (or after) must be an event id', { field: 'after' });
  return id;
}

/** Every stream of the scope sends the same text for an event: rendered once. */
const rendered = new WeakMap<StoredEvent, string>();

function message(event: StoredEvent, publicUrl: string): string {
  let text = rendered.get(event);
  if (text === undefined) {
    // The stream is authenticated by the key; whoever forwards an event signs it with their own secret, so this one signs nothing.
    const { body } = renderDelivery(event, contractVersions.defaultWebhookVersion, { publicUrl, secrets: ['unused'], now: new Date() });
    text = `id: ${event.id}\nevent: ${event.type}\ndata: ${body}\n\n`;
    rendered.set(event, text);
  }
  return text;
}

/**
 * A batch of the reader as one buffer, made once for every stream of the scope that takes all of
 * it (no type filter, nothing to skip): each of them writes these same bytes, instead of joining
 * and encoding the batch's text once per stream.
 */
const renderedBatches = new WeakMap<StreamBatch, Buffer>();

function batchBuffer(batch: StreamBatch, publicUrl: string): Buffer {
  let bytes = renderedBatches.get(batch);
  if (bytes === undefined) {
    bytes = Buffer.from(batch.events.map((event) => message(event, publicUrl)).join(''));
    renderedBatches.set(batch, bytes);
  }
  return bytes;
}

interface StreamDeps {
  webhooks: WebhookService;
  hub: EventStreamHub;
  publicUrl: string;
  scope: TenantScope;
  types: string[];
  after: string;
  signal: AbortSignal;
}

async function* eventStream({ webhooks, hub, publicUrl, scope, types, after, signal }: StreamDeps): AsyncGenerator<string | Buffer> {
  const filter = { eventTypes: types };
  // Joined before catching up, so that nothing committed meanwhile falls between the two.
  const live = hub.subscribe(scope, after);
  try {
    yield ': connected\n\n';
    let lastWrite = Date.now();
    // Catching up: everything after the resume point, however old. The reader may send some of it
    // again (what it read since the subscription began): those ids are kept to be skipped once.
    const caughtUp = new Set<string>();
    let cursor = after;
    for (;;) {
      const page = await webhooks.eventsAfter(scope, cursor, PAGE);
      // One write per page (and below, per wake-up), not per event: with many streams open, each
      // socket write costs the whole server, and a wake-up often carries dozens of events.
      let text = '';
      for (const event of page) {
        cursor = event.id;
        if (event.id > live.since) caughtUp.add(event.id);
        if (subscribes(filter, event.type)) text += message(event, publicUrl);
      }
      if (text !== '') {
        lastWrite = Date.now();
        yield text;
      }
      if (page.length < PAGE || signal.aborted) break;
    }
    while (!signal.aborted) {
      const batches = await live.next(STREAM_HEARTBEAT_MS - (Date.now() - lastWrite), signal);
      // A client this far behind is let go: it resumes with Last-Event-ID, reading what it missed itself.
      if (live.overflowed) return;
      let text = '';
      for (const batch of batches) {
        if (filter.eventTypes.length === 0 && caughtUp.size === 0 && batch.events[0]!.id > after) {
          // The whole batch, as every other stream taking everything writes it (events are in id order).
          if (text !== '') yield text;
          text = '';
          lastWrite = Date.now();
          yield batchBuffer(batch, publicUrl);
          continue;
        }
        for (const event of batch.events) {
          if (event.id <= after || caughtUp.has(event.id) || !subscribes(filter, event.type)) continue;
          text += message(event, publicUrl);
        }
        if (caughtUp.size > 0) for (const id of caughtUp) if (id <= batch.floor) caughtUp.delete(id);
      }
      if (text !== '') {
        lastWrite = Date.now();
        yield text;
      }
      if (Date.now() - lastWrite >= STREAM_HEARTBEAT_MS) {
        lastWrite = Date.now();
        yield ': heartbeat\n\n';
      }
    }
  } finally {
    live.close();
  }
}

export interface EventStreamOptions {
  webhooks: WebhookService;
  signals: WorkSignals;
  /** The fallback poll, ms: events committed in this process (or bridged from another) wake the readers at once. */
  pollMs: number;
  publicUrl: string;
  limits: EventStreamLimits;
}

export const eventStreamRoute: FastifyPluginAsyncTypebox<EventStreamOptions> = async (app, { webhooks, signals, pollMs, publicUrl, limits }) => {
  const hub = new EventStreamHub({ reader: webhooks, signals, pollMs, onReadError: (error) => app.log.warn({ err: error }, 'event stream read failed') });
  const slots = new EventStreamSlots(limits);
  // Open streams end when the server closes, so a shutdown never waits on them.
  const closing = new AbortController();
  app.addHook('preClose', async () => {
    closing.abort();
    hub.close();
  });

  app.get(
    '/events/stream',
    {
      config: { scope: 'webhooks:read', rateLimitBucket: 'read' },
      schema: {
        tags: ['events'],
        operationId: 'streamEvents',
        summary: 'The events as they happen, as server-sent events',
        description:
          'A `text/event-stream` that stays open. Each message: `id` the event id, `event` its type, `data` the event exactly as a webhook of the current contract carries it. Send `Last-Event-ID` (or `?after=`) to resume after an event; without it the stream starts now. A comment line every 15 s keeps the connection alive. Open streams are capped per API key (EVENT_STREAM_MAX_PER_KEY, 20) and per merchant (EVENT_STREAM_MAX_PER_MERCHANT, 100): one more is refused with 429 `too_many_event_streams` and `Retry-After`, and a closed stream frees its slot. Used by `akwe listen`.',
        querystring: StreamQuery,
        response: {
          200: { description: 'Server-sent events.', content: { 'text/event-stream': { schema: { type: 'string' }, example: streamExample } } },
          ...errorResponses(400, 401, 403, 429),
        },
      },
    },
    async (request, reply) => {
      const scope = principalOf(request);
      const types = request.query.types
        ?.split(',')
        .map((type) => type.trim().toLowerCase())
        .filter(Boolean);
      if (types) webhooks.checkEventPatterns(types, 'types');
      const after = startAfter(request.headers['last-event-id'], request.query.after, Date.now());
      const release = slots.take(scope);
      const gone = new AbortController();
      reply.raw.once('close', () => {
        release();
        gone.abort();
      });
      const signal = AbortSignal.any([gone.signal, closing.signal]);
      const body = Readable.from(
        eventStream({ webhooks, hub, publicUrl, scope: { merchantId: scope.merchantId, environment: scope.environment }, types: types ?? [], after, signal }),
        {
          objectMode: false,
        },
      );
      return (
        reply
          .type('text/event-stream; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('x-accel-buffering', 'no')
          // A stream's connection is never reused: closing it with the stream keeps a shutdown from waiting out the keep-alive.
          .header('connection', 'close')
          .send(body as unknown as string)
      ); // the documented body is text; a stream sends it
    },
  );
};
