import { unsupportedCurrency } from '../catalog/currency-check.js';
import type { CatalogOperator, OperatorCatalog } from '../catalog/operator-catalog.js';
import { CollectCatalog } from './collect-catalog.js';
import { AkweError } from '../errors/index.js';
import type { EventFactory } from '../events/event-factory.js';
import type { Merchant } from '../merchants/merchant.js';
import type { Clock, IdSource } from '../ports.js';
import type { TenantScope } from '../shared/environment.js';
import { finishWrite, reportCommitted, stepWrite, type RecordedRequest } from '../idempotency/request-journal.js';
import { OperatorNoAnswer, type OperatorAnswer, type OperatorConnector, type OperatorConnectors, type OtpAnswer, type PushCollection } from '../operators/operator-connector.js';
import { inBackground } from '../operators/call-origin.js';
import { OperatorRouting } from '../operators/operator-routing.js';
import type { RecordedCalls } from '../operators/recorded-call.js';
import type { OperatorCall, Payment, Refund } from './payment.js';
import { checkMetadata } from '../shared/metadata.js';
import { expiryBounds, maxOtpAttempts, type CreatePaymentInput } from './payment-input.js';
import { isFinal, isPastExpiry } from './payment-state-machine.js';
import type { PaymentChange, PaymentFilters, PaymentLinkUse, PaymentStore } from './payment-store.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import { newCheckoutToken } from './checkout-token.js';
import { eachConcurrently } from '../shared/concurrently.js';
import { DiscrepancyKeeper, type DiscrepancyStore, type OperatorDiscrepancy } from '../operators/operator-discrepancy.js';
import { answerOnly, findPayment } from './payment-records.js';
import type { Decision, PaymentTransitions } from './payment-transitions.js';
import type { RefundService } from './refund-service.js';

/** Operator calls a reconciliation pass makes at once. */
const OPERATOR_CALLS_IN_FLIGHT = 16;

export interface PaymentContext extends TenantScope {
  merchant: Merchant;
}

export interface PaymentServiceDeps {
  store: PaymentStore;
  catalog: OperatorCatalog;
  operators: OperatorConnectors;
  events: EventFactory;
  clock: Clock;
  newId: IdSource;
  /** The phases, leases and recovery every operator call shares. */
  calls: RecordedCalls;
  /** How answers move a payment (shared with the refunds, which end in `refunded`). */
  transitions: PaymentTransitions;
  /** A payment's refunds: the recovery pass resumes them after the payments. */
  refunds: RefundService;
  /** The secret of a hosted payment's checkout URL (default: 32 random bytes, base64url). */
  newCheckoutToken?: () => string;
  /** Where operator answers the state machine refuses are kept (none: only reported). */
  discrepancies?: DiscrepancyStore;
  /** Told of each new discrepancy (the server logs it at error level). */
  onDiscrepancy?: (discrepancy: OperatorDiscrepancy) => void;
  /**
   * How long a live payment its operator still holds as pending at expiry is asked about before it
   * expires (ms; PAYMENT_EXPIRY_GRACE_SECONDS, 5 minutes by default).
   */
  expiryGraceMs?: number;
}

/** What a read with `sync` may be told besides the payment: the operator could not be asked. */
export interface SyncOptions {
  sync?: boolean;
  /** Called when `sync` asked for the operator and it could not be asked: the stored state is answered. */
  onOperatorNotAsked?: (reason: AkweError) => void;
}

export const DEFAULT_EXPIRY_GRACE_MS = 5 * 60_000;

/** Final statuses we decided without the operator: a customer may still have paid meanwhile. */
const decidedByUs: ReadonlySet<Payment['status']> = new Set(['expired', 'cancelled']);

export interface ConfirmResult {
  payment: Payment;
  /** The code was wrong (the payment may have failed on the last attempt). */
  rejected: boolean;
}

/** The errors that mean the operator could not be asked (a read then answers what is stored). */
const operatorNotAsked: ReadonlySet<string> = new Set(['operator_outcome_unknown', 'operator_unavailable', 'operator_call_in_progress']);

type Asked = { answer: OperatorAnswer | undefined; decision: Decision | undefined };

/** Times a write is retried when another request changed the payment first. */
const writeAttempts = 3;

/**
 * Collect payments. Every operation that reaches an operator runs in recorded phases
 * (docs/architecture.md "Recorded phases"): the intent and its recovery point commit before the
 * call, the answer, its events and the request's response commit after it, and a run that finds a
 * call left open past its lease resumes it by asking the operator about our reference first.
 * Refunds are RefundService's (the routes call it directly); its recovery pass resumes them too.
 */
export class PaymentService {
  private readonly calls: RecordedCalls;
  private readonly transitions: PaymentTransitions;
  private readonly refunds: RefundService;
  private readonly routing: OperatorRouting;
  private readonly collect: CollectCatalog;
  private readonly discrepancies: DiscrepancyKeeper;

  constructor(private readonly deps: PaymentServiceDeps) {
    ({ calls: this.calls, transitions: this.transitions, refunds: this.refunds } = deps);
    this.routing = new OperatorRouting(deps.operators, deps.catalog);
    this.collect = new CollectCatalog(deps.catalog);
    this.discrepancies = new DiscrepancyKeeper({ store: deps.discrepancies, onNew: deps.onDiscrepancy, newId: deps.newId, clock: deps.clock });
  }

  async create(ctx: PaymentContext, input: CreatePaymentInput, request: RecordedRequest<Payment> = {}): Promise<Payment> {
    const resumedId = request.journal?.resumed?.resourceId;
    if (resumedId) {
      const payment = await this.find(ctx, resumedId);
      // Only the call this request made is its to resume: a later one (a confirm_otp, whose code this
      // retry does not carry) belongs to its own request, and the payment is answered as it stands.
      return payment.operatorCall === 'start_collection' ? this.resume(payment, (p) => p, request) : this.answerOnly(request, payment.id, payment);
    }
    if (ctx.environment === 'live' && ctx.merchant.status !== 'active') throw new AkweError('account_inactive');
    const country = this.collect.country(input.country);
    const currency = input.currency ?? country.defaultCurrency;
    if (!(country.currencies as readonly string[]).includes(currency)) {
      throw unsupportedCurrency(country.code, country.currencies, currency);
    }
    const direct = input.mode === 'direct';
    if (direct && input.operator === undefined) throw new AkweError('validation_error', 'operator is required for a direct payment', { field: 'operator' });
    if (direct && input.phone === undefined) throw new AkweError('validation_error', 'customer.phone is required for a direct payment', { field: 'customer.phone' });
    if (direct && input.returnUrl !== undefined)
      throw new AkweError('validation_error', 'return_url applies to hosted payments only (the checkout page links back to it)', { field: 'return_url' });
    const operator = input.operator === undefined ? undefined : this.collect.operator(country, input.operator);
    const phone = input.phone === undefined ? null : this.collect.phone(country, input.phone, 'customer.phone');
    this.collect.checkAmount(input.amountMinor, country, operator);
    const lifetime = input.expiresInSeconds ?? (direct ? expiryBounds.defaultDirect : expiryBounds.defaultHosted);
    if (lifetime < expiryBounds.min || lifetime > expiryBounds.max) {
      throw new AkweError('validation_error', `expires_in_seconds must be from ${expiryBounds.min} to ${expiryBounds.max}`, { field: 'expires_in_seconds' });
    }
    // No connector for the operator (or one that does not push): refused before anything is written.
    // A new payment takes the first route up that pushes; it stays with that route for good.
    const push = direct ? this.routing.pick(ctx.environment, operator!, 'push') : undefined;
    // A push to a networked connector is a recorded call; one decided in-process is none.
    const recordedCall = direct && !push!.inProcess;

    const now = this.deps.clock.now();
    const payment: Payment = {
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
      failureCode: null,
      metadata: checkMetadata(input.metadata),
      otpAttempts: 0,
      refundedMinor: 0,
      expiresAt: new Date(now.getTime() + lifetime * 1000).toISOString(),
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
      version: 1,
      operatorCall: recordedCall ? 'start_collection' : null,
      operatorCallStartedAt: recordedCall ? now.toISOString() : null,
      checkoutToken: direct ? null : (this.deps.newCheckoutToken ?? newCheckoutToken)(),
      returnUrl: input.returnUrl ?? null,
      paymentLinkId: input.paymentLinkId ?? null,
      route: push?.route ?? null,
    };
    const linkUse = input.paymentLinkId !== undefined && input.paymentLinkLimit !== undefined ? { linkId: input.paymentLinkId, limit: input.paymentLinkLimit } : undefined;
    if (push?.inProcess) return this.createDecidedInProcess(payment, push.flow, operator!, request, linkUse);
    // Creation emits `created` with the status the payment starts in; every later status its own event.
    const events = [this.deps.events.paymentCreated(payment)];
    // A hosted payment calls no operator: the claim, the payment and the response are one commit.
    // A direct one records its intent first; a duplicate reference fails here, before any push.
    const claim = direct ? stepWrite(request, payment.id) : finishWrite(request, payment.id, payment);
    await this.deps.store.insert(payment, events, claim, { linkUse });
    reportCommitted(request, claim);
    if (!direct) return payment;
    const answer = await this.calls.afterIntent(payment.id, () => this.callFor(payment, () => push!.flow.startCollection(payment, operator!)));
    return this.settle(
      payment,
      (current) => this.transitions.afterOperatorAnswer(current, answer),
      (p) => p,
      request,
    );
  }

  /**
   * A direct payment on a connector that decides in this process (the sandbox): nothing leaves the
   * process, so there is no call to record before making it. The answer is asked first, and the
   * payment, its `created` event, the events of its answer, its ledger posting and the request's
   * response commit in one phase; a duplicate reference still writes nothing. A connector that
   * throws leaves nothing written (502 operator_outcome_unknown, which a retry may repeat).
   */
  private async createDecidedInProcess(
    created: Payment,
    push: PushCollection,
    operator: CatalogOperator,
    request: RecordedRequest<Payment>,
    linkUse: PaymentLinkUse | undefined,
  ): Promise<Payment> {
    // Made first: event ids sort by time, and `created` comes before the events of the answer.
    const createdEvent = this.deps.events.paymentCreated(created);
    const answer = await this.calls.call(() => push.startCollection(created, operator));
    const decision = this.transitions.afterOperatorAnswer(created, answer);
    if (decision.discrepancy) await this.discrepancies.keep(decision.discrepancy);
    const payment = decision.next;
    const claim = finishWrite(request, payment.id, payment);
    await this.deps.store.insert(payment, [createdEvent, ...decision.events], claim, { linkUse, ledger: decision.ledger });
    reportCommitted(request, claim);
    await this.calls.reached('after_outcome', payment.id);
    return payment;
  }

  /**
   * By reference or id; with `sync`, a non-final payment is refreshed from its operator first, and
   * a live one we expired or cancelled is checked against it (a late success is a discrepancy). A
   * read never fails because the operator could not be asked: it answers the stored payment and
   * tells `onOperatorNotAsked`.
   */
  async get(ctx: TenantScope, referenceOrId: string, options: SyncOptions = {}): Promise<Payment> {
    const payment = await this.find(ctx, referenceOrId);
    if (!options.sync) return payment;
    try {
      return await this.synced(ctx, referenceOrId, payment);
    } catch (error) {
      if (!(error instanceof AkweError) || !operatorNotAsked.has(error.code)) throw error;
      options.onOperatorNotAsked?.(error);
      return this.find(ctx, payment.id);
    }
  }

  private async synced(ctx: TenantScope, referenceOrId: string, payment: Payment): Promise<Payment> {
    if (isFinal(payment.status)) {
      if (this.watchedAfterUs(payment)) await this.askOperator(payment);
      return payment;
    }
    if (payment.operatorCall) {
      // A call in flight is recorded by the run that made it; one left behind is resumed now.
      return this.calls.leaseEnded(payment.operatorCallStartedAt) ? this.resume(payment, (p) => p, {}) : payment;
    }
    return this.change(ctx, referenceOrId, async (current) => {
      if (isFinal(current.status) || current.operatorCall) return undefined;
      const change = await this.askOperator(current);
      // The operator saw no change (or never heard of it): nothing to write.
      return change && change.events.length > 0 ? change : undefined;
    });
  }

  /** A live payment we ended ourselves (expired, cancelled) after it reached an operator. */
  private watchedAfterUs(payment: Payment): boolean {
    return payment.environment === 'live' && payment.operator !== null && decidedByUs.has(payment.status);
  }

  /**
   * An operator's callback said something happened to payment `id`. It is only a hint: the payment
   * is refreshed from the operator's own status query (as `sync=true` does), never from the
   * callback's body. Returns the payment, or undefined when no payment has this id.
   */
  async refreshOnOperatorHint(id: string): Promise<Payment | undefined> {
    const payment = await this.deps.store.findAnyById(id);
    if (!payment) return undefined;
    if (!isFinal(payment.status)) return this.get(payment, payment.id, { sync: true });
    // Final here, yet the operator calls about it: if it says otherwise (the customer paid a
    // payment we expired), that is kept for a person; the payment keeps its status.
    await this.askOperator(payment);
    return payment;
  }

  /** A payment by our id alone, as it is stored (a customer coming back from an operator's page). */
  findForReturn(id: string): Promise<Payment | undefined> {
    return this.deps.store.findAnyById(id);
  }

  /** Submits the customer's one-time code. `rejected` is true when the code was wrong (the payment may have failed). */
  async confirm(ctx: PaymentContext, referenceOrId: string, otp: string, request: RecordedRequest<ConfirmResult> = {}): Promise<ConfirmResult> {
    const resumedId = request.journal?.resumed?.resourceId;
    if (resumedId) {
      const payment = await this.find(ctx, resumedId);
      if (payment.operatorCall) return this.resume(payment, (p) => ({ payment: p, rejected: false }), request, { otp });
      // The code reached the operator and was recorded: answer that. Else it never arrived: submit it now.
      if (payment.status !== 'awaiting_otp') return this.answerOnly(request, payment.id, { payment, rejected: false });
    }
    const current = await this.find(ctx, referenceOrId);
    if (current.status !== 'awaiting_otp') throw new AkweError('payment_not_confirmable', `The payment is ${current.status}, not awaiting_otp.`);
    this.refuseWhileCalling(current);
    if (this.pastExpiry(current)) throw new AkweError('payment_not_confirmable', 'The payment is expired.');
    const confirmation = this.routing.flowFor(current, 'otp');
    const started = await this.startCall(current, 'confirm_otp', {}, request);
    const answer = await this.calls.afterIntent(started.id, () => this.callFor(started, () => confirmation.confirmOtp(started, otp)));
    const outcome = this.otpOutcome(answer);
    return this.settle(started, outcome.decide, (payment) => ({ payment, rejected: outcome.rejected }), request);
  }

  async cancel(ctx: PaymentContext, referenceOrId: string, request: RecordedRequest<Payment> = {}): Promise<Payment> {
    return this.change(
      ctx,
      referenceOrId,
      async (current) => {
        if (isFinal(current.status)) throw new AkweError('payment_not_cancellable', `The payment is ${current.status} and cannot be cancelled.`);
        this.refuseWhileCalling(current);
        return this.transitions.afterAnswer(current, { path: ['cancelled'], message: 'Cancelled by the merchant.', failureCode: 'cancelled_by_merchant' });
      },
      request,
    );
  }

  /** Test environment only: the customer pays a hosted checkout with this phone and operator. */
  async pay(ctx: PaymentContext, referenceOrId: string, input: { phone: string; operator: string }, request: RecordedRequest<Payment> = {}): Promise<Payment> {
    if (ctx.environment !== 'test') throw new AkweError('sandbox_only', 'pay simulates a customer and exists only in the test environment.');
    return this.payHosted(ctx, referenceOrId, input, request);
  }

  /**
   * The customer pays a hosted checkout from its page, in either environment: in test the sandbox
   * decides exactly as for `pay`; in live the operator adapter starts a collection on the chosen
   * operator (none configured: operator_unavailable, and nothing is written).
   */
  async payCheckout(payment: Payment, input: { phone: string; operator: string }): Promise<Payment> {
    return this.payHosted(payment, payment.id, input, {});
  }

  private async payHosted(ctx: TenantScope, referenceOrId: string, input: { phone: string; operator: string }, request: RecordedRequest<Payment>): Promise<Payment> {
    const resumedId = request.journal?.resumed?.resourceId;
    if (resumedId) {
      const payment = await this.find(ctx, resumedId);
      return payment.operatorCall === 'pay_checkout' ? this.resume(payment, (p) => p, request) : this.answerOnly(request, payment.id, payment);
    }
    const current = await this.find(ctx, referenceOrId);
    if (current.mode !== 'hosted' || current.status !== 'awaiting_payment') {
      throw new AkweError('payment_not_payable', `The payment is a ${current.mode} payment in status ${current.status}.`);
    }
    this.refuseWhileCalling(current);
    if (this.pastExpiry(current)) throw new AkweError('payment_not_payable', 'The payment is expired.');
    const country = this.collect.country(current.country);
    const operator = this.collect.operator(country, input.operator);
    this.collect.checkAmount(current.amountMinor, country, operator);
    const hosted = this.routing.pick(current.environment, operator, 'hosted');
    const payer = { operator: operator.slug, phone: this.collect.phone(country, input.phone, 'phone'), route: hosted.route };
    const started = await this.startCall(current, 'pay_checkout', payer, request);
    const answer = await this.calls.afterIntent(started.id, () => this.callFor(started, () => hosted.flow.payCheckout(started, operator)));
    return this.settle(
      started,
      (current) => this.transitions.afterOperatorAnswer(current, answer),
      (p) => p,
      request,
    );
  }

  /**
   * The scope's payments, newest first. An operator filter takes a slug or an alias; an alias
   * shared by several countries (`mtn`) matches each country's operator.
   */
  list(ctx: TenantScope, filters: Omit<PaymentFilters, 'operators'> & { operator?: string }, page: PageRequest): Promise<Page<Payment>> {
    const { operator, ...rest } = filters;
    return this.deps.store.list(ctx, operator === undefined ? rest : { ...rest, operators: this.collect.canonicalOperators(operator) }, page);
  }

  /**
   * Reconciliation: asks the operators about live payments they are working on whose check is
   * due (their callback may never come), and records what moved. A payment that did not move is
   * asked again later, the wait growing with its age; one whose operator did not answer, after
   * the lease. Returns how many it asked about.
   */
  async reconcileDue(limit = 50): Promise<number> {
    const now = this.deps.clock.now();
    const claimed = await this.deps.store.claimChecks(now.toISOString(), new Date(now.getTime() + this.calls.leaseMs).toISOString(), limit);
    // Background checks: an operator failing them does not count toward its breaker (merchants did not see it).
    await inBackground(() => eachConcurrently(claimed, OPERATOR_CALLS_IN_FLIGHT, (payment) => this.check(payment)));
    return claimed.length;
  }

  /**
   * One reconciliation check: the operator's answer moves the payment; a payment in its expiry
   * grace expires once the grace ends or the operator never heard of it; an expired one is watched
   * (a late success is a discrepancy) until the operator gives a final answer or the watch ends.
   */
  private async check(payment: Payment): Promise<void> {
    const now = this.deps.clock.now().toISOString();
    const inGrace = !isFinal(payment.status) && payment.expiryGraceUntil != null;
    let asked: Asked | undefined;
    try {
      asked = await this.askOperatorFor(payment);
    } catch (error) {
      // In its grace, an operator that cannot be asked is asked again, until the grace ends.
      if (!inGrace) throw error;
    }
    const decision = asked?.decision;
    let change: Decision;
    if (decision && decision.events.length > 0) {
      change = { ...decision, next: { ...decision.next, updatedAt: now } };
    } else if (inGrace && ((asked && !asked.answer) || payment.expiryGraceUntil! <= now)) {
      change = this.expiry(payment, now);
    } else if (inGrace) {
      const regular = this.transitions.nextCheckAt(payment) ?? payment.expiryGraceUntil!;
      change = { next: { ...payment, nextCheckAt: regular < payment.expiryGraceUntil! ? regular : payment.expiryGraceUntil! }, events: [] };
    } else {
      // A final answer about a final payment ends its watch; anything else asks again later.
      const settled = isFinal(payment.status) && asked?.answer !== undefined && isFinal(asked.answer.path.at(-1) ?? payment.status);
      change = { next: { ...payment, nextCheckAt: settled ? null : this.transitions.nextCheckAt(payment) }, events: [] };
    }
    // Lost to a concurrent change (a callback, a retry): that writer scheduled the next check.
    await this.deps.store.save({ payment: { next: change.next, expectedVersion: payment.version }, events: change.events, ledger: change.ledger });
  }

  /**
   * Moves due non-final payments to `expired`, each with its event, exactly once across workers.
   * A live payment an operator holds (pending, processing) is asked about first: it gets its grace
   * (`expiryGraceUntil`) and a check due now, and expires only when the grace ends or the operator
   * never heard of it (docs/operators.md "Expiry of live payments").
   */
  expireDue(limit = 100): Promise<number> {
    const now = this.deps.clock.now().toISOString();
    return this.deps.store.expireDue(now, limit, (payment) => {
      if (this.operatorHolds(payment) && payment.expiryGraceUntil == null) {
        const graceUntil = new Date(Date.parse(now) + (this.deps.expiryGraceMs ?? DEFAULT_EXPIRY_GRACE_MS)).toISOString();
        return { payment: { next: { ...payment, expiryGraceUntil: graceUntil, nextCheckAt: now }, expectedVersion: payment.version }, events: [] };
      }
      const change = this.expiry(payment, now);
      return { payment: { next: change.next, expectedVersion: payment.version }, events: change.events };
    });
  }

  /** The payment expired at `now`: its status, its event (with the new `updated_at`), and the watch that follows. */
  private expiry(payment: Payment, now: string): Decision {
    return this.transitions.afterAnswer({ ...payment, updatedAt: now }, { path: ['expired'], message: 'The payment expired before the customer paid.', failureCode: 'expired' });
  }

  /** A live payment an operator was asked to collect and has not finished. */
  private operatorHolds(payment: Payment): boolean {
    return payment.environment === 'live' && payment.operator !== null && (payment.status === 'pending' || payment.status === 'processing');
  }

  /**
   * Finishes operator calls (payments and refunds) whose run died and whose lease has ended: asks
   * the operator about our reference, makes the call only if it never arrived, records the outcome.
   * Returns how many it settled; the first failure is thrown after the others were tried.
   */
  async recoverAbandoned(limit = 50): Promise<number> {
    const before = this.calls.abandonedBefore();
    const { store } = this.deps;
    // A send that may still reach its operator is not a failure: it is asked about again after the lease.
    const resume = (payment: Payment) => this.resume(payment, (p) => p, {}).catch(ignoreCallInProgress);
    const resumeRefund = (refund: Refund) => this.refunds.resume(refund, {}).catch(ignoreCallInProgress);
    // Payments first, then refunds: each list is read when its turn comes.
    return this.calls.recoverEach(
      (async function* () {
        for (const payment of await store.openOperatorCalls(before, limit)) yield () => resume(payment);
        for (const refund of await store.openRefunds(before, limit)) yield () => resumeRefund(refund);
      })(),
    );
  }

  /**
   * Resumes an operator call left open: takes the call's lease (so one run at a time resumes it),
   * asks the operator where it stands on our reference, makes the call only if it never arrived,
   * and records the outcome. `retry` carries what a retried request brought (the one-time code).
   */
  private async resume<T>(payment: Payment, toResult: (p: Payment) => T, request: RecordedRequest<T>, retry: { otp?: string } = {}): Promise<T> {
    // A call whose lease runs is someone's (a slow run, the worker, another retry): taking it over
    // now could make the call twice. A retry whose claim lease ended before the call's waits.
    if (!this.calls.leaseEnded(payment.operatorCallStartedAt)) this.refuseWhileCalling(payment);
    const now = this.deps.clock.now().toISOString();
    // Taking the lease over moves its start: the send's own time is kept beside it.
    let leased: Payment = { ...payment, operatorCallStartedAt: now, operatorSentAt: sentAt(payment), version: payment.version + 1, updatedAt: now };
    if (!(await this.deps.store.save({ payment: { next: leased, expectedVersion: payment.version }, events: [] }))) {
      const current = await this.find(payment, payment.id);
      this.refuseWhileCalling(current);
      return this.answerOnly(request, current.id, toResult(current));
    }
    const known = await this.callFor(leased, () => this.statusFlowOfSent(leased).queryStatus(leased));
    // A code the operator did not take leaves it awaiting one, exactly as a code that never arrived.
    const arrived = known !== undefined && !(leased.operatorCall === 'confirm_otp' && known.path.at(-1) === 'awaiting_otp');
    let decide = (current: Payment): Decision => (arrived ? this.transitions.afterOperatorAnswer(current, known) : { next: current, events: [] });
    let result = toResult;
    const decidesOnAbsence = leased.expiresAt <= now || leased.operatorCall !== 'confirm_otp' || retry.otp !== undefined;
    if (!arrived && decidesOnAbsence && this.mayStillArrive(leased)) throw await this.askAgainSoon(leased);
    if (!arrived && leased.expiresAt <= now) {
      // Never reached the operator, and too late to start now.
      decide = (current) =>
        this.transitions.afterAnswer(current, { path: ['expired'], message: 'The payment expired before the operator could be reached.', failureCode: 'expired' });
    } else if (!arrived && leased.operatorCall === 'confirm_otp') {
      if (retry.otp !== undefined) {
        leased = await this.recordSendAgain(leased);
        const sending = leased;
        const outcome = this.otpOutcome(await this.callFor(sending, () => this.routing.flowFor(sending, 'otp').confirmOtp(sending, retry.otp!)));
        decide = outcome.decide;
        if (outcome.rejected) result = (p) => ({ ...toResult(p), rejected: true });
      }
      // Without the code (the recovery worker) the payment simply waits for a code again.
    } else if (!arrived) {
      leased = await this.recordSendAgain(leased);
      const sending = leased;
      const operator = this.collect.operator(this.collect.country(sending.country), sending.operator!);
      const call =
        sending.operatorCall === 'pay_checkout'
          ? () => this.routing.flowFor(sending, 'hosted').payCheckout(sending, operator)
          : () => this.routing.flowFor(sending, 'push').startCollection(sending, operator);
      const answer = await this.callFor(sending, call);
      decide = (current) => this.transitions.afterOperatorAnswer(current, answer);
    }
    await this.calls.reached('after_operator_call', leased.id);
    return this.settle(leased, decide, result, request);
  }

  /**
   * A send the operator does not know may still be on its way (held by a proxy, queued at the
   * operator) for a while after its own timeout: "not known" means "never sent" only once the last
   * send began more than two leases ago (docs/operators.md "Faults").
   */
  private mayStillArrive(payment: Payment): boolean {
    if (!this.routing.sendsMayArriveLate(payment)) return false;
    return this.deps.clock.now().getTime() < this.calls.resendAllowedAt(sentAt(payment)!);
  }

  /**
   * A send that may still arrive: the call stays open, its lease ending soon (a twelfth of a lease,
   * at least a second) so that a retry or the recovery worker asks the operator again then, and the
   * answer is 409 operator_call_in_progress with that wait.
   */
  private async askAgainSoon(leased: Payment): Promise<AkweError> {
    const nowMs = this.deps.clock.now().getTime();
    const askAgainMs = Math.max(1_000, this.calls.leaseMs / 12);
    const endsSoon: Payment = { ...leased, operatorCallStartedAt: new Date(nowMs - this.calls.leaseMs + askAgainMs).toISOString(), version: leased.version + 1 };
    // Best effort: if it fails (another run moved the payment), the lease ends by itself.
    await this.deps.store.save({ payment: { next: endsSoon, expectedVersion: leased.version }, events: [] }).catch(() => false);
    const untilMs = this.calls.resendAllowedAt(sentAt(leased)!);
    return new AkweError(
      'operator_call_in_progress',
      `The operator has not seen this payment's request yet, which may still reach it: it is asked again shortly, and the request is sent again only if it still has not arrived by ${new Date(untilMs).toISOString()}. Retry with the same Idempotency-Key, or read the payment.`,
      { retryAfterSeconds: Math.ceil(askAgainMs / 1000) },
    );
  }

  /** A resumed call about to be sent again: the send's time is recorded first, on the lease's version. */
  private async recordSendAgain(leased: Payment): Promise<Payment> {
    const sending: Payment = { ...leased, operatorSentAt: this.deps.clock.now().toISOString(), version: leased.version + 1 };
    if (!(await this.deps.store.save({ payment: { next: sending, expectedVersion: leased.version }, events: [] }))) {
      throw this.calls.callInProgress(leased.operatorCallStartedAt!);
    }
    return sending;
  }

  /**
   * The status flow for a call that may have reached the operator. Refused (breaker open, connector
   * gone), the refusal must not say "nothing was charged": the call was made and its answer lost.
   */
  private statusFlowOfSent(payment: Payment): NonNullable<OperatorConnector['status']> {
    try {
      return this.routing.flowFor(payment, 'status');
    } catch (error) {
      if (!(error instanceof AkweError) || error.code !== 'operator_unavailable') throw error;
      throw new AkweError(
        'operator_unavailable',
        'The operator cannot be asked about this payment now. It was sent to the operator before and may have been charged: retry later with the same Idempotency-Key (it is never charged twice), or read the payment.',
        { retryAfterSeconds: error.retryAfterSeconds },
      );
    }
  }

  /** Phase 1 of a call on an existing payment: the recovery point (and the payer, for pay) with the request's claim. */
  private async startCall<T>(current: Payment, call: OperatorCall, changes: Partial<Payment>, request: RecordedRequest<T>): Promise<Payment> {
    const now = this.deps.clock.now().toISOString();
    const next: Payment = { ...current, ...changes, operatorCall: call, operatorCallStartedAt: now, version: current.version + 1, updatedAt: now };
    const claim = stepWrite(request, next.id);
    if (!(await this.deps.store.save({ payment: { next, expectedVersion: current.version }, events: [], claim }))) {
      throw new AkweError('invalid_state_transition', 'The payment changed while this request ran; fetch it and retry.');
    }
    reportCommitted(request, claim);
    return next;
  }

  /**
   * The last phase of a call: the outcome, its events, the cleared recovery point and the request's
   * response, in one transaction. If another run settled the call meanwhile (this one outlived its
   * lease), its outcome stands and is what this request answers.
   */
  private async settle<T>(started: Payment, decide: (current: Payment) => Decision, toResult: (p: Payment) => T, request: RecordedRequest<T>): Promise<T> {
    let current = started;
    for (let attempt = 1; ; attempt++) {
      if (current.operatorCall === null || current.operatorCallStartedAt !== started.operatorCallStartedAt) {
        return this.answerOnly(request, current.id, toResult(current));
      }
      const decision = decide(current);
      // Kept before the settle commits: a crash between leaves it stored, and a second record is a no-op.
      if (decision.discrepancy) await this.discrepancies.keep(decision.discrepancy);
      const now = this.deps.clock.now().toISOString();
      const next: Payment = { ...decision.next, operatorCall: null, operatorCallStartedAt: null, operatorSentAt: null, version: current.version + 1, updatedAt: now };
      const result = toResult(next);
      const claim = finishWrite(request, next.id, result);
      if (await this.deps.store.save({ payment: { next, expectedVersion: current.version }, events: decision.events, ledger: decision.ledger, claim })) {
        reportCommitted(request, claim);
        await this.calls.reached('after_outcome', next.id);
        return result;
      }
      if (attempt >= writeAttempts) throw new AkweError('invalid_state_transition', 'The payment changed while this request ran; fetch it and retry.');
      current = await this.find(started, started.id);
    }
  }

  private otpOutcome(answer: OtpAnswer): { decide: (current: Payment) => Decision; rejected: boolean } {
    if (!('rejected' in answer)) return { decide: (current) => this.transitions.afterOperatorAnswer(current, answer), rejected: false };
    return {
      rejected: true,
      decide: (current) => {
        const attempts = current.otpAttempts + 1;
        const counted = { ...current, otpAttempts: attempts };
        if (attempts < maxOtpAttempts) return { next: counted, events: [] };
        return this.transitions.afterAnswer(counted, { path: ['failed'], message: `${maxOtpAttempts} wrong one-time codes; the payment failed.`, failureCode: 'otp_failed' });
      },
    };
  }

  /**
   * An operator call made under `started`'s lease. If it fails without an answer (502
   * operator_outcome_unknown), the lease is ended at once, so that the retry (or the worker)
   * resumes the call now instead of waiting for it: nobody is making that call any more.
   */
  private callFor<T>(started: Payment, work: () => Promise<T>): Promise<T> {
    return this.calls.call(work, (error) => this.endCallLease(started, error));
  }

  /**
   * Ends the lease of a call that failed without an outcome. A send that got no answer at all may
   * still reach the operator: its time is kept, and recovery waits before sending again. One that
   * got an answer (even a 500) is over: it is recorded as sent two leases ago, so a retry at once
   * may send again if the operator does not know it.
   */
  private async endCallLease(started: Payment, error: unknown): Promise<void> {
    const now = this.deps.clock.now();
    const ended = new Date(now.getTime() - this.calls.leaseMs).toISOString();
    const answered = new Date(now.getTime() - 2 * this.calls.leaseMs).toISOString();
    let base = started;
    // Something else may have saved the payment meanwhile (a status check, a callback): while the
    // same call is still open, the lease is ended on the newer version. Best effort: if the payment
    // moved on, or the save keeps failing, the lease ends by itself.
    for (let attempt = 0; attempt < 3; attempt++) {
      const operatorSentAt = noAnswer(error) ? sentAt(base) : answered;
      const next: Payment = { ...base, operatorCallStartedAt: ended, operatorSentAt, version: base.version + 1, updatedAt: now.toISOString() };
      if (await this.deps.store.save({ payment: { next, expectedVersion: base.version }, events: [] }).catch(() => false)) return;
      const current = await this.find(started, started.id).catch(() => undefined);
      if (!current || current.operatorCall !== started.operatorCall || current.operatorCallStartedAt !== started.operatorCallStartedAt) return;
      base = current;
    }
  }

  /** Any open call refuses changes to its payment, even past its lease (the resume path settles it). */
  private refuseWhileCalling(payment: Payment): void {
    if (payment.operatorCall) throw this.calls.callInProgress(payment.operatorCallStartedAt!);
  }

  /** The API takes nothing from a payment past its lifetime, as the checkout page does (docs/decisions.md). */
  private pastExpiry(payment: Payment): boolean {
    return isPastExpiry(payment, this.deps.clock.now().toISOString());
  }

  private find(ctx: TenantScope, referenceOrId: string): Promise<Payment> {
    return findPayment(this.deps.store, ctx, referenceOrId);
  }

  private answerOnly<T>(request: RecordedRequest<T>, resourceId: string, result: T): Promise<T> {
    return answerOnly(this.deps.store, request, resourceId, result);
  }

  /**
   * Reads the payment, lets `decide` compute its next state (or nothing), and commits it with a
   * version check, with the request's claim and response when it has a journal; if another
   * request changed the payment meanwhile, reads and decides again.
   */
  private async change(
    ctx: TenantScope,
    referenceOrId: string,
    decide: (current: Payment) => Promise<Decision | undefined>,
    request: RecordedRequest<Payment> = {},
  ): Promise<Payment> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.find(ctx, referenceOrId);
      const decision = await decide(current);
      if (!decision) return this.answerOnly(request, current.id, current);
      const next: Payment = { ...decision.next, version: current.version + 1, updatedAt: this.deps.clock.now().toISOString() };
      const claim = finishWrite(request, next.id, next);
      const change: PaymentChange = { payment: { next, expectedVersion: current.version }, events: decision.events, ledger: decision.ledger, claim };
      if (await this.deps.store.save(change)) {
        reportCommitted(request, claim);
        return next;
      }
      if (attempt >= writeAttempts) throw new AkweError('invalid_state_transition', 'The payment changed while this request ran; fetch it and retry.');
    }
  }

  /**
   * Where the operator stands on the payment, as a decision (undefined when its connector takes no
   * status queries, or the operator never heard of it); an answer the payment cannot take is kept.
   */
  private async askOperator(payment: Payment): Promise<Decision | undefined> {
    return (await this.askOperatorFor(payment)).decision;
  }

  /** As askOperator, with the operator's answer itself (undefined: never heard of it, or no status queries). */
  private async askOperatorFor(payment: Payment): Promise<Asked> {
    const status = this.routing.optionalFlow(payment, 'status');
    const answer = status && (await this.calls.call(() => status.queryStatus(payment)));
    const decision = answer && this.transitions.afterOperatorAnswer(payment, answer);
    if (decision?.discrepancy) await this.discrepancies.keep(decision.discrepancy);
    return { answer, decision };
  }
}

/** When an open call was last sent: its recorded send, else the start of its lease (a call never taken over). */
function sentAt(payment: Payment): string | null {
  return payment.operatorSentAt ?? payment.operatorCallStartedAt;
}

function ignoreCallInProgress(error: unknown): undefined {
  if (error instanceof AkweError && error.code === 'operator_call_in_progress') return undefined;
  throw error;
}

/** Whether a failed call got no answer at all (its request may still arrive), as its error or a cause says. */
function noAnswer(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) if (current instanceof OperatorNoAnswer) return true;
  return false;
}
