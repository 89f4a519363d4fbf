import type { ConnectorCheck, OperatorAnswer, OperatorConnector, RefundAnswer, StatementFetch } from '../../core/operators/operator-connector.js';
import type { Payment, Refund } from '../../core/payments/payment.js';
import type { Payout, PayoutAnswer } from '../../core/payouts/payout.js';
import { WaveClient, type WaveResponse } from './wave-client.js';
import * as build from './wave-requests.js';
import type { WaveRequest } from './wave-requests.js';
import {
  classifyWaveError,
  errorCode,
  parseCheckoutSession,
  parsePayout,
  partialRefundRefused,
  payoutAnswer,
  payoutRefused,
  payoutThatCounts,
  payoutsFromSearch,
  refundAccepted,
  refundRefused,
  sessionAnswer,
  sessionRefused,
  sessionThatCounts,
  sessionsFromSearch,
  WaveProtocolError,
  type WaveCheckoutSession,
} from './wave-responses.js';
import { verifyWaveSignature, WAVE_SIGNATURE_HEADER } from './wave-webhooks.js';
import type { WaveSettings } from './wave-settings.js';
import { parseWalletBalance } from './wave-balance.js';
import { waveStatements } from './wave-statements.js';

/**
 * How long Akwe reads a completed Wave payout again, in case it is reversed: the business can reverse
 * a payout for three days (as the mock has it; to check against Wave's documentation), and a day
 * more covers clocks and late records.
 */
export const WAVE_PAYOUT_REVERSAL_WINDOW_MS = 4 * 24 * 3_600_000;

const notWholeFrancs: OperatorAnswer = { path: ['failed'], message: 'Wave takes whole francs only; nothing was sent.', failureCode: 'operator_declined' };

/**
 * Wave Business API for one wallet (Wave Côte d'Ivoire): hosted collect through checkout sessions
 * (the customer pays on Wave's page, `redirectUrl`), refunds of a whole checkout payment, payouts.
 * No push and no OTP: Wave collects only on its own page. Our ids are the `client_reference` and
 * the Idempotency-Key, so a retried POST answers the first result and a lost answer is found by
 * searching for our id. Wave's webhooks are signed; they are verified here and only say which
 * payment to ask Wave about.
 */
export class WaveConnector implements OperatorConnector {
  readonly family = 'wave';
  readonly hosted = { payCheckout: (payment: Payment) => this.openCheckout(payment) };
  readonly status = { queryStatus: (payment: Payment) => this.queryCheckout(payment) };
  readonly refunds = { refund: (payment: Payment, refund: Refund) => this.refund(payment, refund), queryRefund: () => Promise.resolve(undefined) };
  readonly payouts = { sendPayout: (payout: Payout) => this.sendPayout(payout), queryPayout: (payout: Payout) => this.queryPayout(payout) };
  /**
   * The business can reverse a payout (its API, its portal) and Wave sends no webhook for payouts:
   * completed payouts are read again for this long (docs/operators.md "Reversals").
   */
  readonly payoutReversalWindowMs = WAVE_PAYOUT_REVERSAL_WINDOW_MS;
  /** The wallet's balance (Balance API): the money payouts are paid from. */
  readonly balance = { readBalance: () => this.readWalletBalance() };
  /** The wallet's movements of a day (Balance API): the daily reconciliation's statement. */
  readonly statements: StatementFetch;
  private readonly client: WaveClient;

  constructor(
    readonly settings: WaveSettings,
    fetchImpl?: typeof fetch,
  ) {
    this.client = new WaveClient(settings, fetchImpl);
    this.statements = waveStatements(settings, this.client);
  }

  /** Whether a webhook body came from Wave: its `Wave-Signature` checked against our signing secret. */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>, nowSeconds: number): boolean {
    const header = headers[WAVE_SIGNATURE_HEADER];
    return verifyWaveSignature(rawBody, Array.isArray(header) ? header[0] : header, this.settings.webhookSecret.reveal(), nowSeconds).ok;
  }

  private async readWalletBalance() {
    const response = await this.client.send(build.balanceQuery());
    if (response.status !== 200) throw new WaveProtocolError(`the balance answered ${response.status} ${errorCode(response.body) ?? ''}`.trim());
    return parseWalletBalance(response.body);
  }

  async check(): Promise<ConnectorCheck[]> {
    try {
      const response = await this.client.send(build.balanceQuery());
      if (response.status !== 200) return [{ part: 'api key', ok: false, detail: `balance answered ${response.status} ${errorCode(response.body) ?? ''}`.trim() }];
      const body = response.body as { amount?: unknown; currency?: unknown } | undefined;
      return [{ part: 'api key', ok: true, detail: `balance ${String(body?.amount ?? '?')} ${String(body?.currency ?? '')}`.trim() }];
    } catch (error) {
      return [{ part: 'api key', ok: false, detail: (error as Error).message }];
    }
  }

  private async openCheckout(payment: Payment): Promise<OperatorAnswer> {
    if (!build.isWholeMajor(payment.amountMinor)) return notWholeFrancs;
    const response = await this.client.send(build.createCheckoutSession(this.settings, payment));
    if (response.status === 200 || response.status === 201) return withLaunch(parseCheckoutSession(response.body));
    if (classifyWaveError(response.status, response.body) === 'refused') return sessionRefused(response.body);
    throw unknownOutcome('creating a checkout session', response);
  }

  private async queryCheckout(payment: Payment): Promise<OperatorAnswer | undefined> {
    const session = await this.sessionOf(payment.id);
    return session && withLaunch(session);
  }

  private async refund(payment: Payment, refund: Refund): Promise<RefundAnswer> {
    // Wave gives back a whole checkout payment, once: the only refund it can make is this one.
    if (refund.amountMinor !== payment.amountMinor || payment.refundedMinor !== refund.amountMinor) return partialRefundRefused;
    const session = await this.sessionOf(payment.id);
    if (!session || session.paymentStatus !== 'succeeded') return { status: 'failed', message: 'Wave holds no paid checkout for this payment.' };
    // A repeat of a done refund is answered 200 and refunds once: asking again is also how a lost answer is found.
    const response = await this.client.send(build.refundCheckoutSession(session.id, refund));
    if (response.status === 200) return refundAccepted;
    if (classifyWaveError(response.status, response.body) === 'refused') return refundRefused(response.body);
    throw unknownOutcome('refunding', response);
  }

  private async sendPayout(payout: Payout): Promise<PayoutAnswer> {
    if (!build.isWholeMajor(payout.amountMinor)) return { status: 'FAILED', message: 'Wave takes whole francs only; nothing was sent.', failureCode: 'operator_declined' };
    const response = await this.client.send(build.createPayout(this.settings, payout));
    if (response.status === 200 || response.status === 201) return payoutAnswer(parsePayout(response.body));
    if (classifyWaveError(response.status, response.body) === 'refused') return payoutRefused(response.body);
    throw unknownOutcome('sending a payout', response);
  }

  private async queryPayout(payout: Payout): Promise<PayoutAnswer | undefined> {
    const response = await this.search(build.payoutsByReference(payout.id));
    const found = payoutThatCounts(payoutsFromSearch(response.body));
    return found && payoutAnswer(found);
  }

  /** The session that counts for our payment (a paid one first), or undefined when Wave has none. */
  private async sessionOf(paymentId: string): Promise<WaveCheckoutSession | undefined> {
    const response = await this.search(build.checkoutSessionsByReference(paymentId));
    return sessionThatCounts(sessionsFromSearch(response.body));
  }

  private async search(request: WaveRequest): Promise<WaveResponse> {
    const response = await this.client.send(request);
    if (response.status !== 200) throw unknownOutcome('searching by our reference', response);
    return response;
  }
}

/** The session's answer, with where the customer pays while it is open. */
function withLaunch(session: WaveCheckoutSession): OperatorAnswer {
  const answer = sessionAnswer(session);
  const open = session.checkoutStatus === 'open' && session.paymentStatus === 'processing';
  return { ...answer, ...(answer.pspReference === undefined ? { pspReference: session.id } : {}), ...(open && session.launchUrl ? { redirectUrl: session.launchUrl } : {}) };
}

function unknownOutcome(what: string, response: WaveResponse): WaveProtocolError {
  return new WaveProtocolError(`${what} was answered ${response.status} ${errorCode(response.body) ?? ''}`.trim());
}
