import type {
  CollectionStatus,
  ConnectorCheck,
  HostedCollection,
  OperatorAnswer,
  OperatorConnector,
  OperatorHealth,
  OtpAnswer,
  OtpConfirmation,
  PayoutFlow,
  PushCollection,
  RefundAnswer,
  RefundFlow,
  StatementFetch,
} from '../../core/operators/operator-connector.js';
import type { Payment, Refund } from '../../core/payments/payment.js';
import type { Payout, PayoutAnswer } from '../../core/payouts/payout.js';
import type { Clock } from '../../core/ports.js';
import { ProviderAvailability } from './pawapay-availability.js';
import { PawapayClient, type PawapayResponse } from './pawapay-client.js';
import * as build from './pawapay-requests.js';
import type { PawapayKind, PawapayRequest } from './pawapay-requests.js';
import {
  depositAccepted,
  depositAnswer,
  depositRejected,
  failureCodeOf,
  parseAvailability,
  parseInitiation,
  parseStatusCheck,
  parseWalletBalances,
  PawapayProtocolError,
  payoutAnswer,
  payoutRejected,
  refundAnswer,
  refundRejected,
  type PawapayFailure,
  type PawapayTransaction,
} from './pawapay-responses.js';
import type { PawapaySettings } from './pawapay-settings.js';
import { walletBalanceFor } from './pawapay-balance.js';
import { verifyPawapaySignature } from './pawapay-signatures.js';
import { pawapayStatements } from './pawapay-statements.js';

/**
 * What a POST pawaPay answered means: accepted, already known (DUPLICATE_IGNORED: an earlier try of
 * the same id arrived, so its status is what counts), or refused outright (REJECTED, or a 400 with
 * a failure reason: nothing was created). Anything else (5xx, 401/403, a timeout, an unreadable
 * answer) leaves the outcome unknown: the core keeps its recovery point and asks about our id later.
 */
type PostOutcome = { accepted: true } | { known: PawapayTransaction } | { refused: PawapayFailure | undefined };

const notWholeFrancs = 'pawaPay takes whole francs only; nothing was sent.';

/**
 * pawaPay Merchant API v2 for one catalog operator (one provider: MTN_MOMO_BEN, MOOV_TGO, …):
 * deposits (push; for a pre-authorised provider such as Orange Côte d'Ivoire, the customer's code
 * through the OTP flow), payouts, refunds, status checks, and the provider's availability as health.
 */
export class PawapayConnector implements OperatorConnector {
  readonly family = 'pawapay';
  readonly push: PushCollection;
  readonly hosted?: HostedCollection;
  readonly otp?: OtpConfirmation;
  readonly status: CollectionStatus;
  readonly payouts: PayoutFlow;
  readonly refunds: RefundFlow;
  /** The wallet that pays this provider's payouts (its own, or the country's). */
  readonly balance = { readBalance: () => this.readWalletBalance() };
  readonly statements: StatementFetch;
  private readonly client: PawapayClient;
  private readonly availability: ProviderAvailability;

  constructor(
    readonly settings: PawapaySettings,
    clock: Clock,
    fetchImpl?: typeof fetch,
  ) {
    this.client = new PawapayClient(settings, fetchImpl);
    this.availability = new ProviderAvailability(() => this.readAvailability(), settings.availabilityTtlMs, clock);
    this.push = { startCollection: (payment) => this.startCollection(payment) };
    if (settings.preAuthorised) this.otp = { confirmOtp: (payment, otp) => this.confirmOtp(payment, otp) };
    // The checkout page has no step for a pre-authorisation code: hosted only where the phone is prompted.
    else this.hosted = { payCheckout: (payment) => this.startCollection(payment) };
    this.status = { queryStatus: (payment) => this.queryDeposit(payment) };
    this.payouts = { sendPayout: (payout) => this.sendPayout(payout), queryPayout: (payout) => this.queryPayout(payout) };
    this.refunds = { refund: (payment, refund) => this.refund(payment, refund), queryRefund: (refund) => this.queryRefund(refund) };
    this.statements = pawapayStatements(settings, fetchImpl);
  }

  /** pawaPay's provider availability, as last read (never read on the request's path). */
  health(): OperatorHealth {
    return this.availability.health();
  }

  /** Reads availability now (tests, and a process that wants it before its first request). */
  refreshAvailability(): Promise<void> {
    return this.availability.refresh();
  }

  /**
   * Whether a callback is pawaPay's: its RFC 9421 signature checked against pawaPay's public key.
   * The request line comes in the pseudo-headers `:method`, `:authority` (several may be tried,
   * comma-separated: the Host received and the public URL's) and `:path`. Without a key configured
   * nothing can be checked (false, and `signsCallbacks` says so): the route relies on the status check.
   */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>, nowSeconds: number): boolean {
    const key = this.settings.callbackPublicKey;
    if (key === undefined) return false;
    const one = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const authorities = (one(':authority') ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '');
    return authorities.some(
      (authority) => verifyPawapaySignature({ method: one(':method') ?? 'POST', authority, path: one(':path') ?? '', headers, rawBody }, key.reveal(), nowSeconds).ok,
    );
  }

  get signsCallbacks(): boolean {
    return this.settings.callbackPublicKey !== undefined;
  }

  private async readWalletBalance() {
    const response = await this.client.send(build.walletBalancesQuery(this.settings));
    if (response.status !== 200) throw new PawapayProtocolError(`wallet balances answered ${response.status} ${failureCodeOf(response.body) ?? ''}`.trim());
    return walletBalanceFor(response.body, this.settings.country, this.settings.provider);
  }

  /** For `akwe operators check`: the token works and the wallet balance is readable. */
  async check(): Promise<ConnectorCheck[]> {
    const part = `api token (${this.settings.provider})`;
    try {
      const response = await this.client.send(build.walletBalancesQuery(this.settings));
      if (response.status !== 200) return [{ part, ok: false, detail: `wallet balances answered ${response.status} ${failureCodeOf(response.body) ?? ''}`.trim() }];
      const balances = parseWalletBalances(response.body).filter((b) => b.country === this.settings.country || b.country === '');
      const shown = balances.map((b) => `${b.balance} ${b.currency}`).join(', ') || 'no wallet in this country';
      return [{ part, ok: true, detail: `token accepted; balance ${shown}` }];
    } catch (error) {
      return [{ part, ok: false, detail: (error as Error).message }];
    }
  }

  private async startCollection(payment: Payment): Promise<OperatorAnswer> {
    if (this.settings.preAuthorised) {
      // The customer makes the code on the phone (Orange: #144*82#); the deposit starts with it, at confirm.
      return { path: ['awaiting_otp'], message: 'pawaPay: waiting for the customer’s pre-authorisation code (confirm with it).' };
    }
    if (!build.isWholeMajor(payment.amountMinor)) return { path: ['failed'], message: notWholeFrancs, failureCode: 'operator_declined' };
    const outcome = await this.post(build.deposit(this.settings, payment), 'deposits', payment.id);
    if ('accepted' in outcome) return depositAccepted();
    if ('known' in outcome) return depositAnswer(outcome.known);
    return depositRejected(outcome.refused);
  }

  private async confirmOtp(payment: Payment, code: string): Promise<OtpAnswer> {
    const options = { preAuthorised: true };
    if (!build.isWholeMajor(payment.amountMinor)) return { path: ['failed'], message: notWholeFrancs, failureCode: 'operator_declined' };
    const outcome = await this.post(build.deposit(this.settings, payment, code), 'deposits', payment.id);
    if ('accepted' in outcome) return depositAccepted(options);
    if ('known' in outcome) return depositAnswer(outcome.known, options);
    return depositRejected(outcome.refused, options);
  }

  private async queryDeposit(payment: Payment): Promise<OperatorAnswer | undefined> {
    const tx = await this.query('deposits', payment.id);
    return tx && depositAnswer(tx, { preAuthorised: this.settings.preAuthorised });
  }

  private async sendPayout(payout: Payout): Promise<PayoutAnswer> {
    if (!build.isWholeMajor(payout.amountMinor)) return { status: 'FAILED', message: notWholeFrancs, failureCode: 'operator_declined' };
    const outcome = await this.post(build.payout(this.settings, payout), 'payouts', payout.id);
    if ('accepted' in outcome) return { status: 'PROCESSING', message: 'pawaPay: payout accepted.' };
    if ('known' in outcome) return payoutAnswer(outcome.known);
    return payoutRejected(outcome.refused);
  }

  private async queryPayout(payout: Payout): Promise<PayoutAnswer | undefined> {
    const tx = await this.query('payouts', payout.id);
    return tx && payoutAnswer(tx);
  }

  private async refund(payment: Payment, refund: Refund): Promise<RefundAnswer> {
    if (!build.isWholeMajor(refund.amountMinor)) return { status: 'failed', message: notWholeFrancs };
    const outcome = await this.post(build.refund(this.settings, payment, refund), 'refunds', refund.id);
    if ('accepted' in outcome) return { status: 'pending' };
    if ('known' in outcome) return refundAnswer(outcome.known);
    return refundRejected(outcome.refused);
  }

  private async queryRefund(refund: Refund): Promise<RefundAnswer | undefined> {
    const tx = await this.query('refunds', refund.id);
    return tx && refundAnswer(tx);
  }

  private async post(request: PawapayRequest, kind: PawapayKind, id: string): Promise<PostOutcome> {
    const response = await this.client.send(request);
    if (response.status === 200) {
      const initiation = parseInitiation(response.body);
      if (initiation.status === 'ACCEPTED') return { accepted: true };
      if (initiation.status === 'REJECTED') return { refused: initiation.failure };
      // DUPLICATE_IGNORED: an earlier try of this id arrived; never a second charge, its state is the answer.
      const known = await this.query(kind, id);
      if (!known) throw new PawapayProtocolError(`${kind} ${id} is a duplicate, yet pawaPay does not know it`);
      return { known };
    }
    if (response.status === 400 && failureCodeOf(response.body)) return { refused: { code: failureCodeOf(response.body)! } };
    throw unknownOutcome(request, response);
  }

  /** pawaPay's view of our id, or undefined when it never received it (NOT_FOUND). */
  private async query(kind: PawapayKind, id: string): Promise<PawapayTransaction | undefined> {
    const request = build.statusQuery(kind, id);
    const response = await this.client.send(request);
    if (response.status !== 200) throw unknownOutcome(request, response);
    return parseStatusCheck(response.body);
  }

  private async readAvailability() {
    const response = await this.client.send(build.availabilityQuery(this.settings));
    if (response.status !== 200) throw unknownOutcome(build.availabilityQuery(this.settings), response);
    return parseAvailability(response.body, this.settings.provider);
  }
}

function unknownOutcome(request: PawapayRequest, response: PawapayResponse): PawapayProtocolError {
  return new PawapayProtocolError(`${request.method} ${request.path.split('?')[0]} was answered ${response.status} ${failureCodeOf(response.body) ?? ''}`.trim());
}
