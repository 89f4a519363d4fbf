import type { CollectionStatus, ConnectorCheck, HostedCollection, OperatorAnswer, OperatorConnector, PayoutFlow, PushCollection } from '../../core/operators/operator-connector.js';
import type { Payment } from '../../core/payments/payment.js';
import type { Payout, PayoutAnswer } from '../../core/payouts/payout.js';
import { FedaPayClient, type FedaPayResponse } from './fedapay-client.js';
import * as build from './fedapay-requests.js';
import {
  classifyFedaPayError,
  describeError,
  FedaPayProtocolError,
  isDuplicateReference,
  payoutAnswer,
  payoutOf,
  startedPayoutOf,
  tokenOf,
  transactionAnswer,
  transactionOf,
  type FedaPayPayout,
  type FedaPayTransaction,
} from './fedapay-responses.js';
import type { FedaPaySettings } from './fedapay-settings.js';
import { modeBalanceOf } from './fedapay-balance.js';
import { FEDAPAY_SIGNATURE_HEADER, verifyFedaPaySignature } from './fedapay-webhooks.js';

const notWholeFrancs = 'FedaPay takes whole francs only; nothing was sent.';

/** The transaction exists; FedaPay refused to send it (or to create it): nothing reached the customer. */
function refusedAnswer(what: string, response: FedaPayResponse): OperatorAnswer {
  return { path: ['failed'], message: `FedaPay refused ${what}: ${describeError(response.body)}`, failureCode: 'operator_declined' };
}

/**
 * FedaPay for one catalog operator (Moov Bénin, Celtiis, T-Money, Flooz, MTN Bénin), in that
 * operator's FedaPay mode. Collect: a transaction with our payment id as `merchant_reference`,
 * then its token, then the no-redirect send (a push to the phone); or, for hosted payments when
 * the entry says so, FedaPay's own payment page. Payouts: created, then started. FedaPay's API has
 * no refunds, so the flow is absent (a refund is refused before anything is written).
 *
 * Every step can be retried: a create with a reference FedaPay already holds is found by that
 * reference and carried on from where it stopped (a transaction still pending with no mode was
 * never sent; a payout still pending was never started). A status query says "never received"
 * for exactly those, so a resumption sends them instead of waiting for nothing.
 */
export class FedaPayConnector implements OperatorConnector {
  readonly family = 'fedapay';
  readonly push: PushCollection = { startCollection: (payment: Payment) => this.collect(payment) };
  readonly hosted: HostedCollection = { payCheckout: (payment: Payment) => (this.settings.hostedPage ? this.openPaymentPage(payment) : this.collect(payment)) };
  readonly status: CollectionStatus = { queryStatus: (payment: Payment) => this.queryTransaction(payment) };
  readonly payouts: PayoutFlow = { sendPayout: (payout: Payout) => this.sendPayout(payout), queryPayout: (payout: Payout) => this.queryPayout(payout) };
  /** This operator's mode balance on the account: the money its payouts are paid from. */
  readonly balance = { readBalance: () => this.readModeBalance() };
  private readonly client: FedaPayClient;

  constructor(
    readonly settings: FedaPaySettings,
    fetchImpl?: typeof fetch,
  ) {
    this.client = new FedaPayClient(settings, fetchImpl);
  }

  /** Whether a webhook came from FedaPay: its X-FEDAPAY-SIGNATURE checked against every endpoint secret of this entry. */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>, nowSeconds: number): boolean {
    const header = headers[FEDAPAY_SIGNATURE_HEADER];
    const secrets = this.settings.webhookSecrets.map((secret) => secret.reveal());
    return verifyFedaPaySignature(rawBody, Array.isArray(header) ? header[0] : header, secrets, nowSeconds).ok;
  }

  private async readModeBalance() {
    const response = await this.client.send(build.balancesQuery());
    if (response.status !== 200) throw new FedaPayProtocolError(`balances answered ${response.status} ${describeError(response.body)}`);
    return modeBalanceOf(response.body, this.settings.mode, this.settings.currency);
  }

  async check(): Promise<ConnectorCheck[]> {
    try {
      const response = await this.client.send(build.balancesQuery());
      if (response.status !== 200) return [{ part: 'secret key', ok: false, detail: `balances answered ${response.status} ${describeError(response.body)}` }];
      return [{ part: 'secret key', ok: true, detail: `account readable (mode ${this.settings.mode})` }];
    } catch (error) {
      return [{ part: 'secret key', ok: false, detail: (error as Error).message }];
    }
  }

  private async collect(payment: Payment): Promise<OperatorAnswer> {
    if (!build.isWholeMajor(payment.amountMinor)) return { path: ['failed'], message: notWholeFrancs, failureCode: 'operator_declined' };
    const made = await this.transactionFor(payment);
    if ('refused' in made) return made.refused;
    const transaction = made.transaction;
    if (!neverSent(transaction)) return transactionAnswer(transaction);
    const { token } = await this.tokenFor(transaction);
    const sent = await this.client.send(build.sendWithoutRedirect(this.settings, token, payment.phone));
    if (sent.status >= 200 && sent.status < 300) return transactionAnswer(await this.read(build.transactionById(transaction.id)));
    if (classifyFedaPayError(sent.status) === 'refused') return refusedAnswer('to send the payment request', sent);
    throw unknownOutcome('sending the payment request', sent);
  }

  private async openPaymentPage(payment: Payment): Promise<OperatorAnswer> {
    if (!build.isWholeMajor(payment.amountMinor)) return { path: ['failed'], message: notWholeFrancs, failureCode: 'operator_declined' };
    const made = await this.transactionFor(payment);
    if ('refused' in made) return made.refused;
    if (!neverSent(made.transaction)) return transactionAnswer(made.transaction);
    const { url } = await this.tokenFor(made.transaction);
    return { path: ['processing'], pspReference: made.transaction.reference, message: 'FedaPay: waiting for the customer on FedaPay’s payment page.', redirectUrl: url };
  }

  private async queryTransaction(payment: Payment): Promise<OperatorAnswer | undefined> {
    const response = await this.client.send(build.transactionByReference(payment.id));
    if (response.status === 404) return undefined;
    if (response.status !== 200) throw unknownOutcome('reading the transaction', response);
    const transaction = transactionOf(response.body);
    if (neverSent(transaction)) return this.settings.hostedPage && payment.mode === 'hosted' ? { path: ['processing'], pspReference: transaction.reference } : undefined;
    return transactionAnswer(transaction);
  }

  private async sendPayout(payout: Payout): Promise<PayoutAnswer> {
    if (!build.isWholeMajor(payout.amountMinor)) return { status: 'FAILED', message: notWholeFrancs, failureCode: 'operator_declined' };
    const created = await this.client.send(build.createPayout(this.settings, payout));
    let found: FedaPayPayout;
    if (created.status === 200 || created.status === 201) found = payoutOf(created.body);
    else if (isDuplicateReference(created.status, created.body)) found = payoutOf(await this.readOk(build.payoutByReference(payout.id), 'reading the payout'));
    else if (classifyFedaPayError(created.status) === 'refused')
      return { status: 'FAILED', message: `FedaPay refused the payout: ${describeError(created.body)}`, failureCode: 'operator_declined' };
    else throw unknownOutcome('creating the payout', created);
    if (found.status !== 'pending') return payoutAnswer(found);
    const started = await this.client.send(build.startPayout(found.id));
    if (started.status === 200 || started.status === 201) return payoutAnswer(startedPayoutOf(started.body, found.id));
    if (classifyFedaPayError(started.status) === 'refused')
      return { status: 'FAILED', message: `FedaPay refused to start the payout: ${describeError(started.body)}`, failureCode: 'operator_declined' };
    throw unknownOutcome('starting the payout', started);
  }

  private async queryPayout(payout: Payout): Promise<PayoutAnswer | undefined> {
    const response = await this.client.send(build.payoutByReference(payout.id));
    if (response.status === 404) return undefined;
    if (response.status !== 200) throw unknownOutcome('reading the payout', response);
    const found = payoutOf(response.body);
    // Created but never started: FedaPay has not sent anything, so a resumption may start it.
    return found.status === 'pending' ? undefined : payoutAnswer(found);
  }

  /** The transaction for our payment: created now, or found by our reference when an earlier try created it. */
  private async transactionFor(payment: Payment): Promise<{ transaction: FedaPayTransaction } | { refused: OperatorAnswer }> {
    const created = await this.client.send(build.createTransaction(this.settings, payment));
    if (created.status === 200 || created.status === 201) return { transaction: transactionOf(created.body) };
    if (isDuplicateReference(created.status, created.body)) return { transaction: await this.read(build.transactionByReference(payment.id)) };
    if (classifyFedaPayError(created.status) === 'refused') return { refused: refusedAnswer('the transaction', created) };
    throw unknownOutcome('creating the transaction', created);
  }

  private async tokenFor(transaction: FedaPayTransaction): Promise<{ token: string; url: string }> {
    return tokenOf(await this.readOk(build.transactionToken(transaction.id), 'asking for the payment token'));
  }

  private async read(request: build.FedaPayRequest): Promise<FedaPayTransaction> {
    return transactionOf(await this.readOk(request, 'reading the transaction'));
  }

  private async readOk(request: build.FedaPayRequest, what: string): Promise<unknown> {
    const response = await this.client.send(request);
    if (response.status !== 200 && response.status !== 201) throw unknownOutcome(what, response);
    return response.body;
  }
}

/** A transaction FedaPay holds but never sent to the customer: pending, with no payment mode yet. */
function neverSent(transaction: FedaPayTransaction): boolean {
  return transaction.status === 'pending' && transaction.mode === null;
}

function unknownOutcome(what: string, response: FedaPayResponse): FedaPayProtocolError {
  return new FedaPayProtocolError(`${what} was answered ${response.status} (${describeError(response.body)})`);
}
