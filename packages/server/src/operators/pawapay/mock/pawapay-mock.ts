/**
 * A mock pawaPay Merchant API v2 that follows the published API: bearer API token (401
 * NO_AUTHENTICATION without one, 403 AUTHENTICATION_ERROR for a wrong one), deposits, payouts and
 * refunds initiated with our ids (ACCEPTED, REJECTED with a failure reason, DUPLICATE_IGNORED for an
 * id it already holds), status checks (`{ status: FOUND, data }` or NOT_FOUND), callbacks of the
 * final status to the URLs set in the Dashboard (signed as pawaPay signs them, RFC 9421, when a key
 * is set), resend-callback, availability, active configuration, wallet balances, public keys and
 * predict-provider. Outcomes follow pawaPay's sandbox test numbers (pawapay-mock-outcomes.ts).
 * Faults (500s, slow answers, dropped callbacks, an answer that never comes) and a provider's
 * availability are set through `/_mock/*` or the returned handle; `posts` counts each id's POSTs.
 * Never used by the server itself: tests, `akwe mocks` and whoever wants live mode on one machine.
 */
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sameText } from '../../../core/shared/constant-time.js';
import { MockTimers, startMockServer, type RunningMock } from '../../mocks/mock-server.js';
import { signPawapayCallback } from '../pawapay-signatures.js';
import { depositOutcome, payoutOutcome, REFUSED_PREAUTHORISATION_CODE, type MockOutcome } from './pawapay-mock-outcomes.js';

type Kind = 'deposits' | 'payouts' | 'refunds';
const idField: Record<Kind, string> = { deposits: 'depositId', payouts: 'payoutId', refunds: 'refundId' };
const operationOf: Record<Kind, 'DEPOSIT' | 'PAYOUT' | 'REFUND'> = { deposits: 'DEPOSIT', payouts: 'PAYOUT', refunds: 'REFUND' };

export interface MockProvider {
  provider: string;
  country: string;
  prefix: string;
  currency: string;
  displayName: string;
  authType: 'PROVIDER_AUTH' | 'PREAUTH';
}

/** The providers of the countries Akwe serves, as pawaPay's Providers page lists them. */
export const MOCK_PROVIDERS: readonly MockProvider[] = [
  { provider: 'MTN_MOMO_BEN', country: 'BEN', prefix: '229', currency: 'XOF', displayName: 'MTN', authType: 'PROVIDER_AUTH' },
  { provider: 'MOOV_BEN', country: 'BEN', prefix: '229', currency: 'XOF', displayName: 'Moov', authType: 'PROVIDER_AUTH' },
  { provider: 'MOOV_TGO', country: 'TGO', prefix: '228', currency: 'XOF', displayName: 'Moov', authType: 'PROVIDER_AUTH' },
  { provider: 'MTN_MOMO_CIV', country: 'CIV', prefix: '225', currency: 'XOF', displayName: 'MTN', authType: 'PROVIDER_AUTH' },
  { provider: 'ORANGE_CIV', country: 'CIV', prefix: '225', currency: 'XOF', displayName: 'Orange', authType: 'PREAUTH' },
  { provider: 'MOOV_CIV', country: 'CIV', prefix: '225', currency: 'XOF', displayName: 'Moov', authType: 'PROVIDER_AUTH' },
  { provider: 'WAVE_CIV', country: 'CIV', prefix: '225', currency: 'XOF', displayName: 'Wave', authType: 'PROVIDER_AUTH' },
];

export const DEFAULT_PAWAPAY_MOCK_API_TOKEN = 'mock-pawapay-api-token';

/** Limits of the mock's active configuration (major units), like a sandbox account's. */
const MIN_AMOUNT = 100;
const MAX_AMOUNT = 2_000_000;

export interface PawapayMockOptions {
  apiToken?: string;
  /** Where callbacks go: `<callbackBaseUrl>/<deposits|payouts|refunds>` (the Dashboard's callback URLs); none until set. */
  callbackBaseUrl?: string;
  /** Sign callbacks (a P-256 key is made for the mock; its public key is served at /v2/public-key/http). */
  signCallbacks?: boolean;
  /** How long a transaction moves before its outcome (and callback). */
  decisionDelayMs?: number;
}

export interface PawapayMockFaults {
  /** Answer this many next API calls with `failStatus`, doing nothing. */
  failNext: number;
  failStatus: number;
  /** Hold every API answer this long (a slow operator; the client's timeout fires first). */
  delayMs: number;
  /** Send no callbacks (the gateway must find the outcome by asking). */
  dropCallbacks: boolean;
  /** Make the change (store the transaction) but never answer: the client sees a timeout. */
  acceptThenHang: boolean;
}

export interface PawapayMockTransaction {
  kind: Kind;
  id: string;
  body: Record<string, unknown>;
  status: 'ACCEPTED' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
  failureCode?: string;
  providerTransactionId?: string;
  created: string;
  callbacksSent: number;
}

export interface MockSigningKey {
  keyId: string;
  privateKeyPem: string;
  publicKeyPem: string;
}

/** The mock's state, shared by its routes and the handle tests hold. */
export class PawapayMockState extends MockTimers {
  readonly transactions = new Map<string, PawapayMockTransaction>();
  /** POSTs received per `${kind}:${id}`, duplicates included (how many times we were asked). */
  readonly posts = new Map<string, number>();
  /** Per provider and operation: OPERATIONAL, DELAYED or CLOSED. */
  readonly availability = new Map<string, Record<'DEPOSIT' | 'PAYOUT' | 'REFUND', string>>();
  readonly balances = new Map<string, number>([
    ['BEN', 5_000_000],
    ['TGO', 5_000_000],
    ['CIV', 5_000_000],
  ]);
  faults: PawapayMockFaults = { failNext: 0, failStatus: 500, delayMs: 0, dropCallbacks: false, acceptThenHang: false };
  callbackBaseUrl: string | undefined;
  readonly signing: MockSigningKey | undefined;

  constructor(readonly options: Required<Omit<PawapayMockOptions, 'callbackBaseUrl'>> & { callbackBaseUrl?: string }) {
    super();
    this.callbackBaseUrl = options.callbackBaseUrl;
    for (const p of MOCK_PROVIDERS) this.availability.set(p.provider, { DEPOSIT: 'OPERATIONAL', PAYOUT: 'OPERATIONAL', REFUND: 'OPERATIONAL' });
    if (options.signCallbacks) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      this.signing = {
        keyId: `mock-${randomUUID()}`,
        privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      };
    }
  }

  postsFor(kind: Kind, id: string): number {
    return this.posts.get(`${kind}:${id}`) ?? 0;
  }

  transaction(kind: Kind, id: string): PawapayMockTransaction | undefined {
    return this.transactions.get(`${kind}:${id}`);
  }

  setFaults(faults: Partial<PawapayMockFaults>): void {
    this.faults = { ...this.faults, ...faults };
  }

  setAvailability(provider: string, operation: 'DEPOSIT' | 'PAYOUT' | 'REFUND', status: 'OPERATIONAL' | 'DELAYED' | 'CLOSED'): void {
    const flows = this.availability.get(provider);
    if (flows) flows[operation] = status;
  }

  /** Decides a moving transaction now (a test finishing a "stays processing" one), with its callback. */
  settle(kind: Kind, id: string, status: 'COMPLETED' | 'FAILED', failureCode?: string): PawapayMockTransaction | undefined {
    const tx = this.transaction(kind, id);
    if (!tx || tx.status === 'COMPLETED' || tx.status === 'FAILED') return tx;
    tx.status = status;
    if (status === 'FAILED') tx.failureCode = failureCode ?? 'UNSPECIFIED_FAILURE';
    else tx.providerTransactionId = `PP${Math.floor(1e9 + Math.random() * 9e9)}`;
    if (status === 'COMPLETED' && kind === 'payouts') {
      const country = providerOf(tx.body)?.country;
      if (country) this.balances.set(country, (this.balances.get(country) ?? 0) - Number(tx.body['amount']));
    }
    this.sendCallback(tx);
    return tx;
  }

  /** The transaction as a status check's `data` and a callback's body show it. */
  view(tx: PawapayMockTransaction): Record<string, unknown> {
    const { body } = tx;
    const party = tx.kind === 'deposits' ? 'payer' : tx.kind === 'payouts' ? 'recipient' : undefined;
    return {
      [idField[tx.kind]]: tx.id,
      status: tx.status,
      amount: body['amount'],
      currency: body['currency'],
      ...(tx.kind === 'refunds' ? { depositId: body['depositId'] } : {}),
      ...(party ? { country: providerOf(body)?.country, [party]: body[party] } : {}),
      ...(typeof body['customerMessage'] === 'string' ? { customerMessage: body['customerMessage'] } : {}),
      ...(typeof body['clientReferenceId'] === 'string' ? { clientReferenceId: body['clientReferenceId'] } : {}),
      created: tx.created,
      ...(tx.providerTransactionId ? { providerTransactionId: tx.providerTransactionId } : {}),
      ...(tx.failureCode ? { failureReason: { failureCode: tx.failureCode, failureMessage: `The transaction failed: ${tx.failureCode}.` } } : {}),
    };
  }

  sendCallback(tx: PawapayMockTransaction): void {
    if (!this.callbackBaseUrl || this.faults.dropCallbacks) return;
    tx.callbacksSent += 1;
    const url = new URL(`${this.callbackBaseUrl.replace(/\/+$/, '')}/${tx.kind}`);
    const rawBody = Buffer.from(JSON.stringify(this.view(tx)));
    const headers: Record<string, string> = this.signing
      ? signPawapayCallback({ method: 'POST', authority: url.host, path: url.pathname, rawBody }, this.signing.privateKeyPem, {
          keyId: this.signing.keyId,
          nowSeconds: Math.floor(Date.now() / 1000),
        })
      : { 'content-type': 'application/json' };
    fetch(url, { method: 'POST', headers, body: rawBody, signal: AbortSignal.timeout(10_000) }).then(
      (response) => response.body?.cancel(),
      () => undefined, // The mock does not retry a callback it could not deliver.
    );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function providerOf(body: Record<string, unknown>): MockProvider | undefined {
  const party = isRecord(body['payer']) ? body['payer'] : isRecord(body['recipient']) ? body['recipient'] : undefined;
  const details = party && isRecord(party['accountDetails']) ? party['accountDetails'] : undefined;
  return MOCK_PROVIDERS.find((p) => p.provider === details?.['provider']);
}

function failure(code: string, message: string) {
  return { failureReason: { failureCode: code, failureMessage: message } };
}

const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function pawapayMockPlugin(state: PawapayMockState) {
  return async (app: FastifyInstance): Promise<void> => {
    app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
      if (request.url.includes('/_mock/')) return;
      if (state.faults.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.faults.delayMs));
      if (state.faults.failNext > 0) {
        state.faults.failNext -= 1;
        return reply.code(state.faults.failStatus).send(failure('UNKNOWN_ERROR', 'An internal error occurred.'));
      }
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (bearer === undefined) return reply.code(401).send(failure('NO_AUTHENTICATION', 'No API token was found in the request.'));
      if (!sameText(bearer, state.options.apiToken)) return reply.code(403).send(failure('AUTHENTICATION_ERROR', 'The API token is not valid.'));
    });

    const initiate = (kind: Kind) => async (request: FastifyRequest, reply: FastifyReply) => {
      const body = (isRecord(request.body) ? request.body : {}) as Record<string, unknown>;
      const id = body[idField[kind]];
      if (typeof id !== 'string' || !uuidShape.test(id)) {
        return reply
          .code(400)
          .send({ status: 'REJECTED', ...failure(id === undefined ? 'MISSING_PARAMETER' : 'INVALID_PARAMETER', `${idField[kind]} must be a UUID of 36 characters.`) });
      }
      const key = `${kind}:${id}`;
      state.posts.set(key, (state.posts.get(key) ?? 0) + 1);
      const existing = state.transactions.get(key);
      if (existing) return { [idField[kind]]: id, status: 'DUPLICATE_IGNORED', created: existing.created };
      const rejected = (code: string, message: string) => ({ [idField[kind]]: id, status: 'REJECTED', ...failure(code, message) });
      const amount = body['amount'];
      if (typeof amount !== 'string' || !/^\d+(\.\d+)?$/.test(amount)) return reply.code(400).send(rejected('INVALID_PARAMETER', 'amount must be a number written as a string.'));
      if (amount.includes('.')) return rejected('INVALID_AMOUNT', 'The provider takes no decimals in the amount.');
      if (Number(amount) < MIN_AMOUNT || Number(amount) > MAX_AMOUNT) return rejected('AMOUNT_OUT_OF_BOUNDS', `The amount must be from ${MIN_AMOUNT} to ${MAX_AMOUNT}.`);

      let outcome: MockOutcome;
      if (kind === 'refunds') {
        const depositId = body['depositId'];
        const deposit = typeof depositId === 'string' ? state.transaction('deposits', depositId) : undefined;
        if (!deposit) return rejected('DEPOSIT_NOT_FOUND', 'The deposit to refund was not found.');
        if (deposit.status !== 'COMPLETED') return rejected('DEPOSIT_NOT_COMPLETED', 'The deposit to refund is not completed.');
        if (body['currency'] !== deposit.body['currency']) return rejected('INVALID_CURRENCY', 'The currency is not the deposit’s.');
        const refunded = [...state.transactions.values()]
          .filter((tx) => tx.kind === 'refunds' && tx.body['depositId'] === depositId && tx.status !== 'FAILED')
          .reduce((sum, tx) => sum + Number(tx.body['amount']), 0);
        if (refunded + Number(amount) > Number(deposit.body['amount'])) return rejected('AMOUNT_OUT_OF_BOUNDS', 'The refunds would exceed the deposit.');
        const provider = providerOf(deposit.body);
        if (provider && state.availability.get(provider.provider)?.REFUND === 'CLOSED') return rejected('PROVIDER_TEMPORARILY_UNAVAILABLE', 'The provider is not available.');
        outcome = { status: 'COMPLETED' };
      } else {
        const party = kind === 'deposits' ? 'payer' : 'recipient';
        const details =
          isRecord(body[party]) && isRecord((body[party] as Record<string, unknown>)['accountDetails'])
            ? ((body[party] as Record<string, unknown>)['accountDetails'] as Record<string, unknown>)
            : undefined;
        if (!details || (body[party] as Record<string, unknown>)['type'] !== 'MMO')
          return reply.code(400).send(rejected('MISSING_PARAMETER', `${party}.accountDetails is required, with type MMO.`));
        const provider = MOCK_PROVIDERS.find((p) => p.provider === details['provider']);
        if (!provider) return rejected('INVALID_PROVIDER', `Unknown provider ${String(details['provider'])}.`);
        const phone = details['phoneNumber'];
        if (typeof phone !== 'string' || !/^\d{8,15}$/.test(phone) || !phone.startsWith(provider.prefix))
          return rejected('INVALID_PHONE_NUMBER', 'The phone number is not an MSISDN of the provider’s country.');
        if (body['currency'] !== provider.currency) return rejected('INVALID_CURRENCY', `The provider takes ${provider.currency}.`);
        if (state.availability.get(provider.provider)?.[operationOf[kind]] === 'CLOSED') return rejected('PROVIDER_TEMPORARILY_UNAVAILABLE', 'The provider is not available.');
        if (kind === 'deposits' && provider.authType === 'PREAUTH') {
          const code = body['preAuthorisationCode'];
          if (typeof code !== 'string' || code === '') return reply.code(400).send(rejected('MISSING_PARAMETER', 'preAuthorisationCode is required for this provider.'));
          outcome = code === REFUSED_PREAUTHORISATION_CODE ? { status: 'FAILED', failureCode: 'PAYMENT_NOT_APPROVED' } : depositOutcome(phone);
        } else {
          outcome = kind === 'deposits' ? depositOutcome(phone) : payoutOutcome(phone);
        }
      }
      const created = new Date().toISOString();
      const tx: PawapayMockTransaction = { kind, id, body, status: 'ACCEPTED', created, callbacksSent: 0 };
      state.transactions.set(key, tx);
      state.later(Math.floor(state.options.decisionDelayMs / 3), () => {
        if (tx.status === 'ACCEPTED') tx.status = 'PROCESSING';
      });
      if (outcome.status !== 'PROCESSING') {
        const { status, failureCode } = outcome;
        state.later(state.options.decisionDelayMs, () => state.settle(kind, id, status, failureCode));
      }
      if (state.faults.acceptThenHang) return new Promise(() => undefined);
      return { [idField[kind]]: id, status: 'ACCEPTED', created };
    };

    const check = (kind: Kind) => async (request: FastifyRequest<{ Params: { id: string } }>) => {
      const tx = state.transaction(kind, request.params.id);
      return tx ? { status: 'FOUND', data: state.view(tx) } : { status: 'NOT_FOUND', data: null };
    };

    const resend = (kind: Kind) => async (request: FastifyRequest<{ Params: { id: string } }>) => {
      const tx = state.transaction(kind, request.params.id);
      const named = { [idField[kind]]: request.params.id };
      if (!tx) return { ...named, status: 'REJECTED', ...failure('NOT_FOUND', 'No such transaction.') };
      if (tx.status !== 'COMPLETED' && tx.status !== 'FAILED') return { ...named, status: 'REJECTED', ...failure('INVALID_STATE', 'The transaction is not final yet.') };
      state.sendCallback(tx);
      return { ...named, status: 'ACCEPTED' };
    };

    for (const kind of ['deposits', 'payouts', 'refunds'] as const) {
      app.post(`/v2/${kind}`, initiate(kind));
      app.get(`/v2/${kind}/:id`, check(kind));
      app.post(`/v2/${kind}/resend-callback/:id`, resend(kind));
    }

    const countryFilter = (request: FastifyRequest) => (request.query as Record<string, string | undefined>)['country'];

    app.get('/v2/availability', async (request) => {
      const country = countryFilter(request);
      const countries = [...new Set(MOCK_PROVIDERS.map((p) => p.country))].filter((c) => country === undefined || c === country);
      return countries.map((c) => ({
        country: c,
        providers: MOCK_PROVIDERS.filter((p) => p.country === c).map((p) => ({
          provider: p.provider,
          operationTypes: Object.entries(state.availability.get(p.provider)!).map(([operationType, status]) => ({ operationType, status })),
        })),
      }));
    });

    app.get('/v2/active-conf', async (request) => {
      const country = countryFilter(request);
      const countries = [...new Set(MOCK_PROVIDERS.map((p) => p.country))].filter((c) => country === undefined || c === country);
      const limits = (authType: string) => ({ authType, minAmount: String(MIN_AMOUNT), maxAmount: String(MAX_AMOUNT), decimalsInAmount: 'NONE' });
      return {
        companyName: 'Akwe mock merchant',
        countries: countries.map((c) => {
          const providers = MOCK_PROVIDERS.filter((p) => p.country === c);
          return {
            country: c,
            prefix: providers[0]!.prefix,
            providers: providers.map((p) => ({
              provider: p.provider,
              displayName: p.displayName,
              currencies: [{ currency: p.currency, operationTypes: { DEPOSIT: limits(p.authType), PAYOUT: limits('PROVIDER_AUTH'), REFUND: limits('PROVIDER_AUTH') } }],
            })),
          };
        }),
      };
    });

    app.get('/v2/wallet-balances', async (request) => {
      const country = countryFilter(request);
      return {
        balances: [...state.balances].filter(([c]) => country === undefined || c === country).map(([c, balance]) => ({ country: c, balance: balance.toFixed(2), currency: 'XOF' })),
      };
    });

    app.get('/v2/public-key/http', async () => (state.signing ? [{ id: state.signing.keyId, key: state.signing.publicKeyPem }] : []));

    app.post('/v2/predict-provider', async (request, reply) => {
      const phone = String((isRecord(request.body) ? request.body['phoneNumber'] : '') ?? '').replace(/\D/g, '');
      const provider = MOCK_PROVIDERS.find((p) => phone.startsWith(p.prefix));
      if (!provider) return reply.code(400).send(failure('INVALID_PHONE_NUMBER', 'The number belongs to no country of the account.'));
      return { country: provider.country, provider: provider.provider, phoneNumber: phone };
    });

    // Control routes: what a test or a person at the terminal drives the mock with.
    app.get('/_mock/stats', async () => ({
      posts: Object.fromEntries(state.posts),
      transactions: [...state.transactions.values()].map((tx) => ({ kind: tx.kind, id: tx.id, status: tx.status, callbacks_sent: tx.callbacksSent })),
    }));
    app.post('/_mock/balance', async (request, reply) => {
      const body = (isRecord(request.body) ? request.body : {}) as Record<string, unknown>;
      const country = body['country'];
      const balance = Number(body['balance']);
      if (typeof country !== 'string' || !/^[A-Z]{3}$/.test(country) || !Number.isFinite(balance)) {
        return reply.code(400).send({ error: 'give { "country": "BEN", "balance": <major units> }' });
      }
      state.balances.set(country, balance);
      return { country, balance };
    });
    app.post('/_mock/faults', async (request) => {
      const body = (isRecord(request.body) ? request.body : {}) as Record<string, unknown>;
      state.setFaults({
        ...(typeof body['fail_next'] === 'number' ? { failNext: body['fail_next'] } : {}),
        ...(typeof body['fail_status'] === 'number' ? { failStatus: body['fail_status'] } : {}),
        ...(typeof body['delay_ms'] === 'number' ? { delayMs: body['delay_ms'] } : {}),
        ...(typeof body['drop_callbacks'] === 'boolean' ? { dropCallbacks: body['drop_callbacks'] } : {}),
        ...(typeof body['accept_then_hang'] === 'boolean' ? { acceptThenHang: body['accept_then_hang'] } : {}),
      });
      return state.faults;
    });
    app.post<{ Body: { provider?: string; operation?: 'DEPOSIT' | 'PAYOUT' | 'REFUND'; status?: 'OPERATIONAL' | 'DELAYED' | 'CLOSED' } }>(
      '/_mock/availability',
      async (request, reply) => {
        const { provider, operation, status } = request.body ?? {};
        if (!provider || !state.availability.has(provider) || !operation || !status) return reply.code(400).send({ error: 'provider, operation and status are required' });
        state.setAvailability(provider, operation, status);
        return state.availability.get(provider);
      },
    );
    app.post<{ Body: { url?: string } }>('/_mock/callback-url', async (request) => {
      state.callbackBaseUrl = request.body?.url;
      return { callback_base_url: state.callbackBaseUrl ?? null };
    });
    app.post<{ Params: { kind: Kind; id: string }; Body: { status?: 'COMPLETED' | 'FAILED'; failure_code?: string } }>(
      '/_mock/transactions/:kind/:id/settle',
      async (request, reply) => {
        const tx = state.settle(request.params.kind, request.params.id, request.body?.status ?? 'COMPLETED', request.body?.failure_code);
        return tx ? state.view(tx) : reply.code(404).send(failure('NOT_FOUND', 'No such transaction.'));
      },
    );
  };
}

export function pawapayMockState(options: PawapayMockOptions = {}): PawapayMockState {
  return new PawapayMockState({
    apiToken: options.apiToken ?? DEFAULT_PAWAPAY_MOCK_API_TOKEN,
    signCallbacks: options.signCallbacks ?? false,
    decisionDelayMs: options.decisionDelayMs ?? 300,
    ...(options.callbackBaseUrl ? { callbackBaseUrl: options.callbackBaseUrl } : {}),
  });
}

export type RunningPawapayMock = RunningMock<PawapayMockState>;

/** Starts the mock alone on a port of its own (0: any free one). */
export function startPawapayMock(options: PawapayMockOptions & { port?: number; host?: string } = {}): Promise<RunningPawapayMock> {
  const state = pawapayMockState(options);
  return startMockServer(state, pawapayMockPlugin(state), options);
}
