/**
 * A mock MTN MoMo Open API server that follows the published API: token issue and expiry per
 * product (Basic auth + Ocp-Apim-Subscription-Key), request-to-pay, transfer and refund with
 * X-Reference-Id (a repeat answers 409 RESOURCE_ALREADY_EXIST), status queries (404
 * RESOURCE_NOT_FOUND for a reference never received), account balance, and the unsigned callback
 * to X-Callback-Url once a transaction is final. Outcomes follow the payer's number
 * (mtn-mock-outcomes.ts); faults (500s, slow answers, dropped callbacks) are set through
 * `/_mock/*` or the returned handle. Never used by the server itself: tests, `akwe mocks` and
 * whoever wants live mode on one machine.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sameText } from '../../../core/shared/constant-time.js';
import { MockTimers, startMockServer, type RunningMock } from '../../mocks/mock-server.js';
import { mockOutcome } from './mtn-mock-outcomes.js';

type Product = 'collection' | 'disbursement';
type Kind = 'requesttopay' | 'transfer' | 'refund';
const productOf: Record<Kind, Product> = { requesttopay: 'collection', transfer: 'disbursement', refund: 'disbursement' };

export interface MtnMockCredentials {
  apiUser: string;
  apiKey: string;
  subscriptionKey: string;
}

export interface MtnMockOptions {
  /** The X-Target-Environment it accepts (e.g. mtnbenin). */
  targetEnvironment?: string;
  currency?: string;
  credentials?: Partial<Record<Product, MtnMockCredentials>>;
  tokenTtlSeconds?: number;
  /** How long a transaction stays PENDING before its outcome (and callback). */
  decisionDelayMs?: number;
  /** The callback's HTTP method (MTN sends PUT). */
  callbackMethod?: 'PUT' | 'POST';
}

export interface MtnMockFaults {
  /** Answer this many next API calls (tokens included) with `failStatus`, doing nothing. */
  failNext: number;
  failStatus: number;
  /** Hold every API answer this long (a slow operator; the client's timeout fires first). */
  delayMs: number;
  /** Send no callbacks (the gateway must find the outcome by polling). */
  dropCallbacks: boolean;
  /** Make the change (store the transaction) but never answer: the client sees a timeout. */
  acceptThenHang: boolean;
}

export interface MtnMockTransaction {
  kind: Kind;
  referenceId: string;
  body: Record<string, unknown>;
  status: 'PENDING' | 'SUCCESSFUL' | 'FAILED';
  reason?: string;
  financialTransactionId?: string;
  callbackUrl?: string;
  callbacksSent: number;
  /** When the mock received it (its partner report's date). */
  createdAt: string;
}

export const DEFAULT_MTN_MOCK_CREDENTIALS: Readonly<Record<Product, MtnMockCredentials>> = Object.freeze({
  collection: { apiUser: '7c2f53f2-1b1e-4f8f-9d1e-2b0c6e6f0a01', apiKey: 'mock-collection-api-key', subscriptionKey: 'mock-collection-subscription-key' },
  disbursement: { apiUser: '0f4d7c55-5a5b-4a49-8f3e-6f7b3b2c9a02', apiKey: 'mock-disbursement-api-key', subscriptionKey: 'mock-disbursement-subscription-key' },
});

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const amountShape = /^\d+(\.\d{1,2})?$/;

/** The mock's state, shared by its routes and the handle tests hold. */
export class MtnMockState extends MockTimers {
  readonly transactions = new Map<string, MtnMockTransaction>();
  /** POSTs received per `${kind}:${referenceId}`, duplicates included (how many times we were asked). */
  readonly posts = new Map<string, number>();
  /** Every API call naming a reference (its POST's X-Reference-Id or its status path), faulted ones included. */
  readonly calls = new Map<string, number>();
  readonly tokens = new Map<string, { product: Product; expiresAtMs: number }>();
  tokensIssued = 0;
  /** Each product account's available balance, in major units (`POST /_mock/balance` sets one). */
  readonly balances = new Map<Product, number>([
    ['collection', 1_000_000],
    ['disbursement', 1_000_000],
  ]);
  faults: MtnMockFaults = { failNext: 0, failStatus: 500, delayMs: 0, dropCallbacks: false, acceptThenHang: false };

  constructor(readonly options: Required<MtnMockOptions>) {
    super();
  }

  /** How many API calls of any kind named this reference (0: this mock never heard of it). */
  callsFor(referenceId: string): number {
    return this.calls.get(referenceId) ?? 0;
  }

  postsFor(kind: Kind, referenceId: string): number {
    return this.posts.get(`${kind}:${referenceId}`) ?? 0;
  }

  transaction(kind: Kind, referenceId: string): MtnMockTransaction | undefined {
    return this.transactions.get(`${kind}:${referenceId}`);
  }

  /** Every token issued so far stops working (the gateway must fetch a new one). */
  expireTokens(): void {
    this.tokens.clear();
  }

  setFaults(faults: Partial<MtnMockFaults>): void {
    this.faults = { ...this.faults, ...faults };
  }

  /** Decides a pending transaction now (a test finishing a "stays pending" one), with its callback. */
  settle(kind: Kind, referenceId: string, status: 'SUCCESSFUL' | 'FAILED', reason?: string): MtnMockTransaction | undefined {
    const tx = this.transaction(kind, referenceId);
    if (!tx || tx.status !== 'PENDING') return tx;
    tx.status = status;
    if (status === 'FAILED') tx.reason = reason ?? 'INTERNAL_PROCESSING_ERROR';
    tx.financialTransactionId = String(Math.floor(1e9 + Math.random() * 9e9));
    if (status === 'SUCCESSFUL') this.move(tx);
    this.sendCallback(tx);
    return tx;
  }

  /** A successful collection fills the collection account; a transfer or refund draws on the disbursement account. */
  private move(tx: MtnMockTransaction): void {
    const amount = Number(tx.body['amount']);
    if (!Number.isFinite(amount)) return;
    const product: Product = tx.kind === 'requesttopay' ? 'collection' : 'disbursement';
    const sign = tx.kind === 'requesttopay' ? 1 : -1;
    this.balances.set(product, (this.balances.get(product) ?? 0) + sign * amount);
  }

  /** The status body MTN returns (and posts to the callback URL). */
  statusBody(tx: MtnMockTransaction): Record<string, unknown> {
    const { body } = tx;
    return {
      amount: body['amount'],
      currency: body['currency'],
      ...(tx.financialTransactionId ? { financialTransactionId: tx.financialTransactionId } : {}),
      externalId: body['externalId'],
      ...(tx.kind === 'requesttopay' ? { payer: body['payer'] } : {}),
      ...(tx.kind === 'transfer' ? { payee: body['payee'] } : {}),
      payerMessage: body['payerMessage'],
      payeeNote: body['payeeNote'],
      status: tx.status,
      ...(tx.reason ? { reason: tx.reason } : {}),
    };
  }

  private sendCallback(tx: MtnMockTransaction): void {
    if (!tx.callbackUrl || this.faults.dropCallbacks) return;
    tx.callbacksSent += 1;
    fetch(tx.callbackUrl, {
      method: this.options.callbackMethod,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(this.statusBody(tx)),
      signal: AbortSignal.timeout(10_000),
    }).then(
      (response) => response.body?.cancel(),
      () => undefined, // MTN does not retry a callback it could not deliver.
    );
  }
}

function errorBody(code: string, message: string) {
  return { code, message };
}

export function mtnMomoMockPlugin(state: MtnMockState) {
  return async (app: FastifyInstance): Promise<void> => {
    const { options } = state;

    // Faults apply to the operator's API, never to the /_mock control routes.
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.url.includes('/_mock/')) return;
      const named = request.headers['x-reference-id'] ?? /\/v1_0\/(?:requesttopay|transfer|refund)\/([^/?]+)/.exec(request.url)?.[1];
      if (typeof named === 'string') state.calls.set(named, (state.calls.get(named) ?? 0) + 1);
      if (state.faults.failNext > 0) {
        state.faults.failNext -= 1;
        return reply.code(state.faults.failStatus).send(errorBody('INTERNAL_PROCESSING_ERROR', 'An internal error occurred while processing.'));
      }
    });
    // Held once its body is read: a request that reaches MTN late (a proxy, a queue) is still
    // processed after the client gave up on it, as a slow operator would.
    app.addHook('preHandler', async (request: FastifyRequest) => {
      if (request.url.includes('/_mock/') || state.faults.delayMs <= 0) return;
      await new Promise((resolve) => setTimeout(resolve, state.faults.delayMs));
    });

    const subscribed = (request: FastifyRequest, product: Product): boolean => {
      const key = request.headers['ocp-apim-subscription-key'];
      const expected = options.credentials[product]?.subscriptionKey;
      return typeof key === 'string' && expected !== undefined && sameText(key, expected);
    };

    const denySubscription = (reply: FastifyReply) =>
      reply.code(401).send({ statusCode: 401, message: 'Access denied due to invalid subscription key. Make sure to provide a valid key for an active subscription.' });

    for (const product of ['collection', 'disbursement'] as const) {
      app.post(`/${product}/token/`, async (request, reply) => {
        if (!subscribed(request, product)) return denySubscription(reply);
        const credentials = options.credentials[product]!;
        const expected = `Basic ${Buffer.from(`${credentials.apiUser}:${credentials.apiKey}`).toString('base64')}`;
        const given = request.headers.authorization ?? '';
        if (!sameText(given, expected)) return reply.code(401).send({ error: 'login_failed' });
        const token = randomBytes(24).toString('base64url');
        state.tokens.set(token, { product, expiresAtMs: Date.now() + options.tokenTtlSeconds * 1000 });
        state.tokensIssued += 1;
        return { access_token: token, token_type: 'access_token', expires_in: options.tokenTtlSeconds };
      });

      app.get(`/${product}/v1_0/account/balance`, async (request, reply) => {
        if (!authorised(request, reply, product)) return reply;
        return { availableBalance: String(state.balances.get(product) ?? 0), currency: options.currency };
      });
    }

    /** Checks the subscription key, bearer token and target environment; answers the refusal itself. */
    const authorised = (request: FastifyRequest, reply: FastifyReply, product: Product): boolean => {
      if (!subscribed(request, product)) {
        denySubscription(reply);
        return false;
      }
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const token = bearer === undefined ? undefined : state.tokens.get(bearer);
      if (!token || token.product !== product || token.expiresAtMs <= Date.now()) {
        reply.code(401).send({ statusCode: 401, message: 'Access denied due to invalid or expired access token.' });
        return false;
      }
      if (request.headers['x-target-environment'] !== options.targetEnvironment) {
        reply.code(403).send(errorBody('NOT_ALLOWED_TARGET_ENVIRONMENT', 'Access to target environment is forbidden.'));
        return false;
      }
      return true;
    };

    const create = (kind: Kind) => async (request: FastifyRequest, reply: FastifyReply) => {
      const product = productOf[kind];
      if (!authorised(request, reply, product)) return reply;
      const referenceId = request.headers['x-reference-id'];
      if (typeof referenceId !== 'string' || !uuidShape.test(referenceId)) {
        return reply.code(400).send(errorBody('INVALID_REFERENCE_ID', 'X-Reference-Id must be a UUID.'));
      }
      const key = `${kind}:${referenceId}`;
      state.posts.set(key, (state.posts.get(key) ?? 0) + 1);
      if (state.transactions.has(key)) return reply.code(409).send(errorBody('RESOURCE_ALREADY_EXIST', 'Duplicated reference id. Creation of resource failed.'));
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (typeof body['amount'] !== 'string' || !amountShape.test(body['amount']) || Number(body['amount']) <= 0) {
        return reply.code(400).send(errorBody('INVALID_AMOUNT', 'amount must be a positive number written as a string.'));
      }
      if (body['currency'] !== options.currency) return reply.code(400).send(errorBody('INVALID_CURRENCY', `Currency not supported: ${String(body['currency'])}.`));
      const callbackHeader = request.headers['x-callback-url'];
      const tx: MtnMockTransaction = {
        kind,
        referenceId,
        body,
        status: 'PENDING',
        callbacksSent: 0,
        createdAt: new Date().toISOString(),
        ...(typeof callbackHeader === 'string' ? { callbackUrl: callbackHeader } : {}),
      };
      let outcome: { status: 'SUCCESSFUL' | 'FAILED' | 'PENDING'; reason?: string };
      if (kind === 'refund') {
        const original = typeof body['referenceIdToRefund'] === 'string' ? state.transaction('requesttopay', body['referenceIdToRefund']) : undefined;
        if (!original) return reply.code(404).send(errorBody('RESOURCE_NOT_FOUND', 'The transaction to refund was not found.'));
        outcome = original.status === 'SUCCESSFUL' ? { status: 'SUCCESSFUL' } : { status: 'FAILED', reason: 'NOT_ALLOWED' };
      } else {
        const party = (kind === 'requesttopay' ? body['payer'] : body['payee']) as { partyIdType?: unknown; partyId?: unknown } | undefined;
        if (party?.partyIdType !== 'MSISDN' || typeof party.partyId !== 'string' || !/^\d{6,15}$/.test(party.partyId)) {
          return reply.code(400).send(errorBody(kind === 'requesttopay' ? 'PAYER_NOT_FOUND' : 'PAYEE_NOT_FOUND', 'The party is not a valid MSISDN.'));
        }
        outcome = mockOutcome(party.partyId, kind);
      }
      state.transactions.set(key, tx);
      if (outcome.status !== 'PENDING') {
        const { status, reason } = outcome;
        state.later(options.decisionDelayMs, () => state.settle(kind, referenceId, status, reason));
      }
      if (state.faults.acceptThenHang) return new Promise(() => undefined);
      return reply.code(202).send();
    };

    const query = (kind: Kind) => async (request: FastifyRequest<{ Params: { referenceId: string } }>, reply: FastifyReply) => {
      if (!authorised(request, reply, productOf[kind])) return reply;
      const tx = state.transaction(kind, request.params.referenceId);
      if (!tx) return reply.code(404).send(errorBody('RESOURCE_NOT_FOUND', 'Requested resource was not found.'));
      return state.statusBody(tx);
    };

    for (const kind of ['requesttopay', 'transfer', 'refund'] as const) {
      app.post(`/${productOf[kind]}/v1_0/${kind}`, create(kind));
      app.get(`/${productOf[kind]}/v1_0/${kind}/:referenceId`, query(kind));
    }

    // Control routes: what a test or a person at the terminal drives the mock with.
    app.get('/_mock/stats', async () => ({
      tokens_issued: state.tokensIssued,
      posts: Object.fromEntries(state.posts),
      transactions: [...state.transactions.values()].map((tx) => ({ kind: tx.kind, reference_id: tx.referenceId, status: tx.status, callbacks_sent: tx.callbacksSent })),
    }));
    app.post('/_mock/faults', async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      state.setFaults({
        ...(typeof body['fail_next'] === 'number' ? { failNext: body['fail_next'] } : {}),
        ...(typeof body['fail_status'] === 'number' ? { failStatus: body['fail_status'] } : {}),
        ...(typeof body['delay_ms'] === 'number' ? { delayMs: body['delay_ms'] } : {}),
        ...(typeof body['drop_callbacks'] === 'boolean' ? { dropCallbacks: body['drop_callbacks'] } : {}),
        ...(typeof body['accept_then_hang'] === 'boolean' ? { acceptThenHang: body['accept_then_hang'] } : {}),
      });
      return state.faults;
    });
    app.post('/_mock/balance', async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const product = body['product'] ?? 'disbursement';
      const balance = Number(body['balance']);
      if ((product !== 'collection' && product !== 'disbursement') || !Number.isFinite(balance)) {
        return reply.code(400).send({ error: 'give { "balance": <major units>, "product": "disbursement" | "collection" }' });
      }
      state.balances.set(product, balance);
      return { product, balance };
    });
    app.post('/_mock/expire-tokens', async () => {
      state.expireTokens();
      return { expired: true };
    });
    app.post<{ Params: { kind: Kind; referenceId: string }; Body: { status?: 'SUCCESSFUL' | 'FAILED'; reason?: string } }>(
      '/_mock/transactions/:kind/:referenceId/settle',
      async (request, reply) => {
        const tx = state.settle(request.params.kind, request.params.referenceId, request.body?.status ?? 'SUCCESSFUL', request.body?.reason);
        return tx ? state.statusBody(tx) : reply.code(404).send(errorBody('RESOURCE_NOT_FOUND', 'No such transaction.'));
      },
    );
  };
}

export function mtnMockState(options: MtnMockOptions = {}): MtnMockState {
  return new MtnMockState({
    targetEnvironment: options.targetEnvironment ?? 'mtnbenin',
    currency: options.currency ?? 'XOF',
    credentials: options.credentials ?? DEFAULT_MTN_MOCK_CREDENTIALS,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
    decisionDelayMs: options.decisionDelayMs ?? 300,
    callbackMethod: options.callbackMethod ?? 'PUT',
  });
}

export type RunningMtnMock = RunningMock<MtnMockState>;

/** Starts the mock alone on a port of its own (0: any free one). */
export function startMtnMomoMock(options: MtnMockOptions & { port?: number; host?: string } = {}): Promise<RunningMtnMock> {
  const state = mtnMockState(options);
  return startMockServer(state, mtnMomoMockPlugin(state), options);
}
