import type { CatalogOperator } from '../../core/catalog/operator-catalog.js';
import type {
  BalanceRead,
  CollectionStatus,
  ConnectorCheck,
  HostedCollection,
  OperatorAnswer,
  OperatorConnector,
  PayoutFlow,
  PushCollection,
  RefundAnswer,
  RefundFlow,
} from '../../core/operators/operator-connector.js';
import type { Payment, Refund } from '../../core/payments/payment.js';
import type { Payout, PayoutAnswer } from '../../core/payouts/payout.js';
import type { Clock } from '../../core/ports.js';
import { MtnMomoClient, type MtnResponse } from './mtn-client.js';
import * as build from './mtn-requests.js';
import type { MtnRequest, MtnTransactionKind } from './mtn-requests.js';
import {
  collectionAccepted,
  collectionAnswer,
  collectionRefused,
  errorCode,
  MtnProtocolError,
  parseTransaction,
  payoutAnswer,
  payoutRefused,
  refundAnswer,
  refundRefused,
  type MtnTransaction,
} from './mtn-responses.js';
import type { MtnMomoSettings } from './mtn-settings.js';
import { parseAccountBalance } from './mtn-balance.js';

/**
 * What a POST that MTN answered means: accepted (202), already known (409: an earlier try of the
 * same reference arrived, so its status is what counts), or refused outright (another 4xx with
 * an error body). Anything else (5xx, a 401 even after a fresh token, an unreadable answer) leaves
 * the outcome unknown: the core keeps its recovery point and asks about the reference later.
 */
type PostOutcome = { accepted: true } | { known: MtnTransaction } | { refused: unknown };

/**
 * MTN MoMo Open API (collection and disbursement), for one MTN company (MTN Benin, MTN Côte
 * d'Ivoire). Push and hosted collect are the same request-to-pay; status queries answer both.
 * Payouts are disbursement transfers; refunds the disbursement refund of the request-to-pay.
 */
export class MtnMomoConnector implements OperatorConnector {
  readonly family = 'mtn-momo';
  readonly push?: PushCollection;
  readonly hosted?: HostedCollection;
  readonly status?: CollectionStatus;
  readonly payouts?: PayoutFlow;
  readonly refunds?: RefundFlow;
  /** The disbursement account's balance: the money payouts and refunds are paid from. */
  readonly balance?: BalanceRead;
  private readonly client: MtnMomoClient;

  constructor(
    readonly settings: MtnMomoSettings,
    clock: Clock,
    fetchImpl?: typeof fetch,
  ) {
    this.client = new MtnMomoClient(settings, clock, fetchImpl);
    if (settings.products.collection) {
      const collect = (payment: Payment, _operator: CatalogOperator) => this.startCollection(payment);
      this.push = { startCollection: collect };
      this.hosted = { payCheckout: collect };
      this.status = { queryStatus: (payment) => this.queryCollection(payment) };
    }
    if (settings.products.disbursement) {
      this.payouts = { sendPayout: (payout) => this.sendPayout(payout), queryPayout: (payout) => this.queryPayout(payout) };
      this.refunds = { refund: (payment, refund) => this.refund(payment, refund), queryRefund: (refund) => this.queryRefund(refund) };
      this.balance = { readBalance: () => this.readDisbursementBalance() };
    }
  }

  /** For `akwe operators check`: fetches each configured product's token and reads its balance. */
  async check(): Promise<ConnectorCheck[]> {
    const products = Object.keys(this.settings.products) as Array<keyof MtnMomoSettings['products']>;
    return Promise.all(
      products.map(async (product) => {
        try {
          const response = await this.client.send(build.balanceQuery(this.settings, product));
          if (response.status !== 200) return { part: product, ok: false, detail: `balance answered ${response.status} ${errorCode(response.body) ?? ''}`.trim() };
          const body = response.body as { availableBalance?: unknown; currency?: unknown } | undefined;
          return { part: product, ok: true, detail: `token issued; balance ${String(body?.availableBalance ?? '?')} ${String(body?.currency ?? '')}`.trim() };
        } catch (error) {
          return { part: product, ok: false, detail: (error as Error).message };
        }
      }),
    );
  }

  private async readDisbursementBalance() {
    const response = await this.client.send(build.balanceQuery(this.settings, 'disbursement'));
    if (response.status !== 200) throw new MtnProtocolError(`the disbursement balance answered ${response.status} ${errorCode(response.body) ?? ''}`.trim());
    return parseAccountBalance(response.body);
  }

  private async startCollection(payment: Payment): Promise<OperatorAnswer> {
    const outcome = await this.post(build.requestToPay(this.settings, payment), 'requesttopay', payment.id);
    if ('accepted' in outcome) return collectionAccepted;
    if ('known' in outcome) return collectionAnswer(outcome.known);
    return collectionRefused(outcome.refused);
  }

  private async queryCollection(payment: Payment): Promise<OperatorAnswer | undefined> {
    const tx = await this.query('requesttopay', payment.id);
    return tx && collectionAnswer(tx);
  }

  private async sendPayout(payout: Payout): Promise<PayoutAnswer> {
    const outcome = await this.post(build.transfer(this.settings, payout), 'transfer', payout.id);
    if ('accepted' in outcome) return { status: 'PROCESSING', message: 'MTN MoMo: transfer accepted.' };
    if ('known' in outcome) return payoutAnswer(outcome.known);
    return payoutRefused(outcome.refused);
  }

  private async queryPayout(payout: Payout): Promise<PayoutAnswer | undefined> {
    const tx = await this.query('transfer', payout.id);
    return tx && payoutAnswer(tx);
  }

  private async refund(payment: Payment, refund: Refund): Promise<RefundAnswer> {
    const outcome = await this.post(build.refund(this.settings, payment, refund), 'refund', refund.id);
    if ('accepted' in outcome) return { status: 'pending' };
    if ('known' in outcome) return refundAnswer(outcome.known);
    return refundRefused(outcome.refused);
  }

  private async queryRefund(refund: Refund): Promise<RefundAnswer | undefined> {
    const tx = await this.query('refund', refund.id);
    return tx && refundAnswer(tx);
  }

  private async post(request: MtnRequest, kind: MtnTransactionKind, id: string): Promise<PostOutcome> {
    const response = await this.client.send(request);
    if (response.status === 202) return { accepted: true };
    if (response.status === 409 && errorCode(response.body) === 'RESOURCE_ALREADY_EXIST') {
      // An earlier try of this reference arrived: never a second charge; its state is the answer.
      const known = await this.query(kind, id);
      if (!known) throw new MtnProtocolError(`${kind} ${id} is a duplicate, yet MTN does not know it`);
      return { known };
    }
    if (response.status >= 400 && response.status < 500 && response.status !== 401 && response.status !== 408 && response.status !== 429 && errorCode(response.body)) {
      return { refused: response.body };
    }
    throw unknownOutcome(request, response);
  }

  /** MTN's view of our reference, or undefined when it never received it (404). */
  private async query(kind: MtnTransactionKind, id: string): Promise<MtnTransaction | undefined> {
    const request = build.statusQuery(this.settings, kind, id);
    const response = await this.client.send(request);
    if (response.status === 404) return undefined;
    if (response.status !== 200) throw unknownOutcome(request, response);
    return parseTransaction(response.body);
  }
}

function unknownOutcome(request: MtnRequest, response: MtnResponse): MtnProtocolError {
  return new MtnProtocolError(`${request.method} ${request.path} was answered ${response.status} ${errorCode(response.body) ?? ''}`.trim());
}
