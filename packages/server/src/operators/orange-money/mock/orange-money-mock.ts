/**
 * A mock of Orange Money Web Payment as Orange documents it: an OAuth token for the application's
 * Authorization header (`Basic …`, client credentials, form-encoded), `webpayment` (merchant key,
 * currency, order id, amount, return/cancel/notif URLs, lang, reference) answered 201 with
 * pay_token, payment_url and notif_token, `transactionstatus` by order id, amount and pay_token, and
 * the notification `{ status, notif_token, txnid }` posted to notif_url once the customer decided on
 * the payment page. The page is the mock's own: the "customer" approves, fails or cancels there.
 * Faults (failures, slow answers, lost notifications) and counts per order id are set and read
 * through `/_mock/*` or the returned state. Never used by the server itself.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sameText } from '../../../core/shared/constant-time.js';
import { MockTimers, startMockServer, type RunningMock } from '../../mocks/mock-server.js';

export interface OrangeMockOptions {
  clientId?: string;
  clientSecret?: string;
  merchantKey?: string;
  /** The currency the merchant account takes: XOF live, OUV in Orange's sandbox. */
  currency?: string;
  /** Where the Web Payment API lives under the mock (Orange: /orange-money-webpay/<country or dev>/v1). */
  webpayPath?: string;
  tokenTtlSeconds?: number;
}

export interface OrangeMockFaults {
  /** Answer this many next API calls (tokens included) with `failStatus`, doing nothing. */
  failNext: number;
  failStatus: number;
  delayMs: number;
  /** Post no notifications (the gateway must find the outcome by asking). */
  dropNotifications: boolean;
}

export type OrangeMockStatus = 'INITIATED' | 'PENDING' | 'SUCCESS' | 'FAILED' | 'EXPIRED';

export interface OrangeMockPayment {
  orderId: string;
  body: Record<string, unknown>;
  payToken: string;
  notifToken: string;
  status: OrangeMockStatus;
  txnid?: string;
  notificationsSent: number;
  /** When the mock received it (its report's date). */
  createdAt: string;
}

export const DEFAULT_ORANGE_MOCK = Object.freeze({
  clientId: 'orange-mock-client-id',
  clientSecret: 'orange-mock-client-secret',
  merchantKey: 'orange-mock-merchant-key',
});

/** The Authorization header Orange's portal shows for an application: Basic of client id:secret. */
export function orangeAuthorizationHeader(clientId: string, clientSecret: string): string {
  return `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
}

export class OrangeMockState extends MockTimers {
  readonly payments = new Map<string, OrangeMockPayment>();
  readonly byPayToken = new Map<string, OrangeMockPayment>();
  /** Every API call naming an order id (webpayment, transactionstatus) that got past the faults. */
  readonly calls = new Map<string, number>();
  readonly tokens = new Map<string, number>();
  tokensIssued = 0;
  faults: OrangeMockFaults = { failNext: 0, failStatus: 500, delayMs: 0, dropNotifications: false };

  constructor(readonly options: Required<OrangeMockOptions>) {
    super();
  }

  callsFor(orderId: string): number {
    return this.calls.get(orderId) ?? 0;
  }

  payment(orderId: string): OrangeMockPayment | undefined {
    return this.payments.get(orderId);
  }

  setFaults(faults: Partial<OrangeMockFaults>): void {
    this.faults = { ...this.faults, ...faults };
  }

  expireTokens(): void {
    this.tokens.clear();
  }

  /** The customer's decision on the page (or a test's): final, then the notification to notif_url. */
  decide(payment: OrangeMockPayment, status: 'SUCCESS' | 'FAILED' | 'EXPIRED'): void {
    if (payment.status !== 'INITIATED' && payment.status !== 'PENDING') return;
    payment.status = status;
    if (status === 'SUCCESS') payment.txnid = `MP${Date.now().toString().slice(-8)}.${randomBytes(3).toString('hex').toUpperCase()}`;
    this.notify(payment);
  }

  statusBody(payment: OrangeMockPayment): Record<string, unknown> {
    return { status: payment.status, order_id: payment.orderId, ...(payment.txnid ? { txnid: payment.txnid } : {}) };
  }

  private notify(payment: OrangeMockPayment): void {
    const url = payment.body['notif_url'];
    if (typeof url !== 'string' || this.faults.dropNotifications) return;
    payment.notificationsSent += 1;
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: payment.status, notif_token: payment.notifToken, ...(payment.txnid ? { txnid: payment.txnid } : {}) }),
      signal: AbortSignal.timeout(10_000),
    }).then(
      (response) => response.body?.cancel(),
      () => undefined,
    );
  }
}

const error = (code: number, message: string, description: string) => ({ code, message, description });

export function orangeMockState(options: OrangeMockOptions = {}): OrangeMockState {
  return new OrangeMockState({
    clientId: options.clientId ?? DEFAULT_ORANGE_MOCK.clientId,
    clientSecret: options.clientSecret ?? DEFAULT_ORANGE_MOCK.clientSecret,
    merchantKey: options.merchantKey ?? DEFAULT_ORANGE_MOCK.merchantKey,
    currency: options.currency ?? 'XOF',
    webpayPath: options.webpayPath ?? '/orange-money-webpay/ci/v1',
    tokenTtlSeconds: options.tokenTtlSeconds ?? 3600,
  });
}

export function orangeMoneyMockPlugin(state: OrangeMockState) {
  return async (app: FastifyInstance): Promise<void> => {
    const { options } = state;
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );

    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.url.includes('/_mock/') || request.url.includes('/pay/')) return;
      if (state.faults.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.faults.delayMs));
      if (state.faults.failNext > 0) {
        state.faults.failNext -= 1;
        return reply.code(state.faults.failStatus).send(error(5000, 'Internal error', 'The service is temporarily unavailable.'));
      }
    });
    app.addHook('preHandler', async (request: FastifyRequest) => {
      const orderId = (request.body as Record<string, unknown> | undefined)?.['order_id'];
      if (typeof orderId === 'string') state.calls.set(orderId, (state.calls.get(orderId) ?? 0) + 1);
    });

    app.post('/oauth/v3/token', async (request, reply) => {
      const expected = orangeAuthorizationHeader(options.clientId, options.clientSecret);
      if (!sameText(request.headers.authorization ?? '', expected))
        return reply.code(401).send({ error: 'invalid_client', error_description: 'The requested service needs credentials, but the ones provided were invalid.' });
      if ((request.body as Record<string, unknown> | undefined)?.['grant_type'] !== 'client_credentials') {
        return reply.code(400).send({ error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials.' });
      }
      const token = randomBytes(24).toString('base64url');
      state.tokens.set(token, Date.now() + options.tokenTtlSeconds * 1000);
      state.tokensIssued += 1;
      return { token_type: 'Bearer', access_token: token, expires_in: options.tokenTtlSeconds };
    });

    const authorised = (request: FastifyRequest, reply: FastifyReply): boolean => {
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const expires = bearer === undefined ? undefined : state.tokens.get(bearer);
      if (expires === undefined || expires <= Date.now()) {
        reply.code(401).send(error(42, 'Expired credentials', 'The requested service needs credentials, and the ones provided were out-of-date.'));
        return false;
      }
      return true;
    };

    app.post(`${options.webpayPath}/webpayment`, async (request, reply) => {
      if (!authorised(request, reply)) return reply;
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (typeof body['merchant_key'] !== 'string' || !sameText(body['merchant_key'], options.merchantKey)) {
        return reply.code(400).send(error(1, 'Invalid merchant key', 'The merchant key is not the one of this merchant.'));
      }
      const missing = ['currency', 'order_id', 'amount', 'return_url', 'cancel_url', 'notif_url', 'lang', 'reference'].find(
        (field) => body[field] === undefined || body[field] === '',
      );
      if (missing) return reply.code(400).send(error(2, 'Missing parameter', `${missing} is required.`));
      if (body['currency'] !== options.currency) return reply.code(400).send(error(3, 'Invalid currency', `This merchant takes ${options.currency}.`));
      if (typeof body['amount'] !== 'number' || !Number.isInteger(body['amount']) || body['amount'] <= 0)
        return reply.code(400).send(error(4, 'Invalid amount', 'amount must be a positive whole number.'));
      const orderId = String(body['order_id']);
      if (state.payments.has(orderId)) return reply.code(400).send(error(5, 'Duplicate order', 'This order_id was already used.'));
      const payment: OrangeMockPayment = {
        orderId,
        body,
        payToken: randomBytes(16).toString('hex'),
        notifToken: randomBytes(16).toString('hex'),
        status: 'INITIATED',
        notificationsSent: 0,
        createdAt: new Date().toISOString(),
      };
      state.payments.set(orderId, payment);
      state.byPayToken.set(payment.payToken, payment);
      const host = request.headers.host ?? '127.0.0.1';
      const paymentUrl = `${request.protocol}://${host}${app.prefix}/pay/${payment.payToken}`;
      return reply.code(201).send({ status: 201, message: 'OK', pay_token: payment.payToken, payment_url: paymentUrl, notif_token: payment.notifToken });
    });

    app.post(`${options.webpayPath}/transactionstatus`, async (request, reply) => {
      if (!authorised(request, reply)) return reply;
      const body = (request.body ?? {}) as Record<string, unknown>;
      const payment = typeof body['pay_token'] === 'string' ? state.byPayToken.get(body['pay_token']) : undefined;
      if (!payment || payment.orderId !== body['order_id'] || payment.body['amount'] !== body['amount']) {
        return reply.code(400).send(error(6, 'Transaction not found', 'No transaction has this order_id, amount and pay_token.'));
      }
      return reply.code(201).send(state.statusBody(payment));
    });

    // The payment page, where the "customer" decides.
    app.get<{ Params: { payToken: string } }>('/pay/:payToken', async (request, reply) => {
      const payment = state.byPayToken.get(request.params.payToken);
      if (!payment) return reply.code(404).type('text/html').send('<p>Paiement introuvable.</p>');
      if (payment.status === 'INITIATED') payment.status = 'PENDING';
      const action = (outcome: string, label: string) => `<form method="post" action="${app.prefix}/pay/${payment.payToken}/${outcome}"><button>${label}</button></form>`;
      return reply
        .type('text/html')
        .send(
          `<!doctype html><meta charset="utf-8"><title>Orange Money</title><h1>Orange Money (mock)</h1><p>${String(payment.body['reference'])}: ${String(payment.body['amount'])} ${String(payment.body['currency'])}</p><p>Status: ${payment.status}</p>${action('approve', 'Confirmer')}${action('fail', 'Échec')}${action('cancel', 'Annuler')}`,
        );
    });
    app.post<{ Params: { payToken: string; outcome: string } }>('/pay/:payToken/:outcome', async (request, reply) => {
      const payment = state.byPayToken.get(request.params.payToken);
      const outcome = request.params.outcome;
      if (!payment || !['approve', 'fail', 'cancel'].includes(outcome)) return reply.code(404).send();
      if (outcome !== 'cancel') state.decide(payment, outcome === 'approve' ? 'SUCCESS' : 'FAILED');
      return reply.redirect(String(payment.body[outcome === 'cancel' ? 'cancel_url' : 'return_url']), 303);
    });

    app.get('/_mock/stats', async () => ({
      tokens_issued: state.tokensIssued,
      calls: Object.fromEntries(state.calls),
      payments: [...state.payments.values()].map((p) => ({ order_id: p.orderId, status: p.status, notifications_sent: p.notificationsSent })),
    }));
    app.post('/_mock/faults', async (request) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      state.setFaults({
        ...(typeof body['fail_next'] === 'number' ? { failNext: body['fail_next'] } : {}),
        ...(typeof body['fail_status'] === 'number' ? { failStatus: body['fail_status'] } : {}),
        ...(typeof body['delay_ms'] === 'number' ? { delayMs: body['delay_ms'] } : {}),
        ...(typeof body['drop_notifications'] === 'boolean' ? { dropNotifications: body['drop_notifications'] } : {}),
      });
      return state.faults;
    });
    app.post('/_mock/expire-tokens', async () => {
      state.expireTokens();
      return { expired: true };
    });
    app.post<{ Params: { orderId: string }; Body: { status?: 'SUCCESS' | 'FAILED' | 'EXPIRED' } }>('/_mock/payments/:orderId/settle', async (request, reply) => {
      const payment = state.payment(request.params.orderId);
      if (!payment) return reply.code(404).send(error(6, 'Transaction not found', 'No such order.'));
      state.decide(payment, request.body?.status ?? 'SUCCESS');
      return state.statusBody(payment);
    });
  };
}

export type RunningOrangeMock = RunningMock<OrangeMockState>;

export function startOrangeMoneyMock(options: OrangeMockOptions & { port?: number; host?: string } = {}): Promise<RunningOrangeMock> {
  const state = orangeMockState(options);
  return startMockServer(state, orangeMoneyMockPlugin(state), options);
}
