/**
 * Idempotency keys (PRODUCT.md "Idempotency", SPEC.md "Limits"), for the routes that opt in through
 * their config: `config: { idempotency: { required: true } }`.
 *
 * Installed in the authenticated scope after `installAuthentication`. It works in two hooks:
 * - preHandler (after authentication and schema validation, so an invalid request stores nothing):
 *   checks the header, then claims the key with an INSERT the database refuses a second time, or
 *   answers from the record already there: a replay, 409 in progress, or 422 reused;
 * - onSend: stores the status and body of a response below 500, or releases the claim on a 5xx so
 *   the client may retry.
 * Errors are thrown as AkweError, so each contract's error handler gives them its own shape.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AkweError } from '../../core/errors/index.js';
import type { IdempotencyRecord, IdempotencyStore } from '../../core/idempotency/idempotency-store.js';
import { requestFingerprint } from '../../core/idempotency/request-fingerprint.js';
import type { Clock } from '../../core/ports.js';
import type { InFlightWork } from './in-flight-work.js';

export interface IdempotencyRouteConfig {
  /** Missing header: 400 missing_idempotency_key when true; no idempotency at all when false. */
  required: boolean;
  /** Longest key accepted, at most (and by default) 255; the earlier contract uses 128. */
  maxKeyLength?: number;
  /** Status of a replayed 2xx response (the earlier contract replays its 201 as 200). */
  replayStatus?: number;
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

export interface IdempotencyDeps {
  store: IdempotencyStore;
  clock: Clock;
  /** How long a record counts after its claim; 24 hours unless told otherwise. */
  windowSeconds?: number;
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

export function installIdempotency(api: FastifyInstance, deps: IdempotencyDeps): void {
  const windowSeconds = deps.windowSeconds ?? DEFAULT_IDEMPOTENCY_WINDOW_SECONDS;
  if (!(windowSeconds > 0)) throw new RangeError(`idempotency window must be positive, got ${windowSeconds}`);
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
    const result = await deps.store.claim({
      merchantId: principal.merchantId,
      environment: principal.environment,
      method,
      route,
      key,
      requestHash,
      now: now.toISOString(),
      expiresAt: new Date(now.getTime() + windowSeconds * 1000).toISOString(),
    });

    if (result.outcome === 'claimed') {
      claims.set(request, { record: result.record, settled: false });
      return;
    }
    if (result.outcome === 'contended') throw new AkweError('idempotency_request_in_progress');
    const existing = result.record;
    if (existing.requestHash !== requestHash) {
      throw new AkweError('idempotency_key_reused');
    }
    if (existing.state !== 'completed' || existing.responseStatus === null) {
      throw new AkweError('idempotency_request_in_progress');
    }
    return replay(reply, existing, options);
  });

  api.addHook('onSend', async (request, reply, payload) => {
    const claim = claims.get(request);
    if (!claim || claim.settled) return payload;
    claim.settled = true;
    const body = storableBody(payload);
    const settle = settleClaim(request, reply.statusCode, body, claim);
    // Shutdown waits for this write even when the client has already gone.
    await (deps.work ? deps.work.track(settle) : settle);
    return payload;
  });

  async function settleClaim(request: FastifyRequest, statusCode: number, body: string | undefined, claim: PendingClaim): Promise<void> {
    try {
      if (statusCode >= 500 || body === undefined) {
        // Nothing worth replaying (a server error, or a stream): the client may try again.
        await deps.store.release(claim.record);
      } else if (!(await deps.store.complete(claim.record, { status: statusCode, body }))) {
        request.log.warn({ idempotency_route: claim.record.route }, 'idempotency claim vanished before its response was stored');
      }
    } catch (error) {
      // The response stands; the claim stays in progress until it expires (never run twice).
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
