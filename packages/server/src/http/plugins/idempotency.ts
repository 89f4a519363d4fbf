/**
 * Idempotency keys (kept 24 h; replay, reuse and in-progress rules in docs/decisions.md), for the routes that opt in through
 * their config: `config: { idempotency: { required: true } }`.
 *
 * Installed in the authenticated scope after `installAuthentication`. Every claim is held under a
 * lease (IDEMPOTENCY_LEASE_SECONDS, 60 by default): while it runs, another request with the key gets
 * 409 with Retry-After set to the time left; after it, a retry with the same request takes the
 * claim over (the holder is presumed dead) instead of waiting for the 24-hour window.
 *
 * Two kinds of routes:
 * - `recorded: true` routes run core operations in recorded phases (docs/architecture.md). The
 *   preHandler reads nothing: the claim is written by the operation, in the transaction of its
 *   first phase (an INSERT refused when the key is taken), and the response in the transaction of
 *   its last, through the request's journal (`recordedRequest`). Only a request that fails before
 *   claiming reads the key's record, and is answered from it (replay, 422, 409) when there is one.
 *   A takeover hands the operation what the earlier run recorded (its resource), so it resumes
 *   instead of starting again.
 * - other routes claim the key in the preHandler with an INSERT the database refuses a second time,
 *   and store the response in onSend; a takeover runs the handler again.
 * In both, onSend stores a response the operation did not store itself (an error met before its
 * first phase, say); a 5xx or a response that says "retry later" (Retry-After) is never stored: the
 * claim is released, or, where a phase already committed, its lease is ended so a retry resumes now.
 * Errors are thrown as AkweError, so each contract's error handler gives them its own shape.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AkweError } from '../../core/errors/index.js';
import type { IdempotencyClaim, IdempotencyRecord, IdempotencyStore, StoredResponse } from '../../core/idempotency/idempotency-store.js';
import { requestFingerprint } from '../../core/idempotency/request-fingerprint.js';
import { IdempotencyClaimLost, RequestJournal, type RecordedRequest } from '../../core/idempotency/request-journal.js';
import type { Clock } from '../../core/ports.js';
import type { InFlightWork } from './in-flight-work.js';

export interface IdempotencyRouteConfig {
  /** Missing header: 400 missing_idempotency_key when true; no idempotency at all when false. */
  required: boolean;
  /** Longest key accepted, at most (and by default) 255; the earlier contract uses 128. */
  maxKeyLength?: number;
  /** Status of a replayed 2xx response (the earlier contract replays its 201 as 200). */
  replayStatus?: number;
  /** The handler records its phases through `recordedRequest` (see above). */
  recorded?: boolean;
  /** The response shows a secret: its stored copy is sealed (see storage/sealed-responses.ts). */
  responseHoldsSecret?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Honour the Idempotency-Key header on this route (see http/plugins/idempotency.ts). */
    idempotency?: IdempotencyRouteConfig;
  }
}

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;
/** How long a key counts: 24 hours from its first use. */
export const DEFAULT_IDEMPOTENCY_WINDOW_SECONDS = 24 * 60 * 60;
/** How long a claim's holder is presumed alive (a lease of at most 60 s). */
export const DEFAULT_IDEMPOTENCY_LEASE_SECONDS = 60;

export interface IdempotencyDeps {
  store: IdempotencyStore;
  clock: Clock;
  /** How long a record counts after its claim; 24 hours unless told otherwise. */
  windowSeconds?: number;
  /** How long a claim's holder is presumed alive; 60 seconds unless told otherwise. */
  leaseSeconds?: number;
  /** Where completion writes are tracked so shutdown waits for them. */
  work?: InFlightWork;
}

/** Printable ASCII (space to tilde); a key made only of spaces is not a key. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/**
 * The key a request carries, or undefined when it sends none.
 * Throws 400 invalid_idempotency_key for an empty, too long or non-printable-ASCII key.
 */
export function readIdempotencyKey(header: string | string[] | undefined, maxLength = MAX_IDEMPOTENCY_KEY_LENGTH): string | undefined {
  if (header === undefined) return undefined;
  const limit = Math.min(maxLength, MAX_IDEMPOTENCY_KEY_LENGTH);
  const message = `The ${IDEMPOTENCY_KEY_HEADER} header must be 1 to ${limit} printable ASCII characters.`;
  // Node joins repeated custom headers into one string; an array would mean several keys at once.
  if (typeof header !== 'string') throw new AkweError('invalid_idempotency_key', message);
  if (header.length === 0 || header.length > limit || !PRINTABLE_ASCII.test(header) || header.trim() === '') {
    throw new AkweError('invalid_idempotency_key', message);
  }
  return header;
}

interface PendingClaim {
  record: IdempotencyRecord;
  /** Completed or released already: an error sent after a failing onSend must not store again. */
  settled: boolean;
}

/** The journals of recorded routes' requests (absent: no key sent). */
const journals = new WeakMap<FastifyRequest, RequestJournal>();

/** Requests whose answer is not kept under their key (see `answerWithoutStoring`). */
const unstored = new WeakSet<FastifyRequest>();

/**
 * The answer to this request is not kept under its Idempotency-Key: a route that validates its body
 * itself (`attachValidation`) says so for a body its schema refuses, as every other route's schema
 * refuses a body before the key is even looked at. The corrected request may then reuse the key.
 */
export function answerWithoutStoring(request: FastifyRequest): void {
  unstored.add(request);
}

export interface RecordedRoute<T> extends RecordedRequest<T> {
  /** Sends the response for `result`: the very text the last phase stored, when it stored one. */
  send(result: T): FastifyReply;
}

/**
 * What a recorded route hands to its core operation: the request's journal and how a result becomes
 * this route's response (status and wire body, serialised with the route's response schema), so the
 * operation can store the response in the transaction of its last phase.
 */
export function recordedRequest<T>(request: FastifyRequest, reply: FastifyReply, toResponse: (result: T) => { status: number; body: unknown }): RecordedRoute<T> {
  let last: { result: T; response: StoredResponse } | undefined;
  const render = (result: T): StoredResponse => {
    if (last?.result === result) return last.response;
    const { status, body } = toResponse(result);
    const holdsSecret = request.routeOptions.config.idempotency?.responseHoldsSecret === true;
    last = { result, response: { status, body: serialise(reply, status, body), ...(holdsSecret ? { holdsSecret } : {}) } };
    return last.response;
  };
  return {
    journal: journals.get(request),
    render,
    send(result) {
      const { status, body } = render(result);
      return reply.code(status).type('application/json; charset=utf-8').send(body);
    },
  };
}

/** JSON text as the route's response schema for that status writes it (plain JSON without one). */
function serialise(reply: FastifyReply, status: number, body: unknown): string {
  try {
    return reply.serializeInput(body as Record<string, unknown>, String(status)) as string;
  } catch {
    return JSON.stringify(body);
  }
}

export function installIdempotency(api: FastifyInstance, deps: IdempotencyDeps): void {
  const windowSeconds = deps.windowSeconds ?? DEFAULT_IDEMPOTENCY_WINDOW_SECONDS;
  const leaseSeconds = deps.leaseSeconds ?? DEFAULT_IDEMPOTENCY_LEASE_SECONDS;
  if (!(windowSeconds > 0)) throw new RangeError(`idempotency window must be positive, got ${windowSeconds}`);
  if (!(leaseSeconds > 0)) throw new RangeError(`idempotency lease must be positive, got ${leaseSeconds}`);
  const claims = new WeakMap<FastifyRequest, PendingClaim>();

  api.addHook('preHandler', async (request, reply) => {
    const options = request.routeOptions.config.idempotency;
    if (!options) return;
    const key = readIdempotencyKey(request.headers['idempotency-key'], options.maxKeyLength);
    if (key === undefined) {
      if (options.required) throw new AkweError('missing_idempotency_key');
      return;
    }
    const principal = request.principal;
    const route = request.routeOptions.url;
    // A programming error (a public route opting in), not a client's: keys belong to a merchant.
    if (!principal || route === undefined) throw new Error('idempotency needs an authenticated, routed request');

    const method = request.method.toUpperCase();
    const requestHash = requestFingerprint({ method, route, params: request.params, query: request.query, body: request.body });
    const now = deps.clock.now();
    const claim: IdempotencyClaim = {
      merchantId: principal.merchantId,
      environment: principal.environment,
      method,
      route,
      key,
      requestHash,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + windowSeconds * 1000).toISOString(),
      leaseToken: randomUUID(),
      lockedUntil: new Date(now.getTime() + leaseSeconds * 1000).toISOString(),
    };

    if (options.recorded) {
      // No read: the operation claims the key in its first phase, an INSERT the database refuses
      // when the key is taken. Only then is the record read (the route's handler, below).
      journals.set(request, new RequestJournal(claim, undefined, false));
      return;
    }
    const result = await deps.store.claim(claim);
    if (result.outcome === 'claimed') {
      claims.set(request, { record: result.record, settled: false });
      return;
    }
    if (result.outcome === 'contended') throw new AkweError('idempotency_request_in_progress', undefined, { retryAfterSeconds: 1 });
    const taken = await answerExisting(request, reply, result.record, claim, options);
    if (taken === 'replayed') return reply;
    claims.set(request, { record: taken, settled: false });
  });

  /**
   * A recorded route that failed before this run claimed its key (its first phase met the key taken,
   * IdempotencyClaimLost, or it refused the request before writing anything): if the key has a live
   * record, the record answers, as a non-recorded route's preHandler answers it (replay, 422, 409
   * with Retry-After), or, when its holder's lease has ended, the operation runs again resuming what
   * the earlier run recorded. A request whose key is new (nearly all) thus reads nothing first.
   */
  api.addHook('onRoute', (route) => {
    if (!route.config?.idempotency?.recorded) return;
    const options = route.config.idempotency;
    const handler = route.handler as (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
    route.handler = async function recordedHandler(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      try {
        return await handler.call(this, request, reply);
      } catch (error) {
        const journal = journals.get(request);
        if (!journal || journal.isClaimed || journal.resumed || reply.sent) throw error;
        const existing = await deps.store.find(journal.claim, journal.claim.now);
        // No live record (the first phase lost to one released since, or the request is refused on its own merits).
        if (!existing) throw error;
        journals.delete(request);
        const taken = await answerExisting(request, reply, existing, journal.claim, options);
        if (taken === 'replayed') return reply;
        const resumed = { recoveryPoint: taken.recoveryPoint, resourceId: taken.resourceId };
        journals.set(request, new RequestJournal({ ...journal.claim, now: taken.createdAt, expiresAt: taken.expiresAt }, resumed, true));
        return handler.call(this, request, reply);
      }
    };
  });

  /**
   * The answer to a request whose key has a record already: 422 when the record is another
   * request's, its response replayed when it has one ('replayed': sent), 409 while its holder's lease
   * runs; after the lease, the record taken over by this request (returned: it runs as its holder).
   */
  async function answerExisting(
    request: FastifyRequest,
    reply: FastifyReply,
    existing: IdempotencyRecord,
    claim: IdempotencyClaim,
    options: IdempotencyRouteConfig,
  ): Promise<IdempotencyRecord | 'replayed'> {
    if (existing.requestHash !== claim.requestHash) throw new AkweError('idempotency_key_reused');
    if (existing.state === 'completed' && existing.responseStatus !== null) {
      replay(reply, existing, options);
      return 'replayed';
    }
    const leaseLeftMs = existing.lockedUntil === null ? 0 : Date.parse(existing.lockedUntil) - Date.parse(claim.now);
    if (leaseLeftMs > 0) throw new AkweError('idempotency_request_in_progress', undefined, { retryAfterSeconds: leaseLeftMs / 1000 });
    // The holder's lease has ended: it is presumed gone, and this retry takes the request over.
    const taken = await deps.store.takeOver(existing, claim.leaseToken, claim.lockedUntil, claim.now);
    if (!taken) throw new AkweError('idempotency_request_in_progress', undefined, { retryAfterSeconds: 1 });
    request.log.info({ idempotency_route: claim.route, recovery_point: taken.recoveryPoint }, 'idempotency claim taken over after its lease');
    return taken;
  }

  api.addHook('onSend', async (request, reply, payload) => {
    const journal = journals.get(request);
    const claim = claims.get(request);
    if (journal ? journal.isFinished : !claim || claim.settled) return payload;
    if (claim) claim.settled = true;
    const body = storableBody(payload);
    // A server error, a stream, an answer that says "retry later", or one the route keeps out: nothing worth replaying.
    const answered = reply.statusCode < 500 && body !== undefined && !reply.hasHeader('retry-after') && !unstored.has(request);
    const response = answered ? { status: reply.statusCode, body: body! } : undefined;
    const settle = journal ? settleJournal(request, journal, response) : settleClaim(request, claim!, response);
    // Shutdown waits for this write even when the client has already gone.
    await (deps.work ? deps.work.track(settle) : settle);
    return payload;
  });

  async function settleJournal(request: FastifyRequest, journal: RequestJournal, response: StoredResponse | undefined): Promise<void> {
    try {
      if (response) {
        const write = journal.finish(journal.resumed?.resourceId ?? null, response);
        await deps.store.write(write);
        journal.committed(write);
      } else if (journal.isClaimed) {
        // A phase committed: a retry must resume it, now rather than after the lease.
        await deps.store.endLease(journal.claim, journal.claim.leaseToken, deps.clock.now().toISOString());
      }
    } catch (error) {
      if (error instanceof IdempotencyClaimLost) return; // another request holds the key: its answer counts
      request.log.error({ err: error }, 'idempotency record could not be updated');
    }
  }

  async function settleClaim(request: FastifyRequest, claim: PendingClaim, response: StoredResponse | undefined): Promise<void> {
    try {
      if (!response) {
        // Nothing worth replaying: the client may try again.
        await deps.store.release(claim.record);
      } else if (!(await deps.store.complete(claim.record, response))) {
        request.log.warn({ idempotency_route: claim.record.route }, 'idempotency claim vanished before its response was stored');
      }
    } catch (error) {
      // The response stands; the claim stays in progress until its lease ends (then a retry takes over).
      request.log.error({ err: error }, 'idempotency record could not be updated');
    }
  }
}

/** The response body as text, or undefined when it cannot be kept (a stream). */
function storableBody(payload: unknown): string | undefined {
  if (payload === null || payload === undefined) return '';
  if (typeof payload === 'string') return payload;
  if (Buffer.isBuffer(payload)) return payload.toString('utf8');
  return undefined;
}

function replay(reply: FastifyReply, record: IdempotencyRecord, options: IdempotencyRouteConfig): FastifyReply {
  const storedStatus = record.responseStatus ?? 200;
  const status = options.replayStatus !== undefined && storedStatus >= 200 && storedStatus < 300 ? options.replayStatus : storedStatus;
  reply.code(status).header(IDEMPOTENT_REPLAYED_HEADER, 'true');
  const text = record.responseBody ?? '';
  if (text === '') return reply.send();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return reply.type('text/plain; charset=utf-8').send(text);
  }
  reply.type('application/json; charset=utf-8');
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) && Object.hasOwn(parsed, 'idempotent_replay')) {
    return reply.send(JSON.stringify({ ...parsed, idempotent_replay: true }));
  }
  // Byte for byte what the first request received.
  return reply.send(text);
}
