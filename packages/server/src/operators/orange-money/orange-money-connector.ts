import type { Clock } from '../../core/ports.js';
import type { ConnectorCheck, OperatorAnswer, OperatorConnector } from '../../core/operators/operator-connector.js';
import type { Payment } from '../../core/payments/payment.js';
import type { OperatorResponse } from '../operator-http.js';
import { OrangeMoneyClient } from './orange-client.js';
import { isWholeMajor, transactionStatus, webPayment } from './orange-requests.js';
import { errorMessage, isRefusal, notifTokenHash, OrangeProtocolError, parseWebPayment, statusAnswer } from './orange-responses.js';
import type { OrangeMoneySettings } from './orange-settings.js';

/** Keys of what the connector keeps on the payment (Payment.operatorState). */
export const ORANGE_STATE = { payToken: 'pay_token', notifTokenHash: 'notif_token_sha256' } as const;

const notWholeFrancs: OperatorAnswer = { path: ['failed'], message: 'Orange Money takes whole francs only; nothing was sent.', failureCode: 'operator_declined' };

/**
 * Orange Money Web Payment for one merchant (Orange Côte d'Ivoire): hosted collection only. The
 * customer chooses Orange on our checkout page, Akwe opens a web payment (our payment id as the
 * order id) and sends the customer to Orange's page; Orange's notification and the reconciliation
 * each ask `transactionstatus` what happened. No push, OTP, refund or payout: this route does not
 * offer them, and the core refuses them (or routes them elsewhere) before anything is written.
 */
export class OrangeMoneyConnector implements OperatorConnector {
  readonly family = 'orange-money';
  readonly hosted = { payCheckout: (payment: Payment) => this.openPayment(payment) };
  readonly status = { queryStatus: (payment: Payment) => this.queryPayment(payment) };
  private readonly client: OrangeMoneyClient;

  constructor(
    readonly settings: OrangeMoneySettings,
    clock: Clock,
    fetchImpl?: typeof fetch,
  ) {
    this.client = new OrangeMoneyClient(settings, clock, fetchImpl);
  }

  async check(): Promise<ConnectorCheck[]> {
    try {
      await this.client.token();
      return [{ part: 'oauth token', ok: true, detail: 'token issued' }];
    } catch (error) {
      return [{ part: 'oauth token', ok: false, detail: (error as Error).message }];
    }
  }

  private async openPayment(payment: Payment): Promise<OperatorAnswer> {
    if (!isWholeMajor(payment.amountMinor)) return notWholeFrancs;
    const response = await this.client.send(webPayment(this.settings, payment));
    if (response.status === 201 || response.status === 200) {
      const opened = parseWebPayment(response.body);
      return {
        path: ['processing'],
        redirectUrl: opened.paymentUrl,
        operatorState: { [ORANGE_STATE.payToken]: opened.payToken, [ORANGE_STATE.notifTokenHash]: notifTokenHash(opened.notifToken) },
      };
    }
    if (isRefusal(response.status))
      return { path: ['failed'], failureCode: 'operator_declined', message: `Orange Money refused the payment: ${errorMessage(response.body) ?? response.status}.` };
    throw unknownOutcome('opening a web payment', response);
  }

  /**
   * Where Orange stands on our payment. Without a pay_token Orange never gave us a page for it (its
   * answer was lost): nobody can have paid it, so it counts as never received.
   */
  private async queryPayment(payment: Payment): Promise<OperatorAnswer | undefined> {
    const payToken = payment.operatorState?.[ORANGE_STATE.payToken];
    if (!payToken) return undefined;
    const response = await this.client.send(transactionStatus(this.settings, payment, payToken));
    if (response.status === 200 || response.status === 201) return statusAnswer(response.body, payment.id);
    throw unknownOutcome('asking the transaction status', response);
  }
}

function unknownOutcome(what: string, response: OperatorResponse): OrangeProtocolError {
  return new OrangeProtocolError(`${what} was answered ${response.status} ${errorMessage(response.body) ?? ''}`.trim());
}
