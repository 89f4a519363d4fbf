/** The client: `new Akwe(apiKey, options)`, with one property per resource, named as the API names them. */
import { AccountResource } from './resources/account.js';
import { BalanceTransactions, Balances } from './resources/balances.js';
import { Bulk } from './resources/bulk.js';
import { Events } from './resources/events.js';
import { Exports } from './resources/exports.js';
import { Operators } from './resources/operators.js';
import { Payments } from './resources/payments.js';
import { Payouts } from './resources/payouts.js';
import { Refunds } from './resources/refunds.js';
import { SettlementAccounts, Settlements } from './resources/settlements.js';
import { PaymentLinks } from './resources/payment-links.js';
import { Transfers } from './resources/transfers.js';
import { WebhookEndpoints } from './resources/webhook-endpoints.js';
import { Transport, type BackoffOptions } from './transport.js';
import { webhooks } from './webhooks.js';

export interface AkweOptions {
  /** The API root, `/api/v1` included (default http://localhost:8080/api/v1, a local `npm start`). */
  baseUrl?: string;
  /** Milliseconds per attempt before it counts as a network failure (default 30 000). */
  timeout?: number;
  /** Retries after the first attempt of a call (default 2). */
  maxRetries?: number;
  /** Waits between retries: exponential with full jitter, unless the API says Retry-After. */
  backoff?: BackoffOptions;
  /** A fetch of your own (a proxy agent, a test double); default globalThis.fetch. */
  fetch?: typeof fetch;
}

export const DEFAULT_BASE_URL = 'http://localhost:8080/api/v1';

export class Akwe {
  /** Webhook signature checks; they need no client (`Akwe.webhooks.constructEvent(…)`). */
  static readonly webhooks = webhooks;
  readonly webhooks = webhooks;

  readonly account: AccountResource;
  readonly payments: Payments;
  readonly refunds: Refunds;
  readonly payouts: Payouts;
  readonly bulk: Bulk;
  readonly balances: Balances;
  readonly balanceTransactions: BalanceTransactions;
  readonly transfers: Transfers;
  readonly settlements: Settlements;
  readonly settlementAccounts: SettlementAccounts;
  readonly paymentLinks: PaymentLinks;
  readonly webhookEndpoints: WebhookEndpoints;
  readonly events: Events;
  readonly operators: Operators;
  readonly exports: Exports;

  constructor(apiKey: string, options: AkweOptions = {}) {
    if (typeof apiKey !== 'string' || apiKey.trim() === '') throw new TypeError('new Akwe(apiKey): the API key (ak_test_… or ak_live_…) is required');
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new TypeError('new Akwe(): this runtime has no fetch; pass options.fetch');
    const transport = new Transport({
      apiKey,
      baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
      timeout: options.timeout ?? 30_000,
      maxRetries: options.maxRetries ?? 2,
      backoff: { initialDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000, ...options.backoff },
      // Called unbound: some runtimes' fetch refuses a `this` other than globalThis.
      fetch: (input, init) => fetchImpl(input, init),
    });
    this.account = new AccountResource(transport);
    this.payments = new Payments(transport);
    this.refunds = new Refunds(transport);
    this.payouts = new Payouts(transport);
    this.bulk = new Bulk(transport);
    this.balances = new Balances(transport);
    this.balanceTransactions = new BalanceTransactions(transport);
    this.transfers = new Transfers(transport);
    this.settlements = new Settlements(transport);
    this.settlementAccounts = new SettlementAccounts(transport);
    this.paymentLinks = new PaymentLinks(transport);
    this.webhookEndpoints = new WebhookEndpoints(transport);
    this.events = new Events(transport);
    this.operators = new Operators(transport);
    this.exports = new Exports(transport);
  }
}
