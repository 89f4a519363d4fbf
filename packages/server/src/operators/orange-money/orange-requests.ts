/**
 * Our payment -> Orange Money Web Payment's requests, pure (tested from recorded fixtures). Orange
 * takes whole amounts in the currency's unit; our payment id is the `order_id`, which Orange's
 * status query needs with the amount and the `pay_token` it gave.
 */
import type { Payment } from '../../core/payments/payment.js';
import type { OperatorRequest } from '../operator-http.js';
import type { OrangeMoneySettings } from './orange-settings.js';

/** OAuth client credentials, with the Authorization header exactly as Orange's portal shows it. */
export function tokenRequest(settings: OrangeMoneySettings): OperatorRequest {
  return {
    method: 'POST',
    path: settings.tokenPath,
    headers: { authorization: settings.authorizationHeader.reveal(), 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    form: { grant_type: 'client_credentials' },
  };
}

export function isWholeMajor(amountMinor: number): boolean {
  return amountMinor % 100 === 0;
}

/** Opens a payment on Orange's page for our payment (its id is the order id). */
export function webPayment(settings: OrangeMoneySettings, payment: Payment): OperatorRequest {
  return {
    method: 'POST',
    path: `${settings.webpayPath}/webpayment`,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: {
      merchant_key: settings.merchantKey.reveal(),
      currency: settings.currency,
      order_id: payment.id,
      amount: payment.amountMinor / 100,
      return_url: settings.returnUrlFor(payment.id),
      cancel_url: settings.cancelUrlFor(payment.id),
      notif_url: settings.notifyUrlFor(payment.id),
      lang: settings.lang,
      reference: settings.reference,
    },
  };
}

/** Where Orange stands on our payment: by order id, amount and the pay_token of its payment page. */
export function transactionStatus(settings: OrangeMoneySettings, payment: Payment, payToken: string): OperatorRequest {
  return {
    method: 'POST',
    path: `${settings.webpayPath}/transactionstatus`,
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: { order_id: payment.id, amount: payment.amountMinor / 100, pay_token: payToken },
  };
}
