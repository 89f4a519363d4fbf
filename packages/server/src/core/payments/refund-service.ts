import type { OperatorCatalog } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import type { EventFactory } from '../events/event-factory.js';
import type { ClaimWrite } from '../idempotency/idempotency-store.js';
import { finishWrite, reportCommitted, stepWrite, type RecordedRequest } from '../idempotency/request-journal.js';
import { postingRules } from '../ledger/posting-rules.js';
import type { OperatorConnectors, RefundAnswer } from '../operators/operator-connector.js';
import { OperatorRouting } from '../operators/operator-routing.js';
import type { RecordedCalls } from '../operators/recorded-call.js';
import type { Clock, IdSource } from '../ports.js';
import type { TenantScope } from '../shared/environment.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import type { Payment, Refund } from './payment.js';
import type { PaymentContext } from './payment-service.js';
import { answerOnly, findPayment } from './payment-records.js';
import { RefundTakenOver, type LockedChange, type PaymentStore, type RefundFilters } from './payment-store.js';
import type { PaymentTransitions } from './payment-transitions.js';

export interface RefundServiceDeps {
  store: PaymentStore;
  catalog: OperatorCatalog;
  operators: OperatorConnectors;
  events: EventFactory;
  clock: Clock;
  newId: IdSource;
  calls: RecordedCalls;
  transitions: PaymentTransitions;
}

export interface RefundResult {
  refund: Refund;
  payment: Payment;
}

/**
 * Refunds of completed payments, in recorded phases: the amount is reserved under the payment's
 * lock before the operator is asked (the refund's recovery point: a pending refund, its
 * `updated_at` the lease), so parallel refunds cannot overdraw; the outcome is recorded under the
 * lock again, and the payment becomes `refunded` only when the refunds reach its amount and none
 * is still pending.
 */
export class RefundService {
  private readonly routing: OperatorRouting;

  constructor(private readonly deps: RefundServiceDeps) {
    this.routing = new OperatorRouting(deps.operators, deps.catalog);
  }

  /**
   * What a refund of this payment would move now (the amount asked, or all that is left), checked as
   * the refund itself checks it; nothing is reserved: the refund checks again under the payment's lock.
   */
  async refundable(ctx: TenantScope, referenceOrId: string, amountMinor: number | undefined): Promise<{ payment: Payment; amountMinor: number }> {
    const payment = await this.findPayment(ctx, referenceOrId);
    if (payment.status !== 'completed') throw new AkweError('payment_not_refundable', `The payment is ${payment.status}; only a completed payment can be refunded.`);
    const left = payment.amountMinor - payment.refundedMinor;
    if (left <= 0) throw new AkweError('refund_exceeds_amount', 'Nothing is left to refund: earlier refunds cover the whole amount.', { field: 'amount' });
    const amount = amountMinor ?? left;
    if (amount > left) throw new AkweError('refund_exceeds_amount', `Only ${left / 100} ${payment.currency} is left to refund.`, { field: 'amount' });
    return { payment, amountMinor: amount };
  }

  /**
   * Refunds part or all of what is left of a completed payment. `id`, when given, is the refund's
   * (an approved request's: its execution, resumed, finds it). A live refund is money out: it needs
   * an active merchant whose KYC is validated, like payouts (docs/decisions.md). A retry of a refund
   * already reserved finishes it whatever the merchant's status since.
   */
  async refund(
    ctx: PaymentContext,
    referenceOrId: string,
    input: { amountMinor?: number; reason?: string; id?: string },
    request: RecordedRequest<RefundResult> = {},
  ): Promise<RefundResult> {
    const resumedId = request.journal?.resumed?.resourceId;
    if (resumedId) {
      const refund = await this.deps.store.findRefund(ctx, resumedId);
      if (refund?.status === 'pending') return this.resume(refund, request);
      if (refund) return this.answerOnly(request, refund.id, { refund, payment: await this.findPayment(ctx, refund.paymentId) });
    }
    if (ctx.environment === 'live') {
      if (ctx.merchant.status !== 'active') throw new AkweError('account_inactive');
      if (ctx.merchant.kycStatus !== 'validated') throw new AkweError('kyc_required');
    }
    const payment = await this.findPayment(ctx, referenceOrId);
    const { id } = payment;
    // A payment never paid names no operator; the locked check below refuses it as not refundable.
    const refunds = payment.operator === null ? undefined : this.routing.flowFor(payment, 'refunds');
    const now = this.deps.clock.now().toISOString();
    const refundId = input.id ?? this.deps.newId();
    const claim = stepWrite(request, refundId);
    const reserved = await this.deps.store.withLockedPayment(id, (current) => {
      if (current.status !== 'completed') throw new AkweError('payment_not_refundable', `The payment is ${current.status}; only a completed payment can be refunded.`);
      const left = current.amountMinor - current.refundedMinor;
      // Still `completed` while refunds that cover the whole amount are pending: nothing is left.
      if (left <= 0) throw new AkweError('refund_exceeds_amount', 'Nothing is left to refund: earlier refunds cover the whole amount.', { field: 'amount' });
      const amount = input.amountMinor ?? left;
      if (amount > left) throw new AkweError('refund_exceeds_amount', `Only ${left / 100} ${current.currency} is left to refund.`, { field: 'amount' });
      const refund: Refund = {
        id: refundId,
        paymentId: current.id,
        paymentReference: current.reference,
        merchantId: current.merchantId,
        environment: current.environment,
        amountMinor: amount,
        currency: current.currency,
        status: 'pending',
        reason: input.reason ?? null,
        pspReference: null,
        createdAt: now,
        updatedAt: now,
      };
      const next = { ...current, refundedMinor: current.refundedMinor + amount, version: current.version + 1, updatedAt: now };
      // The refund's amount leaves the available balance now; one it cannot cover is refused (422).
      const ledger = [postingRules.refundReserved(refund)];
      return { change: { next, insertRefund: refund, events: [this.deps.events.refund('created', refund, next)], ledger, claim }, result: { refund, payment: next } };
    });
    reportCommitted(request, claim);
    const answer = await this.deps.calls.afterIntent(refundId, () => this.deps.calls.call(() => refunds!.refund(reserved.payment, reserved.refund)));
    return this.record(reserved.refund, answer, request);
  }

  async listRefunds(ctx: TenantScope, referenceOrId: string, page: PageRequest): Promise<Page<Refund>> {
    const payment = await this.findPayment(ctx, referenceOrId);
    return this.deps.store.listRefunds(ctx, payment.id, page);
  }

  /** Every refund of the scope, whatever the payment, newest first. */
  listAllRefunds(ctx: TenantScope, filters: RefundFilters, page: PageRequest): Promise<Page<Refund>> {
    return this.deps.store.listAllRefunds(ctx, filters, page);
  }

  /** One refund of one payment: a refund of another payment is not found here. */
  async getRefund(ctx: TenantScope, referenceOrId: string, refundId: string): Promise<Refund> {
    const payment = await this.findPayment(ctx, referenceOrId);
    const refund = await this.deps.store.findRefund(ctx, refundId);
    if (!refund || refund.paymentId !== payment.id) {
      // A refund's payment is in the refund's environment: the other environment cannot hold this payment's refund.
      throw new AkweError('not_found', `Payment ${referenceOrId} has no refund ${refundId}.`);
    }
    return refund;
  }

  /**
   * An operator's callback about a refund it left pending: its outcome, asked of the operator, is
   * recorded now instead of when its lease ends. The record checks the refund is still as read,
   * so a run settling it at the same time wins cleanly and nothing is counted twice.
   */
  async refreshOnOperatorHint(id: string): Promise<Refund | undefined> {
    const refund = await this.deps.store.findAnyRefundById(id);
    if (!refund || refund.status !== 'pending') return refund;
    const scope = { merchantId: refund.merchantId, environment: refund.environment };
    const payment = await this.findPayment(scope, refund.paymentId);
    const answer = await this.deps.calls.call(() => this.routing.flowFor(payment, 'refunds').queryRefund(refund));
    if (!answer || answer.status === 'pending') return refund;
    return (await this.record(refund, answer, {})).refund;
  }

  /**
   * Resumes a pending refund whose run died or left it to the operator: takes its lease, asks the
   * operator about it, sends it only if the operator never heard of it, and records the outcome.
   */
  async resume(refund: Refund, request: RecordedRequest<RefundResult>): Promise<RefundResult> {
    const scope = { merchantId: refund.merchantId, environment: refund.environment };
    const { calls } = this.deps;
    // As for a payment's call: a refund whose lease runs is being settled by someone else.
    calls.refuseWhileLeased(refund.updatedAt, 'The refund is being settled; retry shortly.');
    const leased = await this.deps.store.leaseRefund(refund, this.deps.clock.now().toISOString());
    if (!leased) {
      const current = await this.deps.store.findRefund(scope, refund.id);
      if (!current || current.status === 'pending')
        throw new AkweError('operator_call_in_progress', 'The refund is being settled; retry shortly.', { retryAfterSeconds: calls.leaseMs / 1000 });
      return this.answerOnly(request, current.id, { refund: current, payment: await this.findPayment(scope, current.paymentId) });
    }
    const payment = await this.findPayment(scope, leased.paymentId);
    const refunds = this.routing.flowFor(payment, 'refunds');
    let holder = leased;
    const answer = await calls.askFirst(
      () => calls.call(() => refunds.queryRefund(leased)),
      async () => {
        holder = await this.recordSendAgain(leased, payment);
        return calls.call(() => refunds.refund(payment, holder));
      },
    );
    await calls.reached('after_operator_call', holder.id);
    return this.record(holder, answer, request);
  }

  /**
   * A resumed refund its operator does not know: a send may still be on its way for a while after
   * its timeout, so it is sent again only two leases after the last send (its creation, or
   * `sentAt`), recorded before the send; before that, 409 and the recovery worker asks again later.
   */
  private async recordSendAgain(leased: Refund, payment: Payment): Promise<Refund> {
    const { calls, clock } = this.deps;
    const untilMs = calls.resendAllowedAt(leased.sentAt ?? leased.createdAt);
    const nowMs = clock.now().getTime();
    if (nowMs < untilMs && this.routing.sendsMayArriveLate(payment)) {
      throw new AkweError(
        'operator_call_in_progress',
        `The operator has not seen this refund yet, which may still reach it; nothing is sent again before ${new Date(untilMs).toISOString()}.`,
        { retryAfterSeconds: Math.max(1, Math.ceil((untilMs - nowMs) / 1000)) },
      );
    }
    const sending = await this.deps.store.leaseRefund(leased, new Date(nowMs).toISOString(), { sending: true });
    if (!sending) throw new AkweError('operator_call_in_progress', 'The refund is being settled; retry shortly.', { retryAfterSeconds: calls.leaseMs / 1000 });
    return sending;
  }

  /**
   * Records a refund's outcome under the payment's lock, with its events and the request's response,
   * if this run still holds the refund (`refund.updatedAt` is its lease). If another run took it
   * over meanwhile (this one outlived its lease), that run's record stands and is what this answers.
   */
  private async record(refund: Refund, answer: RefundAnswer, request: RecordedRequest<RefundResult>): Promise<RefundResult> {
    const scope = { merchantId: refund.merchantId, environment: refund.environment };
    if (answer.status === 'pending') {
      // The operator took it and has not finished: the refund stays pending, and once its lease
      // ends the recovery worker asks the operator again (it never sends it twice).
      return this.answerOnly(request, refund.id, { refund, payment: await this.findPayment(scope, refund.paymentId) });
    }
    const status = answer.status;
    const now = () => this.deps.clock.now().toISOString();
    const finished: Refund = { ...refund, status, pspReference: answer.pspReference ?? null, updatedAt: now() };
    const settleRefund = { refund: finished, leasedAt: refund.updatedAt };
    let claim: ClaimWrite | undefined;
    let result: RefundResult;
    try {
      result = await this.deps.store.withLockedPayment(refund.paymentId, (current, pendingRefunds) => {
        const decide = (): { change: LockedChange; result: RefundResult } => {
          if (answer.status === 'failed') {
            const next = { ...current, refundedMinor: current.refundedMinor - finished.amountMinor, version: current.version + 1, updatedAt: now() };
            const ledger = [postingRules.refundReleased(finished)];
            return { change: { next, settleRefund, events: [this.deps.events.refund('failed', finished, next)], ledger }, result: { refund: finished, payment: next } };
          }
          const events = [this.deps.events.refund('completed', finished, current)];
          const ledger = [postingRules.refundCompleted(finished)];
          // `pendingRefunds` still counts this refund: its row is updated by this very change.
          const fullyRefunded = current.refundedMinor === current.amountMinor && pendingRefunds === 1;
          if (!fullyRefunded) return { change: { settleRefund, events, ledger }, result: { refund: finished, payment: current } };
          const refunded = this.deps.transitions.afterAnswer(current, { path: ['refunded'], message: 'Fully refunded.' });
          const next = { ...refunded.next, version: current.version + 1, updatedAt: now() };
          return { change: { next, settleRefund, events: [...events, ...refunded.events], ledger }, result: { refund: finished, payment: next } };
        };
        const decided = decide();
        claim = finishWrite(request, finished.id, decided.result);
        return { change: { ...decided.change, claim }, result: decided.result };
      });
    } catch (error) {
      if (!(error instanceof RefundTakenOver)) throw error;
      // This run outlived its lease and another one took the refund over: its record stands.
      const current = (await this.deps.store.findRefund(scope, refund.id))!;
      return this.answerOnly(request, current.id, { refund: current, payment: await this.findPayment(scope, current.paymentId) });
    }
    reportCommitted(request, claim);
    await this.deps.calls.reached('after_outcome', finished.id);
    return result;
  }

  private findPayment(scope: TenantScope, referenceOrId: string): Promise<Payment> {
    return findPayment(this.deps.store, scope, referenceOrId);
  }

  private answerOnly<T>(request: RecordedRequest<T>, resourceId: string, result: T): Promise<T> {
    return answerOnly(this.deps.store, request, resourceId, result);
  }
}
