/**
 * A mock FedaPay API server following FedaPay's published API and what its official libraries
 * call: bearer secret key (401 otherwise), everything under `/v1`, resources wrapped in
 * `{ "v1/<class>": … }`, errors as `{ message, errors? }`. Transactions (create with a unique
 * `merchant_reference`, get, get by merchant reference, token, the no-redirect send both as
 * `POST /v1/transactions/{mode}` (FedaPay's API reference) and `POST /v1/{mode}` (what the Node
 * library posts)), payouts (create, `PUT /v1/payouts/start`, get, get by merchant reference),
 * balances, and signed webhooks (`X-FEDAPAY-SIGNATURE: t=…,s=…`) to a configured URL.
 *
 * A transaction's token URL is a page of the mock standing in for FedaPay's payment page.
 * Outcomes follow the customer's number (fedapay-mock-outcomes.ts). Faults (errors, slow answers,
 * dropped webhooks, an answer that never comes) are set through `/_mock/*` or the state handle;
 * every call is counted per merchant reference. Never used by the server itself.
 */
import { randomBytes } from 'node:crypto';
import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sameText } from '../../../core/shared/constant-time.js';
import { MockTimers, startMockServer, type RunningMock } from '../../mocks/mock-server.js';
import { signFedaPayWebhook } from '../fedapay-webhooks.js';
import { mockModes, payoutOutcome, transactionOutcome, type FedaPayMockDecision } from './fedapay-mock-outcomes.js';

export interface FedaPayMockOptions {
  /** The secret key the mock accepts as `Authorization: Bearer <key>`. */
  apiKey?: string;
  /** The webhook endpoint's signing secret. */
  webhookSecret?: string;
  /** Where webhooks go; none are sent until it is set (also `state.webhookUrl = …` later). */
  webhookUrl?: string;
  currency?: string;
  /** How long a sent transaction or started payout waits before its outcome; 0: decided at once. */
  decisionDelayMs?: number;
  /** The account's balance, major units. */
  balance?: number;
}

export interface FedaPayMockFaults {
  /** Answer this many next API calls with `failStatus`, doing nothing. */
  failNext: number;
  failStatus: number;
  /** Hold every API answer this long. */
  delayMs: number;
  /** Send no webhooks. */
  dropWebhooks: boolean;
  /** Make the change but never answer: the client sees a timeout. */
  acceptThenHang: boolean;
}

export interface FedaPayMockTransaction {
  id: number;
  reference: string;
  amount: number;
  description: string;
  callbackUrl: string | null;
  status: string;
  mode: string | null;
  merchantReference: string | null;
  customMetadata: Record<string, unknown> | null;
  phone: { number: string; country: string } | null;
  token: string | null;
  lastErrorCode: string | null;
  lastErrorMessage: string | null;
  createdAt: string;
  updatedAt: string;
  decidedAt: string | null;
}

export interface FedaPayMockPayout {
  id: number;
  reference: string;
  amount: number;
  mode: string;
  status: string;
  merchantReference: string | null;
  customMetadata: Record<string, unknown> | null;
  phone: { number: string; country: string };
  lastErrorCode: string | null;
  lastErrorMessage: string | null;
  createdAt: string;
  updatedAt: string;
  sentAt: string | null;
  failedAt: string | null;
}

export interface FedaPayMockWebhook {
  name: string;
  merchantReference: string | null;
  /** The receiver's HTTP status, or `error`; absent while in flight. */
  outcome?: number | 'error';
}

/** What the mock counts per merchant reference. */
export type FedaPayMockCall = 'create_transaction' | 'send' | 'create_payout' | 'start_payout';

export const DEFAULT_FEDAPAY_MOCK_API_KEY = 'sk_sandbox_akwe_fedapay_mock';
export const DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET = 'wh_sandbox_akwe_fedapay_mock';

const XOF_CURRENCY_ID = 1;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function now(): string {
  return new Date().toISOString();
}

function absoluteUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** `{ number: '+229…', country: 'bj' }` */
function phoneOf(value: unknown): { number: string; country: string } | undefined {
  if (!isRecord(value) || typeof value['number'] !== 'string' || !/^\+?[0-9]{8,15}$/.test(value['number'])) return undefined;
  if (typeof value['country'] !== 'string' || !/^[a-z]{2}$/i.test(value['country'])) return undefined;
  return { number: value['number'], country: value['country'].toLowerCase() };
}

/** The mock's state, shared by its routes and the handle tests hold. */
export class FedaPayMockState extends MockTimers {
  readonly transactions = new Map<number, FedaPayMockTransaction>();
  readonly payouts = new Map<number, FedaPayMockPayout>();
  /** `${call}:${merchant reference}` -> how many times it was asked, repeats included. */
  readonly calls = new Map<string, number>();
  readonly webhooks: FedaPayMockWebhook[] = [];
  faults: FedaPayMockFaults = { failNext: 0, failStatus: 500, delayMs: 0, dropWebhooks: false, acceptThenHang: false };
  webhookUrl: string | undefined;
  /** The account's balance per payment mode, major units (`POST /_mock/balance` sets one). */
  readonly balances: Map<string, number>;
  private nextId = 100_000;

  constructor(readonly options: Required<Omit<FedaPayMockOptions, 'webhookUrl'>> & { webhookUrl?: string }) {
    super();
    this.webhookUrl = options.webhookUrl;
    this.balances = new Map(mockModes.map((mode) => [mode, options.balance]));
  }

  newId(): number {
    this.nextId += 1;
    return this.nextId;
  }

  count(call: FedaPayMockCall, merchantReference: string | null): void {
    if (!merchantReference) return;
    const key = `${call}:${merchantReference}`;
    this.calls.set(key, (this.calls.get(key) ?? 0) + 1);
  }

  /** How many times FedaPay was asked to do `call` for this merchant reference (our payment or payout id). */
  callsFor(call: FedaPayMockCall, merchantReference: string): number {
    return this.calls.get(`${call}:${merchantReference}`) ?? 0;
  }

  transactionByReference(merchantReference: string): FedaPayMockTransaction | undefined {
    return [...this.transactions.values()].find((t) => t.merchantReference === merchantReference);
  }

  payoutByReference(merchantReference: string): FedaPayMockPayout | undefined {
    return [...this.payouts.values()].find((p) => p.merchantReference === merchantReference);
  }

  setFaults(faults: Partial<FedaPayMockFaults>): void {
    this.faults = { ...this.faults, ...faults };
  }

  /** Decides a transaction (the customer approved, refused, …) and sends its webhook. */
  settleTransaction(id: number, decision: FedaPayMockDecision): FedaPayMockTransaction | undefined {
    const transaction = this.transactions.get(id);
    if (!transaction || transaction.status !== 'pending' || 'stays' in decision) return transaction;
    transaction.status = decision.status;
    transaction.lastErrorCode = decision.errorCode ?? null;
    transaction.lastErrorMessage = decision.errorMessage ?? null;
    transaction.updatedAt = now();
    transaction.decidedAt = transaction.updatedAt;
    this.sendWebhook(`transaction.${decision.status}`, 'transaction', this.transactionBody(transaction));
    return transaction;
  }

  /** Decides a started payout and sends its webhook; a sent payout draws on the balance. */
  settlePayout(id: number, decision: FedaPayMockDecision): FedaPayMockPayout | undefined {
    const payout = this.payouts.get(id);
    if (!payout || !['started', 'processing'].includes(payout.status) || 'stays' in decision) return payout;
    payout.status = decision.status;
    payout.updatedAt = now();
    if (decision.status === 'sent') {
      payout.sentAt = payout.updatedAt;
      this.balances.set(payout.mode, (this.balances.get(payout.mode) ?? 0) - payout.amount);
    } else {
      payout.failedAt = payout.updatedAt;
      payout.lastErrorCode = decision.errorCode ?? null;
      payout.lastErrorMessage = decision.errorMessage ?? null;
    }
    this.sendWebhook(`payout.${decision.status}`, 'payout', this.payoutBody(payout));
    return payout;
  }

  decideLater(work: () => void): void {
    if (this.options.decisionDelayMs <= 0) work();
    else this.later(this.options.decisionDelayMs, work);
  }

  transactionBody(t: FedaPayMockTransaction): Record<string, unknown> {
    const at = (status: string) => (t.status === status ? t.decidedAt : null);
    return {
      klass: 'v1/transaction',
      id: t.id,
      reference: t.reference,
      amount: t.amount,
      description: t.description,
      callback_url: t.callbackUrl,
      status: t.status,
      customer_id: t.phone ? t.id : null,
      currency_id: XOF_CURRENCY_ID,
      mode: t.mode,
      metadata: {},
      commission: 0,
      fees: 0,
      fixed_commission: 0,
      amount_transferred: null,
      created_at: t.createdAt,
      updated_at: t.updatedAt,
      approved_at: at('approved'),
      canceled_at: at('canceled'),
      declined_at: at('declined'),
      refunded_at: null,
      transferred_at: null,
      deleted_at: null,
      last_error_code: t.lastErrorCode,
      custom_metadata: t.customMetadata,
      amount_debited: t.amount,
      receipt_url: null,
      payment_method_id: null,
      merchant_reference: t.merchantReference,
      payment_token: t.token,
    };
  }

  payoutBody(p: FedaPayMockPayout): Record<string, unknown> {
    return {
      klass: 'v1/payout',
      id: p.id,
      reference: p.reference,
      amount: p.amount,
      status: p.status,
      customer_id: p.id,
      balance_id: 1,
      mode: p.mode,
      last_error_code: p.lastErrorCode,
      last_error_message: p.lastErrorMessage,
      created_at: p.createdAt,
      updated_at: p.updatedAt,
      scheduled_at: null,
      sent_at: p.sentAt,
      failed_at: p.failedAt,
      deleted_at: null,
      metadata: { phone_number: p.phone },
      custom_metadata: p.customMetadata,
      merchant_reference: p.merchantReference,
      currency_id: XOF_CURRENCY_ID,
    };
  }

  /** Posts a signed event `{ name, object, entity }` to the webhook URL; FedaPay's retries are not mocked. */
  sendWebhook(name: string, object: string, entity: Record<string, unknown>): void {
    const url = this.webhookUrl;
    if (!url || this.faults.dropWebhooks) return;
    const body = JSON.stringify({ name, object, entity, account: { id: 1, name: 'Akwe (FedaPay mock)' } });
    const record: FedaPayMockWebhook = { name, merchantReference: typeof entity['merchant_reference'] === 'string' ? entity['merchant_reference'] : null };
    this.webhooks.push(record);
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-fedapay-signature': signFedaPayWebhook(body, this.options.webhookSecret, Date.now() / 1000) },
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

function payPage(t: FedaPayMockTransaction): string {
  const form =
    t.status === 'pending'
      ? `<form method="post">
  <label>Mode <select name="mode">${mockModes.map((m) => `<option>${m}</option>`).join('')}</select></label>
  <label>Number <input name="phone" placeholder="+229…" value="${escapeHtml(t.phone?.number ?? '')}"></label>
  <button>Pay ${t.amount} XOF</button>
</form>`
      : `<p>This transaction is ${escapeHtml(t.status)}.</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>FedaPay mock – ${t.id}</title></head>
<body><h1>FedaPay (mock)</h1><p>${escapeHtml(t.description)}</p>${form}</body></html>`;
}

export function fedaPayMockPlugin(state: FedaPayMockState) {
  return async (app: FastifyInstance): Promise<void> => {
    const { options } = state;
    await app.register(formBody, { bodyLimit: 4096 });

    app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
      if (error.statusCode !== undefined && error.statusCode < 500) return reply.code(400).send({ message: error.message });
      return reply.code(500).send({ message: 'Server Error' });
    });

    const isApi = (request: FastifyRequest) => request.url.includes('/v1/');

    // Faults, then FedaPay's authentication, on the API only (never the control routes or the pay page).
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!isApi(request)) return;
      if (state.faults.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.faults.delayMs));
      if (state.faults.failNext > 0) {
        state.faults.failNext -= 1;
        return reply.code(state.faults.failStatus).send({ message: 'Server Error' });
      }
      const bearer = /^Bearer\s+(\S+)$/.exec(request.headers.authorization ?? '');
      if (!bearer || !sameText(bearer[1]!, options.apiKey)) return reply.code(401).send({ message: 'Unauthenticated.' });
    });

    const invalid = (reply: FastifyReply, message: string, errors: Record<string, string[]> = {}) => reply.code(400).send({ message, errors });
    const notFound = (reply: FastifyReply, what: string) => reply.code(404).send({ message: `${what} not found` });
    /** Sends the answer unless the accept-then-hang fault is on (the change is already made). */
    const answer = (reply: FastifyReply, status: number, body: unknown) => (state.faults.acceptThenHang ? new Promise(() => undefined) : reply.code(status).send(body));
    const body = (request: FastifyRequest) => (isRecord(request.body) ? request.body : {});

    // ---- Transactions
    app.post('/v1/transactions', async (request, reply) => {
      const b = body(request);
      const merchantReference = typeof b['merchant_reference'] === 'string' ? b['merchant_reference'] : null;
      state.count('create_transaction', merchantReference);
      const errors: Record<string, string[]> = {};
      if (typeof b['description'] !== 'string' || b['description'] === '') errors['description'] = ['The description field is required.'];
      if (typeof b['amount'] !== 'number' || !Number.isSafeInteger(b['amount']) || b['amount'] <= 0) errors['amount'] = ['The amount must be a positive integer.'];
      const currency = b['currency'];
      if (!isRecord(currency) || currency['iso'] !== options.currency) errors['currency'] = [`The currency must be { "iso": "${options.currency}" }.`];
      if (b['callback_url'] !== undefined && !absoluteUrl(b['callback_url'])) errors['callback_url'] = ['The callback url format is invalid.'];
      if (merchantReference !== null && state.transactionByReference(merchantReference)) errors['merchant_reference'] = ['The merchant reference has already been taken.'];
      const customer = b['customer'];
      const phone = isRecord(customer) && customer['phone_number'] !== undefined ? phoneOf(customer['phone_number']) : null;
      if (phone === undefined) errors['customer.phone_number'] = ['The phone number is invalid.'];
      if (Object.keys(errors).length > 0) return invalid(reply, 'Transaction creation failed', errors);
      const id = state.newId();
      const t: FedaPayMockTransaction = {
        id,
        reference: `trx_${randomBytes(6).toString('hex')}`,
        amount: b['amount'] as number,
        description: b['description'] as string,
        callbackUrl: (b['callback_url'] as string | undefined) ?? null,
        status: 'pending',
        mode: null,
        merchantReference,
        customMetadata: isRecord(b['custom_metadata']) ? b['custom_metadata'] : null,
        phone: phone ?? null,
        token: null,
        lastErrorCode: null,
        lastErrorMessage: null,
        createdAt: now(),
        updatedAt: now(),
        decidedAt: null,
      };
      state.transactions.set(id, t);
      return answer(reply, 200, { 'v1/transaction': state.transactionBody(t) });
    });

    app.get<{ Params: { reference: string } }>('/v1/transactions/merchant/:reference', async (request, reply) => {
      const t = state.transactionByReference(request.params.reference);
      return t ? { 'v1/transaction': state.transactionBody(t) } : notFound(reply, 'Transaction');
    });

    app.get<{ Params: { id: string } }>('/v1/transactions/:id', async (request, reply) => {
      const t = state.transactions.get(Number(request.params.id));
      return t ? { 'v1/transaction': state.transactionBody(t) } : notFound(reply, 'Transaction');
    });

    app.post<{ Params: { id: string } }>('/v1/transactions/:id/token', async (request, reply) => {
      const t = state.transactions.get(Number(request.params.id));
      if (!t) return notFound(reply, 'Transaction');
      // One token per transaction: asked again, FedaPay gives the same one.
      t.token ??= randomBytes(24).toString('base64url');
      return answer(reply, 200, { token: t.token, url: `${request.protocol}://${request.host}${app.prefix}/pay/${t.token}` });
    });

    /** The no-redirect send: the push goes to the phone in the operator's mode. */
    const send = async (request: FastifyRequest<{ Params: { mode: string } }>, reply: FastifyReply) => {
      const { mode } = request.params;
      if (!(mockModes as readonly string[]).includes(mode)) return notFound(reply, `Mode ${mode}`);
      const b = body(request);
      const t = typeof b['token'] === 'string' ? [...state.transactions.values()].find((x) => x.token === b['token']) : undefined;
      if (!t) return invalid(reply, 'Invalid token', { token: ['The token is invalid.'] });
      state.count('send', t.merchantReference);
      // A transaction is sent once; a repeat is refused and changes nothing.
      if (t.mode !== null || t.status !== 'pending') return invalid(reply, 'Transaction already processed', { token: ['This transaction was already sent.'] });
      const phone = b['phone_number'] !== undefined ? phoneOf(b['phone_number']) : t.phone;
      if (!phone) return invalid(reply, 'A phone number is required', { phone_number: ['The phone number is invalid.'] });
      t.mode = mode;
      t.phone = phone;
      t.updatedAt = now();
      state.decideLater(() => state.settleTransaction(t.id, transactionOutcome(phone.number)));
      return answer(reply, 200, { 'v1/transaction': state.transactionBody(t) });
    };
    app.post('/v1/transactions/:mode', send);
    // FedaPay's Node library posts the same send to /v1/<mode>.
    app.post('/v1/:mode', send);

    // ---- Payouts
    app.post('/v1/payouts', async (request, reply) => {
      const b = body(request);
      const merchantReference = typeof b['merchant_reference'] === 'string' ? b['merchant_reference'] : null;
      state.count('create_payout', merchantReference);
      const errors: Record<string, string[]> = {};
      if (typeof b['amount'] !== 'number' || !Number.isSafeInteger(b['amount']) || b['amount'] <= 0) errors['amount'] = ['The amount must be a positive integer.'];
      const currency = b['currency'];
      if (!isRecord(currency) || currency['iso'] !== options.currency) errors['currency'] = [`The currency must be { "iso": "${options.currency}" }.`];
      if (typeof b['mode'] !== 'string' || !(mockModes as readonly string[]).includes(b['mode'])) errors['mode'] = ['The selected mode is invalid.'];
      const customer = b['customer'];
      const phone = isRecord(customer) ? phoneOf(customer['phone_number']) : undefined;
      if (!phone) errors['customer.phone_number'] = ['The phone number is invalid.'];
      if (merchantReference !== null && state.payoutByReference(merchantReference)) errors['merchant_reference'] = ['The merchant reference has already been taken.'];
      if (Object.keys(errors).length > 0) return invalid(reply, 'Payout creation failed', errors);
      const id = state.newId();
      const p: FedaPayMockPayout = {
        id,
        reference: `pay_${randomBytes(6).toString('hex')}`,
        amount: b['amount'] as number,
        mode: b['mode'] as string,
        status: 'pending',
        merchantReference,
        customMetadata: isRecord(b['custom_metadata']) ? b['custom_metadata'] : null,
        phone: phone!,
        lastErrorCode: null,
        lastErrorMessage: null,
        createdAt: now(),
        updatedAt: now(),
        sentAt: null,
        failedAt: null,
      };
      state.payouts.set(id, p);
      return answer(reply, 200, { 'v1/payout': state.payoutBody(p) });
    });

    app.put('/v1/payouts/start', async (request, reply) => {
      const items = body(request)['payouts'];
      if (!Array.isArray(items) || items.length === 0) return invalid(reply, 'Payouts are required', { payouts: ['The payouts field is required.'] });
      const found = items.map((item) => (isRecord(item) ? state.payouts.get(Number(item['id'])) : undefined));
      if (found.some((p) => p === undefined)) return notFound(reply, 'Payout');
      const started: FedaPayMockPayout[] = [];
      for (const [index, p] of (found as FedaPayMockPayout[]).entries()) {
        state.count('start_payout', p.merchantReference);
        // Only a pending payout starts; a repeat answers it as it stands and sends nothing more.
        if (p.status === 'pending') {
          const item = items[index] as Record<string, unknown>;
          const phone = item['phone_number'] !== undefined ? phoneOf(item['phone_number']) : p.phone;
          if (phone) p.phone = phone;
          p.status = 'started';
          p.updatedAt = now();
          state.decideLater(() => state.settlePayout(p.id, payoutOutcome(p.phone.number)));
        }
        started.push(p);
      }
      return answer(reply, 200, { 'v1/payouts': started.map((p) => state.payoutBody(p)) });
    });

    app.get<{ Params: { reference: string } }>('/v1/payouts/merchant/:reference', async (request, reply) => {
      const p = state.payoutByReference(request.params.reference);
      return p ? { 'v1/payout': state.payoutBody(p) } : notFound(reply, 'Payout');
    });

    app.get<{ Params: { id: string } }>('/v1/payouts/:id', async (request, reply) => {
      const p = state.payouts.get(Number(request.params.id));
      return p ? { 'v1/payout': state.payoutBody(p) } : notFound(reply, 'Payout');
    });

    app.get('/v1/balances', async () => ({
      'v1/balances': [...state.balances].map(([mode, amount], index) => ({
        klass: 'v1/balance',
        id: index + 1,
        currency_id: XOF_CURRENCY_ID,
        account_id: 1,
        amount,
        mode,
        created_at: now(),
        updated_at: now(),
      })),
    }));

    // ---- FedaPay's payment page (what the token URL opens)
    const byToken = (token: string) => [...state.transactions.values()].find((t) => t.token === token);
    app.get<{ Params: { token: string } }>('/pay/:token', async (request, reply) => {
      const t = byToken(request.params.token);
      if (!t) return reply.code(404).type('text/html; charset=utf-8').send('<!doctype html><p>No such transaction.</p>');
      return reply.type('text/html; charset=utf-8').send(payPage(t));
    });
    app.post<{ Params: { token: string }; Body: { mode?: string; phone?: string } | undefined }>('/pay/:token', async (request, reply) => {
      const t = byToken(request.params.token);
      if (!t) return reply.code(404).type('text/html; charset=utf-8').send('<!doctype html><p>No such transaction.</p>');
      if (t.status !== 'pending' || t.mode !== null) return reply.code(409).type('text/html; charset=utf-8').send(payPage(t));
      const mode = request.body?.mode ?? 'moov';
      const number = request.body?.phone?.trim() || t.phone?.number;
      if (!(mockModes as readonly string[]).includes(mode) || !number)
        return reply.code(400).type('text/html; charset=utf-8').send('<!doctype html><p>mode and phone are required.</p>');
      t.mode = mode;
      t.phone = { number, country: t.phone?.country ?? 'bj' };
      state.count('send', t.merchantReference);
      state.settleTransaction(t.id, transactionOutcome(number));
      return t.callbackUrl ? reply.redirect(t.callbackUrl, 303) : reply.type('text/html; charset=utf-8').send(payPage(t));
    });

    // ---- Control routes
    app.get('/_mock/stats', async () => ({
      calls: Object.fromEntries(state.calls),
      transactions: [...state.transactions.values()].map((t) => ({ id: t.id, merchant_reference: t.merchantReference, status: t.status, mode: t.mode })),
      payouts: [...state.payouts.values()].map((p) => ({ id: p.id, merchant_reference: p.merchantReference, status: p.status })),
      webhooks: state.webhooks.map((w) => ({ name: w.name, merchant_reference: w.merchantReference, outcome: w.outcome ?? null })),
      webhook_url: state.webhookUrl ?? null,
      balances: Object.fromEntries(state.balances),
    }));
    app.post('/_mock/balance', async (request, reply) => {
      const b = body(request);
      const balance = Number(b['balance']);
      if (typeof b['mode'] !== 'string' || !(mockModes as readonly string[]).includes(b['mode']) || !Number.isFinite(balance)) {
        return invalid(reply, 'give { "mode": "<payment mode>", "balance": <whole francs> }', { mode: ['The selected mode is invalid.'] });
      }
      state.balances.set(b['mode'], balance);
      return { mode: b['mode'], balance };
    });
    app.post('/_mock/faults', async (request) => {
      const b = body(request);
      state.setFaults({
        ...(typeof b['fail_next'] === 'number' ? { failNext: b['fail_next'] } : {}),
        ...(typeof b['fail_status'] === 'number' ? { failStatus: b['fail_status'] } : {}),
        ...(typeof b['delay_ms'] === 'number' ? { delayMs: b['delay_ms'] } : {}),
        ...(typeof b['drop_webhooks'] === 'boolean' ? { dropWebhooks: b['drop_webhooks'] } : {}),
        ...(typeof b['accept_then_hang'] === 'boolean' ? { acceptThenHang: b['accept_then_hang'] } : {}),
      });
      return state.faults;
    });
    app.post<{ Body: { url?: string } | undefined }>('/_mock/webhook-url', async (request, reply) => {
      const url = request.body?.url;
      if (url !== undefined && !absoluteUrl(url)) return reply.code(400).send({ message: 'url must be an absolute URL.' });
      state.webhookUrl = url;
      return { webhook_url: state.webhookUrl ?? null };
    });
    app.post<{ Params: { id: string }; Body: { status?: string; error_code?: string } | undefined }>('/_mock/transactions/:id/settle', async (request, reply) => {
      const status = request.body?.status ?? 'approved';
      if (!['approved', 'declined', 'canceled'].includes(status)) return reply.code(400).send({ message: 'status must be approved, declined or canceled.' });
      const t = state.settleTransaction(Number(request.params.id), { status, ...(request.body?.error_code ? { errorCode: request.body.error_code } : {}) });
      return t ? { 'v1/transaction': state.transactionBody(t) } : notFound(reply, 'Transaction');
    });
    app.post<{ Params: { id: string }; Body: { status?: string; error_code?: string } | undefined }>('/_mock/payouts/:id/settle', async (request, reply) => {
      const status = request.body?.status ?? 'sent';
      if (!['sent', 'failed'].includes(status)) return reply.code(400).send({ message: 'status must be sent or failed.' });
      const p = state.settlePayout(Number(request.params.id), { status, ...(request.body?.error_code ? { errorCode: request.body.error_code } : {}) });
      return p ? { 'v1/payout': state.payoutBody(p) } : notFound(reply, 'Payout');
    });
  };
}

export function fedaPayMockState(options: FedaPayMockOptions = {}): FedaPayMockState {
  return new FedaPayMockState({
    apiKey: options.apiKey ?? DEFAULT_FEDAPAY_MOCK_API_KEY,
    webhookSecret: options.webhookSecret ?? DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET,
    ...(options.webhookUrl ? { webhookUrl: options.webhookUrl } : {}),
    currency: options.currency ?? 'XOF',
    decisionDelayMs: options.decisionDelayMs ?? 0,
    balance: options.balance ?? 10_000_000,
  });
}

export type RunningFedaPayMock = RunningMock<FedaPayMockState>;

/** Starts the mock alone on a port of its own (0: any free one). */
export function startFedaPayMock(options: FedaPayMockOptions & { port?: number; host?: string } = {}): Promise<RunningFedaPayMock> {
  const state = fedaPayMockState(options);
  return startMockServer(state, fedaPayMockPlugin(state), options);
}
