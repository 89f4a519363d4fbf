import type { CatalogCountry, CatalogOperator, OperatorCatalog } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import type { EventFactory } from '../events/event-factory.js';
import type { StoredEvent } from '../events/stored-event.js';
import type { Merchant } from '../merchants/merchant.js';
import { normalizePhone } from '../phones/phone-number.js';
import type { Clock, IdSource } from '../ports.js';
import type { TenantScope } from '../shared/environment.js';
import type { OperatorAnswer, OperatorGatewayRegistry } from './operator-gateway.js';
import type { Payment, Refund } from './payment.js';
import { expiryBounds, maxOtpAttempts, type CreatePaymentInput } from './payment-input.js';
import { assertTransition, isFinal } from './payment-state-machine.js';
import type { PaymentChange, PaymentStore } from './payment-store.js';

export interface PaymentContext extends TenantScope {
  merchant: Merchant;
}

export interface PaymentServiceDeps {
  store: PaymentStore;
  catalog: OperatorCatalog;
  operators: OperatorGatewayRegistry;
  events: EventFactory;
  clock: Clock;
  newId: IdSource;
}

/** Times a write is retried when another request changed the payment first. */
const writeAttempts = 3;

export class PaymentService {
  constructor(private readonly deps: PaymentServiceDeps) {}

  async create(ctx: PaymentContext, input: CreatePaymentInput): Promise<Payment> {
    if (ctx.environment === 'live' && ctx.merchant.status !== 'active') throw new AkweError('account_inactive');
    const country = this.countryOf(input.country);
    const currency = input.currency ?? country.defaultCurrency;
    if (!(country.currencies as readonly string[]).includes(currency)) {
      throw new AkweError('unsupported_currency', `${country.name} takes ${country.currencies.join(', ')}, not ${currency}.`, { field: 'currency' });
    }
    const direct = input.mode === 'direct';
    if (direct && input.operator === undefined) throw new AkweError('validation_error', 'operator is required for a direct payment', { field: 'operator' });
    if (direct && input.phone === undefined) throw new AkweError('validation_error', 'customer.phone is required for a direct payment', { field: 'customer.phone' });
    const operator = input.operator === undefined ? undefined : this.operatorOf(country, input.operator);
    const phone = input.phone === undefined ? null : this.phoneOf(country, input.phone, 'customer.phone');
    this.checkAmount(input.amountMinor, country, operator);
    const lifetime = input.expiresInSeconds ?? (direct ? expiryBounds.defaultDirect : expiryBounds.defaultHosted);
    if (lifetime < expiryBounds.min || lifetime > expiryBounds.max) {
      throw new AkweError('validation_error', `expires_in_seconds must be from ${expiryBounds.min} to ${expiryBounds.max}`, { field: 'expires_in_seconds' });
    }
    // Checked before the operator is contacted, so a duplicate never sends a second push to the phone.
    if (await this.deps.store.find(ctx, input.reference)) {
      throw new AkweError('duplicate_reference', `A payment with reference ${input.reference} exists already.`, { field: 'reference' });
    }

    const now = this.deps.clock.now();
    const draft: Payment = {
      id: this.deps.newId(),
      merchantId: ctx.merchantId,
      environment: ctx.environment,
      reference: input.reference,
      status: direct ? 'pending' : 'awaiting_payment',
      amountMinor: input.amountMinor,
      currency: currency as Payment['currency'],
      country: country.code,
      mode: input.mode,
      operator: operator?.slug ?? null,
      phone,
      description: input.description ?? null,
      callbackUrl: input.callbackUrl ?? null,
      customerFirstName: input.customerFirstName ?? null,
      customerLastName: input.customerLastName ?? null,
      pspReference: null,
      message: null,
      otpAttempts: 0,
      refundedMinor: 0,
      expiresAt: new Date(now.getTime() + lifetime * 1000).toISOString(),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      version: 1,
    };
    const answer: OperatorAnswer = direct ? await this.gateway(ctx).startCollection(draft, operator!) : { path: ['awaiting_payment'] };
    // Creation emits `created` with the status the payment starts in; every later status its own event.
    const [first, ...rest] = answer.path;
    const created: Payment = { ...draft, status: first!, pspReference: answer.pspReference ?? null, message: answer.message ?? null };
    const events: StoredEvent[] = [this.deps.events.paymentCreated(created)];
    const final = this.walk(created, rest, events);
    await this.deps.store.insert(final, events);
    return final;
  }

  /** By reference or id; with `sync`, a non-final payment is refreshed from its operator first. */
  async get(ctx: PaymentContext, referenceOrId: string, options: { sync?: boolean } = {}): Promise<Payment> {
    if (!options.sync) return this.find(ctx, referenceOrId);
    // change() reads the payment itself; a final one comes back as read, without asking the operator.
    return this.change(ctx, referenceOrId, async (current) => {
      if (isFinal(current.status)) return undefined;
      const change = this.afterAnswer(current, await this.gateway(ctx).queryStatus(current));
      // The operator saw no change: nothing to write.
      return change.events.length === 0 ? undefined : change;
    });
  }

  /** Submits the customer's one-time code. `rejected` is true when the code was wrong (the payment may have failed). */
  async confirm(ctx: PaymentContext, referenceOrId: string, otp: string): Promise<{ payment: Payment; rejected: boolean }> {
    let rejected = false;
    const payment = await this.change(ctx, referenceOrId, async (current) => {
      if (current.status !== 'awaiting_otp') throw new AkweError('payment_not_confirmable', `The payment is ${current.status}, not awaiting_otp.`);
      const answer = await this.gateway(ctx).confirmOtp(current, otp);
      if ('rejected' in answer) {
        rejected = true;
        const attempts = current.otpAttempts + 1;
        const counted = { ...current, otpAttempts: attempts };
        if (attempts < maxOtpAttempts) return { next: counted, events: [] };
        return this.afterAnswer(counted, { path: ['failed'], message: `${maxOtpAttempts} wrong one-time codes; the payment failed.` });
      }
      return this.afterAnswer(current, answer);
    });
    return { payment, rejected };
  }

  async cancel(ctx: PaymentContext, referenceOrId: string): Promise<Payment> {
    return this.change(ctx, referenceOrId, async (current) => {
      if (isFinal(current.status)) throw new AkweError('payment_not_cancellable', `The payment is ${current.status} and cannot be cancelled.`);
      return this.afterAnswer(current, { path: ['cancelled'], message: 'Cancelled by the merchant.' });
    });
  }

  /** Test environment only: the customer pays a hosted checkout with this phone and operator. */
  async pay(ctx: PaymentContext, referenceOrId: string, input: { phone: string; operator: string }): Promise<Payment> {
    if (ctx.environment !== 'test') throw new AkweError('sandbox_only', 'pay simulates a customer and exists only in the test environment.');
    return this.change(ctx, referenceOrId, async (current) => {
      if (current.mode !== 'hosted' || current.status !== 'awaiting_payment') {
        throw new AkweError('payment_not_payable', `The payment is a ${current.mode} payment in status ${current.status}.`);
      }
      const country = this.countryOf(current.country);
      const operator = this.operatorOf(country, input.operator);
      this.checkAmount(current.amountMinor, country, operator);
      const withPayer: Payment = { ...current, operator: operator.slug, phone: this.phoneOf(country, input.phone, 'phone') };
      const answer = await this.gateway(ctx).payCheckout(withPayer, operator);
      return this.afterAnswer(withPayer, answer);
    });
  }

  /**
   * Refunds part or all of what is left of a completed payment. The amount is reserved under the
   * payment's lock before the operator is asked, so parallel refunds cannot overdraw; the outcome is
   * recorded under the lock again, and the payment becomes `refunded` only when the refunds reach
   * its amount and none is still pending.
   */
  async refund(ctx: PaymentContext, referenceOrId: string, input: { amountMinor?: number; reason?: string }): Promise<{ refund: Refund; payment: Payment }> {
    const { id } = await this.find(ctx, referenceOrId);
    const now = () => this.deps.clock.now().toISOString();
    const reserved = await this.deps.store.withLockedPayment(id, (current) => {
      if (current.status !== 'completed') throw new AkweError('payment_not_refundable', `The payment is ${current.status}; only a completed payment can be refunded.`);
      const left = current.amountMinor - current.refundedMinor;
      // Still `completed` while refunds that cover the whole amount are pending: nothing is left.
      if (left <= 0) throw new AkweError('refund_exceeds_amount', 'Nothing is left to refund: earlier refunds cover the whole amount.', { field: 'amount' });
      const amount = input.amountMinor ?? left;
      if (amount > left) throw new AkweError('refund_exceeds_amount', `Only ${left / 100} ${current.currency} is left to refund.`, { field: 'amount' });
      const refund: Refund = {
        id: this.deps.newId(),
        paymentId: current.id,
        paymentReference: current.reference,
        merchantId: current.merchantId,
        environment: current.environment,
        amountMinor: amount,
        currency: current.currency,
        status: 'pending',
        reason: input.reason ?? null,
        pspReference: null,
        createdAt: now(),
        updatedAt: now(),
      };
      const next = { ...current, refundedMinor: current.refundedMinor + amount, version: current.version + 1, updatedAt: now() };
      return { change: { next, insertRefund: refund, events: [this.deps.events.refund('created', refund, next)] }, result: { refund, payment: next } };
    });

    const answer = await this.gateway(ctx).refund(reserved.payment, reserved.refund.amountMinor, reserved.refund.reason);
    const finished: Refund = { ...reserved.refund, status: answer.status, pspReference: answer.pspReference ?? null, updatedAt: now() };
    const payment = await this.deps.store.withLockedPayment(id, (current, pendingRefunds) => {
      if (answer.status === 'failed') {
        const next = { ...current, refundedMinor: current.refundedMinor - finished.amountMinor, version: current.version + 1, updatedAt: now() };
        return { change: { next, updateRefund: finished, events: [this.deps.events.refund('failed', finished, next)] }, result: next };
      }
      const events = [this.deps.events.refund('completed', finished, current)];
      // `pendingRefunds` still counts this refund: its row is updated by this very change.
      const fullyRefunded = current.refundedMinor === current.amountMinor && pendingRefunds === 1;
      if (!fullyRefunded) return { change: { updateRefund: finished, events }, result: current };
      const refunded = this.afterAnswer(current, { path: ['refunded'], message: 'Fully refunded.' });
      const next = { ...refunded.next, version: current.version + 1, updatedAt: now() };
      return { change: { next, updateRefund: finished, events: [...events, ...refunded.events] }, result: next };
    });
    return { refund: finished, payment };
  }

  listRefunds(ctx: PaymentContext, payment: Payment): Promise<Refund[]> {
    return this.deps.store.listRefunds(ctx, payment.id);
  }

  /** Moves due non-final payments to `expired`, each with its event, exactly once across workers. */
  expireDue(limit = 100): Promise<number> {
    const now = this.deps.clock.now().toISOString();
    return this.deps.store.expireDue(now, limit, (payment) => {
      const change = this.afterAnswer(payment, { path: ['expired'], message: 'The payment expired before the customer paid.' });
      return { payment: { next: change.next, expectedVersion: payment.version }, events: change.events };
    });
  }

  private async find(ctx: PaymentContext, referenceOrId: string): Promise<Payment> {
    const payment = await this.deps.store.find(ctx, referenceOrId);
    if (!payment) throw new AkweError('not_found', `No payment ${referenceOrId}.`);
    return payment;
  }

  /**
   * Reads the payment, lets `decide` compute its next state (or nothing), and commits it with a
   * version check; if another request changed the payment meanwhile, reads and decides again.
   */
  private async change(
    ctx: PaymentContext,
    referenceOrId: string,
    decide: (current: Payment) => Promise<{ next: Payment; events: StoredEvent[] } | undefined>,
  ): Promise<Payment> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.find(ctx, referenceOrId);
      const decision = await decide(current);
      if (!decision) return current;
      const next: Payment = { ...decision.next, version: current.version + 1, updatedAt: this.deps.clock.now().toISOString() };
      const change: PaymentChange = { payment: { next, expectedVersion: current.version }, events: decision.events };
      if (await this.deps.store.save(change)) return next;
      if (attempt >= writeAttempts) throw new AkweError('invalid_state_transition', 'The payment changed while this request ran; fetch it and retry.');
    }
  }

  /** Applies an operator answer: each status in its path must be a legal step, and each emits its event. */
  private afterAnswer(current: Payment, answer: OperatorAnswer): { next: Payment; events: StoredEvent[] } {
    const events: StoredEvent[] = [];
    const path = answer.path.at(-1) === current.status && answer.path.length === 1 ? [] : answer.path;
    const withAnswer: Payment = {
      ...current,
      pspReference: answer.pspReference ?? current.pspReference,
      message: answer.message ?? current.message,
    };
    return { next: this.walk(withAnswer, path, events), events };
  }

  private walk(start: Payment, path: Payment['status'][], events: StoredEvent[]): Payment {
    let payment = start;
    for (const status of path) {
      assertTransition(payment.status, status);
      payment = { ...payment, status };
      events.push(this.deps.events.paymentEntered(status, payment));
    }
    return payment;
  }

  private gateway(ctx: PaymentContext) {
    return this.deps.operators.gatewayFor(ctx.environment);
  }

  private countryOf(code: string): CatalogCountry {
    const country = this.deps.catalog.country(code);
    if (!country) throw new AkweError('invalid_operator', `Country ${code} is not supported; see the operator catalog.`, { field: 'country' });
    return country;
  }

  private operatorOf(country: CatalogCountry, slug: string): CatalogOperator {
    const operator = this.deps.catalog.findOperator(country.code, slug);
    if (!operator || !operator.collect.supported) {
      throw new AkweError('invalid_operator', `Operator ${slug} does not collect in ${country.name}; see the operator catalog.`, { field: 'operator' });
    }
    return operator;
  }

  private phoneOf(country: CatalogCountry, raw: string, field: string): string {
    const check = normalizePhone(country.code, raw);
    if (!check.ok) throw new AkweError('invalid_phone', check.message, { field });
    return check.e164;
  }

  private checkAmount(amountMinor: number, country: CatalogCountry, operator: CatalogOperator | undefined): void {
    const limits = operator ? [operator.collect] : country.operators.filter((o) => o.collect.supported).map((o) => o.collect);
    const min = Math.min(...limits.map((l) => l.minAmountMinor));
    const max = Math.max(...limits.map((l) => l.maxAmountMinor));
    if (amountMinor < min) throw new AkweError('amount_too_low', `The minimum is ${min / 100} ${country.defaultCurrency}.`, { field: 'amount' });
    if (amountMinor > max) throw new AkweError('amount_too_high', `The maximum is ${max / 100} ${country.defaultCurrency}.`, { field: 'amount' });
  }
}
