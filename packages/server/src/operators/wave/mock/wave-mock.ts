/**
 * A mock Wave Business API server that follows the published API: bearer API key (401 with Wave's
 * auth codes), checkout sessions (create with an optional Idempotency-Key, get, get by
 * transaction_id, search by client_reference, expire, refund), payouts (create with a required
 * Idempotency-Key, get, search), the Balance API (the wallet's balance, its movements of a day in
 * pages), Wave's `{ code, message }` errors, and signed webhooks
 * (`Wave-Signature`, signing-secret strategy) to a configured URL.
 *
 * A session's `wave_launch_url` is a page on the mock itself (`<prefix>/pay/<session id>`) standing
 * in for the Wave app: posting its form pays, fails or abandons the session as a customer would,
 * sends the webhook and redirects the browser to the session's success_url or error_url. Payouts
 * follow the recipient's number (wave-mock-outcomes.ts). Faults (errors, slow answers, dropped
 * webhooks, an answer that never comes) are set through `/_mock/*` or the returned handle. Never
 * used by the server itself: tests, `akwe mocks` and whoever wants live mode on one machine.
 */
import { waveMockTransactions } from './wave-mock-report.js';
import { createHash, randomBytes } from 'node:crypto';
import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sameText } from '../../../core/shared/constant-time.js';
import { MockTimers, startMockServer, type RunningMock } from '../../mocks/mock-server.js';
import { signWaveWebhook } from '../wave-webhooks.js';
import { customerOutcomes, DEFAULT_PAYMENT_ERROR, payoutOutcome, type CustomerOutcome } from './wave-mock-outcomes.js';

export interface WaveMockOptions {
  /** The API key the mock accepts as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** The webhook's signing secret. */
  webhookSecret?: string;
  /** Where webhooks go; none are sent until it is set (also `state.webhookUrl = …` later). */
  webhookUrl?: string;
  currency?: string;
  /** How long a payout stays processing before its outcome; 0: the POST answers the final status. */
  decisionDelayMs?: number;
  /** How long a checkout session stays open (Wave: 30 minutes). */
  sessionTtlMs?: number;
  /** Wave's payout fee, in basis points of receive_amount, charged on top (1%). */
  payoutFeeBps?: number;
  businessName?: string;
}

export interface WaveMockFaults {
  /** Answer this many next API calls with `failStatus` and a Wave error body, doing nothing. */
  failNext: number;
  failStatus: number;
  /** Hold every API answer this long (a slow operator; the client's timeout fires first). */
  delayMs: number;
  /** Send no webhooks (the gateway must find the outcome by asking). */
  dropWebhooks: boolean;
  /** Make the change (and remember the idempotency key) but never answer: the client sees a timeout. */
  acceptThenHang: boolean;
}

interface WaveErrorBody {
  code: string;
  message: string;
}

export interface WaveMockSession {
  id: string;
  amount: string;
  currency: string;
  checkoutStatus: 'open' | 'complete' | 'expired';
  paymentStatus: 'processing' | 'cancelled' | 'succeeded';
  clientReference?: string;
  successUrl: string;
  errorUrl: string;
  launchUrl: string;
  restrictPayerMobile?: string;
  transactionId?: string;
  whenCreated: string;
  whenExpires: string;
  whenCompleted?: string;
  lastPaymentError?: WaveErrorBody;
  /** Refund POSTs received, and whether the money went back (once at most). */
  refundPosts: number;
  refunded: boolean;
}

export interface WaveMockPayout {
  id: string;
  currency: string;
  receiveAmount: string;
  fee: string;
  mobile: string;
  name?: string;
  clientReference?: string;
  paymentReason?: string;
  status: 'processing' | 'succeeded' | 'failed' | 'reversed';
  timestamp: string;
  error?: { error_code: string; error_message: string };
}

export interface WaveMockWebhook {
  eventId: string;
  type: string;
  /** The session or payout it is about. */
  subject: string;
  /** The receiver's HTTP status, or `error` when it could not be reached; absent while in flight. */
  outcome?: number | 'error';
}

/** The first answer given under an Idempotency-Key, and the body it was given for. */
interface StoredAnswer {
  fingerprint: string;
  status: number;
  body: unknown;
}

type Scope = 'checkout' | 'payout';

export const DEFAULT_WAVE_MOCK_API_KEY = 'wave_ci_mock_api_key';
export const DEFAULT_WAVE_MOCK_WEBHOOK_SECRET = 'wave_ci_mock_webhook_secret';

/** Movements per page of GET /v1/transactions (small, so that tests page through them). */
const TRANSACTIONS_PAGE = 2;
const wholeAmount = /^[1-9]\d{0,11}$/;
const e164 = /^\+[1-9]\d{7,14}$/;
const idAlphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';

function randomId(prefix: string, length = 13): string {
  const bytes = randomBytes(length);
  return prefix + Array.from(bytes, (b) => idAlphabet[b % idAlphabet.length]).join('');
}

/** Wave writes UTC times to the second. */
function utc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON with sorted keys: two bodies with the same content have the same fingerprint. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

function fingerprint(body: unknown): string {
  return createHash('sha256')
    .update(canonical(body ?? null))
    .digest('hex');
}

function errorBody(code: string, message: string): WaveErrorBody {
  return { code, message };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function absoluteUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** The mock's state, shared by its routes and the handle tests hold. */
export class WaveMockState extends MockTimers {
  readonly sessions = new Map<string, WaveMockSession>();
  readonly payouts = new Map<string, WaveMockPayout>();
  /** `${scope}:${Idempotency-Key}` -> the first answer. */
  readonly idempotency = new Map<string, StoredAnswer>();
  /** POSTs received per `${scope}:${Idempotency-Key}`, repeats included (how many times we were asked). */
  readonly posts = new Map<string, number>();
  readonly webhooks: WaveMockWebhook[] = [];
  faults: WaveMockFaults = { failNext: 0, failStatus: 500, delayMs: 0, dropWebhooks: false, acceptThenHang: false };
  webhookUrl: string | undefined;
  /** The wallet's balance in major units (`POST /_mock/balance` sets it). */
  balance = 10_000_000;

  constructor(readonly options: Required<Omit<WaveMockOptions, 'webhookUrl'>> & { webhookUrl?: string }) {
    super();
    this.webhookUrl = options.webhookUrl;
  }

  postsFor(scope: Scope, idempotencyKey: string): number {
    return this.posts.get(`${scope}:${idempotencyKey}`) ?? 0;
  }

  /** A session, expired first if its time is up (Wave ends an unpaid session at when_expires). */
  session(id: string): WaveMockSession | undefined {
    const session = this.sessions.get(id);
    if (session && session.checkoutStatus === 'open' && Date.parse(session.whenExpires) <= Date.now()) this.expireSession(id);
    return session;
  }

  sessionsByReference(reference: string): WaveMockSession[] {
    return [...this.sessions.keys()].map((id) => this.session(id)!).filter((s) => s.clientReference === reference);
  }

  payoutsByReference(reference: string): WaveMockPayout[] {
    return [...this.payouts.values()].filter((p) => p.clientReference === reference);
  }

  setFaults(faults: Partial<WaveMockFaults>): void {
    this.faults = { ...this.faults, ...faults };
  }

  /** The customer acts on the pay page: pays, fails an attempt (the session stays open) or gives up. */
  completeSession(id: string, outcome: CustomerOutcome, error: WaveErrorBody = DEFAULT_PAYMENT_ERROR): WaveMockSession | undefined {
    const session = this.session(id);
    if (!session || session.checkoutStatus !== 'open') return session;
    if (outcome === 'succeeded') {
      session.checkoutStatus = 'complete';
      session.paymentStatus = 'succeeded';
      session.transactionId = randomId('T_', 12).toUpperCase();
      session.whenCompleted = utc(Date.now());
      this.sendWebhook('checkout.session.completed', session.id, this.sessionBody(session));
    } else if (outcome === 'failed') {
      session.lastPaymentError = { ...error };
      this.sendWebhook('checkout.session.payment_failed', session.id, this.sessionBody(session));
    } else {
      // Giving up ends the session as its expiry would; Wave documents no event for that.
      this.expireSession(id);
    }
    return session;
  }

  /** Ends an open session unpaid (POST …/expire, or its time ran out). */
  expireSession(id: string): WaveMockSession | undefined {
    const session = this.sessions.get(id);
    if (!session || session.checkoutStatus !== 'open') return session;
    session.checkoutStatus = 'expired';
    session.paymentStatus = 'cancelled';
    session.whenCompleted = utc(Date.now());
    return session;
  }

  /**
   * Decides a payout now (a test finishing a "stays processing" one), or reverses a succeeded one
   * (what the business can do within three days). Wave sends no webhook for payouts.
   */
  settlePayout(id: string, status: 'succeeded' | 'failed' | 'reversed', errorCode?: string, errorMessage?: string): WaveMockPayout | undefined {
    const payout = this.payouts.get(id);
    if (!payout) return undefined;
    if (status === 'reversed') {
      if (payout.status === 'succeeded') payout.status = 'reversed';
      return payout;
    }
    if (payout.status !== 'processing') return payout;
    payout.status = status;
    if (status === 'failed') payout.error = { error_code: errorCode ?? 'internal-server-error', error_message: errorMessage ?? 'The payout could not be completed.' };
    return payout;
  }

  /** The session as Wave returns it (and puts in a webhook's `data`). */
  sessionBody(session: WaveMockSession): Record<string, unknown> {
    return {
      id: session.id,
      amount: session.amount,
      checkout_status: session.checkoutStatus,
      client_reference: session.clientReference ?? null,
      currency: session.currency,
      error_url: session.errorUrl,
      last_payment_error: session.lastPaymentError ?? null,
      business_name: this.options.businessName,
      payment_status: session.paymentStatus,
      ...(session.restrictPayerMobile ? { restrict_payer_mobile: session.restrictPayerMobile } : {}),
      success_url: session.successUrl,
      transaction_id: session.transactionId ?? null,
      wave_launch_url: session.launchUrl,
      when_completed: session.whenCompleted ?? null,
      when_created: session.whenCreated,
      when_expires: session.whenExpires,
    };
  }

  payoutBody(payout: WaveMockPayout): Record<string, unknown> {
    return {
      id: payout.id,
      currency: payout.currency,
      receive_amount: payout.receiveAmount,
      fee: payout.fee,
      mobile: payout.mobile,
      name: payout.name ?? null,
      client_reference: payout.clientReference ?? null,
      ...(payout.paymentReason ? { payment_reason: payout.paymentReason } : {}),
      status: payout.status,
      timestamp: payout.timestamp,
      ...(payout.error ? { payout_error: payout.error } : {}),
    };
  }

  /** Posts a signed event `{ id, type, data }` to the webhook URL; Wave's retries are not mocked. */
  sendWebhook(type: string, subject: string, data: Record<string, unknown>): void {
    const url = this.webhookUrl;
    if (!url || this.faults.dropWebhooks) return;
    const event = { id: randomId('AE_', 12), type, data };
    const body = JSON.stringify(event);
    const record: WaveMockWebhook = { eventId: event.id, type, subject };
    this.webhooks.push(record);
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'wave-signature': signWaveWebhook(body, this.options.webhookSecret, Date.now() / 1000) },
      body,
      signal: AbortSignal.timeout(10_000),
    }).then(
      (response) => {
        record.outcome = response.status;
        return response.body?.cancel();
      },
      () => {
        record.outcome = 'error';
      },
    );
  }
}

function payPage(session: WaveMockSession, businessName: string): string {
  const amount = `${escapeHtml(session.amount)} ${escapeHtml(session.currency)}`;
  const open = session.checkoutStatus === 'open';
  const lastError = session.lastPaymentError ? `<p>Last attempt failed: ${escapeHtml(session.lastPaymentError.code)}</p>` : '';
  const form = open
    ? `<form method="post">
  <label>Paying from <input name="mobile" placeholder="+225…" value="${escapeHtml(session.restrictPayerMobile ?? '')}"></label>
  <button name="outcome" value="succeeded">Pay ${amount}</button>
  <button name="outcome" value="failed">Fail (insufficient funds)</button>
  <button name="outcome" value="cancelled">Cancel</button>
</form>`
    : `<p>This checkout is ${escapeHtml(session.checkoutStatus)} (${escapeHtml(session.paymentStatus)}).</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Wave mock – ${escapeHtml(session.id)}</title></head>
<body><h1>Wave (mock)</h1><p>${escapeHtml(businessName)} asks for ${amount}.</p>${lastError}${form}</body></html>`;
}

export function waveMockPlugin(state: WaveMockState) {
  return async (app: FastifyInstance): Promise<void> => {
    const { options } = state;
    await app.register(formBody, { bodyLimit: 4096 });

    // Parse failures and the like, in Wave's shape rather than Fastify's.
    app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
      if (error.statusCode !== undefined && error.statusCode < 500) return reply.code(400).send(errorBody('request-validation-error', error.message));
      return reply.code(500).send(errorBody('internal-server-error', 'An internal server error occurred.'));
    });

    const isApi = (request: FastifyRequest) => !request.url.includes('/_mock/') && !request.url.includes('/pay/');

    // Faults apply to Wave's API, never to the /_mock control routes or the customer's pay page.
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!isApi(request)) return;
      if (state.faults.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.faults.delayMs));
      if (state.faults.failNext > 0) {
        state.faults.failNext -= 1;
        const status = state.faults.failStatus;
        return reply
          .code(status)
          .send(
            status === 503 ? errorBody('service-unavailable', 'The service is temporarily unavailable.') : errorBody('internal-server-error', 'An internal server error occurred.'),
          );
      }
      // Wave's authentication phase, with its codes.
      const header = request.headers.authorization;
      if (header === undefined) return reply.code(401).send(errorBody('missing-auth-header', 'Your request should include an HTTP auth header.'));
      const bearer = /^Bearer(?:\s+(.*))?$/.exec(header);
      if (!bearer) return reply.code(401).send(errorBody('invalid-auth', 'Your HTTP auth header can’t be processed.'));
      const key = (bearer[1] ?? '').trim();
      if (key === '') return reply.code(401).send(errorBody('api-key-not-provided', 'Your request should include an API key.'));
      if (!sameText(key, options.apiKey)) return reply.code(401).send(errorBody('no-matching-api-key', 'The key you provided doesn’t exist in our system.'));
    });

    const invalid = (reply: FastifyReply, message: string) => reply.code(400).send(errorBody('request-validation-error', message));

    /**
     * Wave's idempotency: the first answer under a key is kept with the body's fingerprint; the same
     * key and body get that answer again without acting, another body is refused 409. A request
     * that fails validation is not kept (nothing was started), as Wave's docs describe it.
     */
    const idempotent = async (
      scope: Scope,
      request: FastifyRequest,
      reply: FastifyReply,
      validate: () => string | undefined,
      act: () => { status: number; body: unknown },
      required: boolean,
    ) => {
      const key = request.headers['idempotency-key'];
      const idempotencyKey = typeof key === 'string' && key.trim() !== '' ? key.trim() : undefined;
      if (idempotencyKey) state.posts.set(`${scope}:${idempotencyKey}`, state.postsFor(scope, idempotencyKey) + 1);
      if (!idempotencyKey && required) return invalid(reply, 'The Idempotency-Key header is required.');
      const problem = validate();
      if (problem) return invalid(reply, problem);
      const print = fingerprint(request.body);
      const slot = idempotencyKey ? `${scope}:${idempotencyKey}` : undefined;
      const stored = slot ? state.idempotency.get(slot) : undefined;
      if (stored) {
        if (stored.fingerprint !== print) return reply.code(409).send(errorBody('idempotency-mismatch', 'This Idempotency-Key was already used with a different request body.'));
        return reply.code(stored.status).send(stored.body);
      }
      const answer = act();
      if (slot) state.idempotency.set(slot, { fingerprint: print, ...answer });
      if (state.faults.acceptThenHang) return new Promise(() => undefined);
      return reply.code(answer.status).send(answer.body);
    };

    // ---- Checkout API
    app.post('/v1/checkout/sessions', async (request, reply) => {
      const body = (isRecord(request.body) ? request.body : {}) as Record<string, unknown>;
      const validate = () => {
        if (typeof body['amount'] !== 'string' || !wholeAmount.test(body['amount'])) return 'amount must be a positive whole number of francs written as a string, e.g. "1000".';
        if (body['currency'] !== options.currency) return `currency must be ${options.currency}.`;
        if (!absoluteUrl(body['success_url'])) return 'success_url must be an absolute URL.';
        if (!absoluteUrl(body['error_url'])) return 'error_url must be an absolute URL.';
        if (body['client_reference'] !== undefined && (typeof body['client_reference'] !== 'string' || body['client_reference'].length > 255))
          return 'client_reference must be a string of at most 255 characters.';
        if (body['restrict_payer_mobile'] !== undefined && (typeof body['restrict_payer_mobile'] !== 'string' || !e164.test(body['restrict_payer_mobile'])))
          return 'restrict_payer_mobile must be an E.164 number.';
        return undefined;
      };
      return idempotent(
        'checkout',
        request,
        reply,
        validate,
        () => {
          const id = randomId('cos-');
          const now = Date.now();
          const launchBase = `${request.protocol}://${request.host}${app.prefix}`;
          const session: WaveMockSession = {
            id,
            amount: body['amount'] as string,
            currency: options.currency,
            checkoutStatus: 'open',
            paymentStatus: 'processing',
            successUrl: body['success_url'] as string,
            errorUrl: body['error_url'] as string,
            launchUrl: `${launchBase}/pay/${id}`,
            whenCreated: utc(now),
            whenExpires: utc(now + options.sessionTtlMs),
            refundPosts: 0,
            refunded: false,
            ...(typeof body['client_reference'] === 'string' ? { clientReference: body['client_reference'] } : {}),
            ...(typeof body['restrict_payer_mobile'] === 'string' ? { restrictPayerMobile: body['restrict_payer_mobile'] } : {}),
          };
          state.sessions.set(id, session);
          return { status: 200, body: state.sessionBody(session) };
        },
        false,
      );
    });

    const sessionNotFound = (reply: FastifyReply) => reply.code(404).send(errorBody('checkout-session-not-found', 'The checkout session was not found.'));

    app.get<{ Querystring: { client_reference?: string } }>('/v1/checkout/sessions/search', async (request, reply) => {
      const reference = request.query.client_reference;
      if (!reference) return invalid(reply, 'client_reference is required.');
      return { result: state.sessionsByReference(reference).map((s) => state.sessionBody(s)) };
    });

    app.get<{ Querystring: { transaction_id?: string } }>('/v1/checkout/sessions', async (request, reply) => {
      const transactionId = request.query.transaction_id;
      if (!transactionId) return invalid(reply, 'transaction_id is required.');
      const session = [...state.sessions.values()].find((s) => s.transactionId === transactionId);
      return session ? state.sessionBody(session) : sessionNotFound(reply);
    });

    app.get<{ Params: { id: string } }>('/v1/checkout/sessions/:id', async (request, reply) => {
      const session = state.session(request.params.id);
      return session ? state.sessionBody(session) : sessionNotFound(reply);
    });

    app.post<{ Params: { id: string } }>('/v1/checkout/sessions/:id/expire', async (request, reply) => {
      const session = state.session(request.params.id);
      if (!session) return sessionNotFound(reply);
      // Wave refuses to expire a session that is no longer open; its docs give no code for it.
      if (session.checkoutStatus !== 'open') return reply.code(409).send(errorBody('checkout-session-not-open', `The checkout session is ${session.checkoutStatus}.`));
      state.expireSession(session.id);
      return reply.code(200).send();
    });

    app.post<{ Params: { id: string } }>('/v1/checkout/sessions/:id/refund', async (request, reply) => {
      const session = state.session(request.params.id);
      if (!session) return sessionNotFound(reply);
      session.refundPosts += 1;
      if (session.paymentStatus !== 'succeeded') return reply.code(400).send(errorBody('checkout-refund-failed', 'Only a paid checkout session can be refunded.'));
      // The whole amount, once: a repeat is answered 200 and refunds nothing more.
      session.refunded = true;
      if (state.faults.acceptThenHang) return new Promise(() => undefined);
      return reply.code(200).send();
    });

    // ---- The customer's side: what wave_launch_url opens.
    app.get<{ Params: { id: string } }>('/pay/:id', async (request, reply) => {
      const session = state.session(request.params.id);
      if (!session) return reply.code(404).type('text/html; charset=utf-8').send('<!doctype html><p>No such checkout.</p>');
      return reply.type('text/html; charset=utf-8').send(payPage(session, options.businessName));
    });

    app.post<{ Params: { id: string }; Body: { outcome?: string; mobile?: string; error_code?: string } | undefined }>('/pay/:id', async (request, reply) => {
      const session = state.session(request.params.id);
      if (!session) return reply.code(404).type('text/html; charset=utf-8').send('<!doctype html><p>No such checkout.</p>');
      if (session.checkoutStatus !== 'open') return reply.code(409).type('text/html; charset=utf-8').send(payPage(session, options.businessName));
      const asked = request.body?.outcome ?? 'succeeded';
      if (!(customerOutcomes as readonly string[]).includes(asked))
        return reply.code(400).type('text/html; charset=utf-8').send('<!doctype html><p>outcome must be succeeded, failed or cancelled.</p>');
      let outcome = asked as CustomerOutcome;
      let error = request.body?.error_code ? { code: request.body.error_code, message: `Payment failed: ${request.body.error_code}.` } : DEFAULT_PAYMENT_ERROR;
      // A session restricted to one payer refuses any other wallet.
      const mobile = request.body?.mobile?.trim();
      if (outcome === 'succeeded' && session.restrictPayerMobile && mobile && mobile !== session.restrictPayerMobile) {
        outcome = 'failed';
        error = { code: 'payer-mobile-mismatch', message: 'This checkout can only be paid by another Wave account.' };
      }
      state.completeSession(session.id, outcome, error);
      return reply.redirect(outcome === 'succeeded' ? session.successUrl : session.errorUrl, 303);
    });

    // ---- Payout API
    app.post('/v1/payout', async (request, reply) => {
      const body = (isRecord(request.body) ? request.body : {}) as Record<string, unknown>;
      const validate = () => {
        if (body['currency'] !== options.currency) return `currency must be ${options.currency}.`;
        if (typeof body['receive_amount'] !== 'string' || !wholeAmount.test(body['receive_amount']))
          return 'receive_amount must be a positive whole number of francs written as a string.';
        if (typeof body['mobile'] !== 'string' || !e164.test(body['mobile'])) return 'mobile must be an E.164 number, e.g. +2250700000000.';
        if (body['name'] !== undefined && (typeof body['name'] !== 'string' || body['name'].length > 255)) return 'name must be a string of at most 255 characters.';
        if (body['client_reference'] !== undefined && (typeof body['client_reference'] !== 'string' || body['client_reference'].length > 255))
          return 'client_reference must be a string of at most 255 characters.';
        if (body['payment_reason'] !== undefined && (typeof body['payment_reason'] !== 'string' || body['payment_reason'].length > 40))
          return 'payment_reason must be a string of at most 40 characters.';
        return undefined;
      };
      return idempotent(
        'payout',
        request,
        reply,
        validate,
        () => {
          const mobile = body['mobile'] as string;
          const outcome = payoutOutcome(mobile);
          if (outcome.kind === 'refuse') return { status: outcome.httpStatus, body: errorBody(outcome.code, outcome.message) };
          const receiveAmount = body['receive_amount'] as string;
          const payout: WaveMockPayout = {
            id: randomId('pt-'),
            currency: options.currency,
            receiveAmount,
            fee: String(Math.ceil((Number(receiveAmount) * options.payoutFeeBps) / 10_000)),
            mobile,
            status: 'processing',
            timestamp: utc(Date.now()),
            ...(typeof body['name'] === 'string' ? { name: body['name'] } : {}),
            ...(typeof body['client_reference'] === 'string' ? { clientReference: body['client_reference'] } : {}),
            ...(typeof body['payment_reason'] === 'string' ? { paymentReason: body['payment_reason'] } : {}),
          };
          state.payouts.set(payout.id, payout);
          if (outcome.kind === 'decide') {
            const decide = () =>
              state.settlePayout(
                payout.id,
                outcome.status,
                outcome.status === 'failed' ? outcome.errorCode : undefined,
                outcome.status === 'failed' ? outcome.errorMessage : undefined,
              );
            if (options.decisionDelayMs <= 0) decide();
            else state.later(options.decisionDelayMs, decide);
          }
          return { status: 200, body: state.payoutBody(payout) };
        },
        true,
      );
    });

    app.get<{ Params: { id: string } }>('/v1/payout/:id', async (request, reply) => {
      const payout = state.payouts.get(request.params.id);
      return payout ? state.payoutBody(payout) : reply.code(404).send(errorBody('payout-not-found', 'The payout was not found.'));
    });

    app.get<{ Querystring: { client_reference?: string } }>('/v1/payouts/search', async (request, reply) => {
      const reference = request.query.client_reference;
      if (!reference) return invalid(reply, 'client_reference is required.');
      return { result: state.payoutsByReference(reference).map((p) => state.payoutBody(p)) };
    });

    app.get('/v1/balance', async () => ({ amount: String(state.balance), currency: options.currency }));

    // The wallet's movements of a day (default today, UTC), a page at a time: `after` is the
    // previous page's `end_cursor` (here, the offset of the next item as text).
    app.get<{ Querystring: { date?: string; after?: string } }>('/v1/transactions', async (request, reply) => {
      const day = request.query.date ?? new Date().toISOString().slice(0, 10);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return invalid(reply, 'date must be a date, YYYY-MM-DD.');
      const start = request.query.after === undefined ? 0 : Number(Buffer.from(request.query.after, 'base64url').toString('utf8'));
      if (!Number.isInteger(start) || start < 0) return invalid(reply, 'after is not a cursor of this list.');
      const all = waveMockTransactions(state, day);
      const items = all.slice(start, start + TRANSACTIONS_PAGE);
      const more = start + items.length < all.length;
      const cursor = (at: number) => Buffer.from(String(at), 'utf8').toString('base64url');
      return {
        page_info: { start_cursor: request.query.after ?? null, end_cursor: more ? cursor(start + items.length) : null, has_next_page: more },
        date: day,
        items,
      };
    });

    // ---- Control routes: what a test or a person at the terminal drives the mock with.
    app.get('/_mock/stats', async () => ({
      posts: Object.fromEntries(state.posts),
      sessions: [...state.sessions.values()].map((s) => ({
        id: s.id,
        client_reference: s.clientReference ?? null,
        checkout_status: s.checkoutStatus,
        payment_status: s.paymentStatus,
        refund_posts: s.refundPosts,
        refunded: s.refunded,
      })),
      payouts: [...state.payouts.values()].map((p) => ({ id: p.id, client_reference: p.clientReference ?? null, status: p.status })),
      webhooks: state.webhooks.map((w) => ({ event_id: w.eventId, type: w.type, subject: w.subject, outcome: w.outcome ?? null })),
      webhook_url: state.webhookUrl ?? null,
    }));
    app.post('/_mock/balance', async (request, reply) => {
      const balance = Number(((request.body ?? {}) as Record<string, unknown>)['balance']);
      if (!Number.isFinite(balance)) return reply.code(400).send({ error: 'give { "balance": <major units> }' });
      state.balance = balance;
      return { balance };
    });
    app.post('/_mock/faults', async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      state.setFaults({
        ...(typeof body['fail_next'] === 'number' ? { failNext: body['fail_next'] } : {}),
        ...(typeof body['fail_status'] === 'number' ? { failStatus: body['fail_status'] } : {}),
        ...(typeof body['delay_ms'] === 'number' ? { delayMs: body['delay_ms'] } : {}),
        ...(typeof body['drop_webhooks'] === 'boolean' ? { dropWebhooks: body['drop_webhooks'] } : {}),
        ...(typeof body['accept_then_hang'] === 'boolean' ? { acceptThenHang: body['accept_then_hang'] } : {}),
      });
      return state.faults;
    });
    app.post<{ Body: { url?: string } | undefined }>('/_mock/webhook-url', async (request, reply) => {
      const url = request.body?.url;
      if (url !== undefined && !absoluteUrl(url)) return reply.code(400).send(errorBody('request-validation-error', 'url must be an absolute URL.'));
      state.webhookUrl = url;
      return { webhook_url: state.webhookUrl ?? null };
    });
    app.post<{ Params: { id: string }; Body: { outcome?: string; error_code?: string; error_message?: string } | undefined }>(
      '/_mock/sessions/:id/settle',
      async (request, reply) => {
        const asked = request.body?.outcome ?? 'succeeded';
        if (!(customerOutcomes as readonly string[]).includes(asked))
          return reply.code(400).send(errorBody('request-validation-error', 'outcome must be succeeded, failed or cancelled.'));
        const error = request.body?.error_code ? { code: request.body.error_code, message: request.body.error_message ?? request.body.error_code } : DEFAULT_PAYMENT_ERROR;
        const session = state.completeSession(request.params.id, asked as CustomerOutcome, error);
        return session ? state.sessionBody(session) : sessionNotFound(reply);
      },
    );
    app.post<{ Params: { id: string } }>('/_mock/sessions/:id/expire', async (request, reply) => {
      const session = state.expireSession(request.params.id);
      return session ? state.sessionBody(session) : sessionNotFound(reply);
    });
    app.post<{ Params: { id: string }; Body: { status?: 'succeeded' | 'failed' | 'reversed'; error_code?: string; error_message?: string } | undefined }>(
      '/_mock/payouts/:id/settle',
      async (request, reply) => {
        const status = request.body?.status ?? 'succeeded';
        if (!['succeeded', 'failed', 'reversed'].includes(status))
          return reply.code(400).send(errorBody('request-validation-error', 'status must be succeeded, failed or reversed.'));
        const payout = state.settlePayout(request.params.id, status, request.body?.error_code, request.body?.error_message);
        return payout ? state.payoutBody(payout) : reply.code(404).send(errorBody('payout-not-found', 'No such payout.'));
      },
    );
  };
}

export function waveMockState(options: WaveMockOptions = {}): WaveMockState {
  return new WaveMockState({
    apiKey: options.apiKey ?? DEFAULT_WAVE_MOCK_API_KEY,
    webhookSecret: options.webhookSecret ?? DEFAULT_WAVE_MOCK_WEBHOOK_SECRET,
    ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}),
    currency: options.currency ?? 'XOF',
    decisionDelayMs: options.decisionDelayMs ?? 0,
    sessionTtlMs: options.sessionTtlMs ?? 30 * 60_000,
    payoutFeeBps: options.payoutFeeBps ?? 100,
    businessName: options.businessName ?? 'Akwe (Wave mock)',
  });
}

export type RunningWaveMock = RunningMock<WaveMockState>;

/** Starts the mock alone on a port of its own (0: any free one). */
export function startWaveMock(options: WaveMockOptions & { port?: number; host?: string } = {}): Promise<RunningWaveMock> {
  const state = waveMockState(options);
  return startMockServer(state, waveMockPlugin(state), options);
}
