/**
 * GET /events/stream: the key's events as server-sent events, as they happen (docs/cli.md, `akwe listen`).
 *
 * Each message is `id: <event id>`, `event: <type>`, `data: <the body a webhook of the current
 * contract carries>`. The stream starts after `Last-Event-ID` (or `?after=`), else at the moment
 * of connection. Events are ordered by id (UUIDv7, docs/webhooks.md "Ordering events"); an event
 * whose transaction commits after a later id was already sent would be skipped by a plain
 * "id > last sent" cursor, so every poll looks back LOOKBACK_MS and sends what it has not sent yet.
 * A commit wakes the stream (the `events` work signal the webhook fan-out also waits on); polling
 * every EVENT_STREAM_POLL_MS stays as the fallback for commits no signal reports (another process
 * on SQLite, a lost PostgreSQL notice).
 */
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AkweError } from '../../core/errors/index.js';
import type { StoredEvent } from '../../core/events/stored-event.js';
import type { TenantScope } from '../../core/shared/environment.js';
import type { WorkSignals } from '../../core/shared/work-signals.js';
import { subscribes } from '../../core/webhooks/webhook-endpoint.js';
import type { WebhookService } from '../../core/webhooks/webhook-service.js';
import { contractVersions, renderDelivery } from '../contracts/index.js';
import { principalOf } from '../plugins/authentication.js';
import { errorResponses } from '../shared/error-schemas.js';

export const STREAM_HEARTBEAT_MS = 15_000;
/** How far back each poll looks for events that committed late (see the header comment). */
const LOOKBACK_MS = 5_000;
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

/** The smallest UUIDv7-shaped id of a millisecond: every id minted at or after it sorts after it. */
export function idFloorAt(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

function startAfter(header: string | string[] | undefined, query: string | undefined, now: number): string {
  const given = (Array.isArray(header) ? header[0] : header)?.trim() || query?.trim();
  if (given === undefined || given === '') return idFloorAt(now);
  const id = given.toLowerCase();
  if (!UUID.test(id)) throw new AkweError('validation_error', 'Last-Event-ID (or after) must be an event id', { field: 'after' });
  return id;
}

function message(event: StoredEvent, publicUrl: string): string {
  // The stream is authenticated by the key; whoever forwards an event signs it with their own secret, so this one signs nothing.
  const { body } = renderDelivery(event, contractVersions.defaultWebhookVersion, { publicUrl, secrets: ['unused'], now: new Date() });
  return `id: ${event.id}\nevent: ${event.type}\ndata: ${body}\n\n`;
}

interface StreamDeps {
  webhooks: WebhookService;
  signals: WorkSignals;
  pollMs: number;
  publicUrl: string;
  scope: TenantScope;
  types: string[];
  after: string;
  signal: AbortSignal;
}

/**
 * Sleeps until an event commits (the `events` work signal, which the PostgreSQL bridge also brings
 * from other processes), the poll interval passes, or the stream ends. A signal that came while
 * the stream was reading makes the next wait end at once, so a commit is never slept through.
 */
function eventWaiter(signals: WorkSignals, stop: AbortSignal): { wait(ms: number): Promise<void>; close(): void } {
  let signalled = false;
  let wake: (() => void) | undefined;
  const unsubscribe = signals.subscribe('events', () => {
    signalled = true;
    wake?.();
  });
  return {
    async wait(ms) {
      if (!signalled) {
        const woken = new Promise<void>((resolve) => (wake = resolve));
        const cancel = new AbortController();
        await Promise.race([woken, sleep(ms, undefined, { signal: AbortSignal.any([stop, cancel.signal]) }).catch(() => undefined)]);
        cancel.abort();
        wake = undefined;
      }
      signalled = false;
    },
    close: unsubscribe,
  };
}

async function* eventStream({ webhooks, signals, pollMs, publicUrl, scope, types, after, signal }: StreamDeps): AsyncGenerator<string> {
  const filter = { eventTypes: types };
  const sent = new Set<string>();
  const waiter = eventWaiter(signals, signal);
  let lastWrite = Date.now();
  // The first pass reads everything after the resume point, however old; later passes look back LOOKBACK_MS only.
  let resumeFrom = after;
  try {
    yield ': connected\n\n';
    while (!signal.aborted) {
      const floor = idFloorAt(Date.now() - LOOKBACK_MS);
      let cursor = resumeFrom;
      for (;;) {
        const page = await webhooks.eventsAfter(scope, cursor, PAGE);
        for (const event of page) {
          cursor = event.id;
          if (sent.has(event.id)) continue;
          sent.add(event.id);
          if (!subscribes(filter, event.type)) continue;
          lastWrite = Date.now();
          yield message(event, publicUrl);
        }
        if (page.length < PAGE || signal.aborted) break;
      }
      resumeFrom = after > floor ? after : floor;
      for (const id of sent) if (id <= floor) sent.delete(id);
      if (Date.now() - lastWrite >= STREAM_HEARTBEAT_MS) {
        lastWrite = Date.now();
        yield ': heartbeat\n\n';
      }
      await waiter.wait(Math.min(pollMs, STREAM_HEARTBEAT_MS));
    }
  } finally {
    waiter.close();
  }
}

export interface EventStreamOptions {
  webhooks: WebhookService;
  signals: WorkSignals;
  /** The fallback poll, ms: events committed in this process (or bridged from another) wake the stream at once. */
  pollMs: number;
  publicUrl: string;
}

export const eventStreamRoute: FastifyPluginAsyncTypebox<EventStreamOptions> = async (app, { webhooks, signals, pollMs, publicUrl }) => {
  // Open streams end when the server closes, so a shutdown never waits on them.
  const closing = new AbortController();
  app.addHook('preClose', async () => closing.abort());

  app.get(
    '/events/stream',
    {
      config: { scope: 'webhooks:read', rateLimitBucket: 'read' },
      schema: {
        tags: ['events'],
        operationId: 'streamEvents',
        summary: 'The events as they happen, as server-sent events',
        description:
          'A `text/event-stream` that stays open. Each message: `id` the event id, `event` its type, `data` the event exactly as a webhook of the current contract carries it. Send `Last-Event-ID` (or `?after=`) to resume after an event; without it the stream starts now. A comment line every 15 s keeps the connection alive. Used by `akwe listen`.',
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
      const gone = new AbortController();
      reply.raw.once('close', () => gone.abort());
      const signal = AbortSignal.any([gone.signal, closing.signal]);
      const body = Readable.from(
        eventStream({ webhooks, signals, pollMs, publicUrl, scope: { merchantId: scope.merchantId, environment: scope.environment }, types: types ?? [], after, signal }),
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
