import type { CatalogOperator, OperatorCatalog } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import type { Merchant } from '../merchants/merchant.js';
import type { Clock } from '../shared/clock.js';
import { looksLikeCheckoutToken } from '../payments/checkout-token.js';
import type { Payment } from '../payments/payment.js';
import type { PaymentService } from '../payments/payment-service.js';
import type { PaymentStore } from '../payments/payment-store.js';
import { isPastExpiry } from '../payments/payment-state-machine.js';

/**
 * What the customer's page shows, from the payment's status: `choose` (operator and phone),
 * `waiting` (approve on the phone), `code` (enter the one-time code), or a final state.
 */
export type CheckoutState = 'choose' | 'waiting' | 'code' | 'paid' | 'failed' | 'cancelled' | 'expired';

export interface CheckoutView {
  payment: Payment;
  merchant: Merchant;
  state: CheckoutState;
  /** The country's operators that collect this amount, in catalog order. */
  operators: CatalogOperator[];
}

export interface CheckoutServiceDeps {
  store: PaymentStore;
  payments: PaymentService;
  /** The merchant whose name the page shows (not_found when it is gone). */
  merchants: { getMerchant(id: string): Promise<Merchant> };
  catalog: OperatorCatalog;
  clock: Clock;
}

/**
 * The customer's side of a hosted payment, reached by its checkout token alone (no API key).
 * Paying and confirming go through the same PaymentService operations as the API, so the sandbox
 * rules, the state machine, events and webhooks are exactly those of any payment. Once a payment
 * is final or past its expiry, the page takes nothing more.
 */
export class CheckoutService {
  constructor(private readonly deps: CheckoutServiceDeps) {}

  /** The page's view, or undefined for an unknown or malformed token. */
  async open(token: string): Promise<CheckoutView | undefined> {
    if (!looksLikeCheckoutToken(token)) return undefined;
    const payment = await this.deps.store.findForCheckout(token);
    if (!payment) return undefined;
    return this.view(payment);
  }

  /** The customer chose an operator and gave a phone number. */
  async pay(token: string, input: { phone: string; operator: string }): Promise<CheckoutView> {
    const view = await this.require(token);
    if (view.state !== 'choose') throw new AkweError('payment_not_payable', `The payment is ${view.state === 'expired' ? 'expired' : view.payment.status}.`);
    return this.view(await this.deps.payments.payCheckout(view.payment, input), view.merchant);
  }

  /** The customer typed the one-time code; `rejected` when the operator refused it. */
  async confirm(token: string, otp: string): Promise<{ view: CheckoutView; rejected: boolean }> {
    const view = await this.require(token);
    if (view.state !== 'code') throw new AkweError('payment_not_confirmable', `The payment is ${view.state === 'expired' ? 'expired' : view.payment.status}.`);
    const { payment } = view;
    const ctx = { merchantId: payment.merchantId, environment: payment.environment, merchant: view.merchant };
    const result = await this.deps.payments.confirm(ctx, payment.id, otp);
    return { view: await this.view(result.payment, view.merchant), rejected: result.rejected };
  }

  stateOf(payment: Payment): CheckoutState {
    switch (payment.status) {
      case 'completed':
      case 'refunded':
        return 'paid';
      case 'failed':
      case 'cancelled':
      case 'expired':
        return payment.status;
      default:
        if (isPastExpiry(payment, this.deps.clock.now().toISOString())) return 'expired';
        if (payment.status === 'awaiting_payment') return 'choose';
        if (payment.status === 'awaiting_otp') return 'code';
        return 'waiting';
    }
  }

  private async require(token: string): Promise<CheckoutView> {
    const view = await this.open(token);
    if (!view) throw new AkweError('not_found', 'No such checkout.');
    return view;
  }

  private async view(payment: Payment, known?: Merchant): Promise<CheckoutView> {
    const merchant = known ?? (await this.deps.merchants.getMerchant(payment.merchantId));
    const country = this.deps.catalog.country(payment.country);
    const operators = (country?.operators ?? []).filter(
      (o) => o.collect.supported && payment.amountMinor >= o.collect.minAmountMinor && payment.amountMinor <= o.collect.maxAmountMinor,
    );
    return { payment, merchant, state: this.stateOf(payment), operators };
  }
}
