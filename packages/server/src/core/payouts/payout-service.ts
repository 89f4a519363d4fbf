import { notFoundIn } from '../shared/not-found.js';
import { unsupportedCurrency } from '../catalog/currency-check.js';
import type { CatalogCountry, CatalogOperator, OperatorCatalog } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import type { EventFactory, PayoutEventType } from '../events/event-factory.js';
import type { StoredEvent } from '../events/stored-event.js';
import { finishWrite, reportCommitted, type RecordedRequest } from '../idempotency/request-journal.js';
import { feeFor, type LedgerPosting } from '../ledger/ledger.js';
import { payoutPostings } from '../ledger/payout-postings.js';
import type { OperatorConnectors } from '../operators/operator-connector.js';
import { OperatorRouting } from '../operators/operator-routing.js';
import { inBackground } from '../operators/call-origin.js';
import type { PaymentContext, SyncOptions } from '../payments/payment-service.js';
import type { RecordedCalls } from '../operators/recorded-call.js';
import { normalizePhone } from '../phones/phone-number.js';
import type { Clock, IdSource } from '../ports.js';
import type { TenantScope } from '../shared/environment.js';
import type { FailureCode } from '../shared/failure-codes.js';
import { checkMetadata, type Metadata } from '../shared/metadata.js';
import type { Page, PageRequest } from '../shared/pagination.js';
import { eachConcurrently } from '../shared/concurrently.js';
import { isFinalPayout, type Payout, type PayoutAnswer, type PayoutStatus } from './payout.js';
import { canMovePayout } from './payout-state-machine.js';
import { DiscrepancyKeeper, type DiscrepancyStore, type OperatorDiscrepancy } from '../operators/operator-discrepancy.js';
import type { PayoutFilters, PayoutStore } from './payout-store.js';

export interface CreatePayoutInput {
  /** The payout's id when the caller must know it before the commit (a bulk line's id); new otherwise. */
  id?: string;
  reference: string;
  amountMinor: number;
  /**
   * The fee already agreed for this payout (a bulk line's, fixed when the batch was drafted and
   * approved with it); the catalog's fee on the amount otherwise.
   */
  feeMinor?: number;
  /** Optional; must be the country's currency, the one payouts go out in. */
  currency?: string;
  phone: string;
  country: string;
  operator: string;
  recipientFirstName?: string;
  recipientLastName?: string;
  description?: string;
  metadata?: Metadata;
}

export interface PayoutServiceDeps {
  store: PayoutStore;
  catalog: OperatorCatalog;
  operators: OperatorConnectors;
  events: EventFactory;
  clock: Clock;
  newId: IdSource;
  /** The phases and leases every operator call shares: a hand-off's worker is presumed alive for the lease, after it another asks the operator first. */
  calls: RecordedCalls;
  /** How often a payout the operator is still processing is asked about (ms). */
  checkIntervalMs?: number;
  /** Where operator answers the state machine refuses are kept (none: only reported). */
  discrepancies?: DiscrepancyStore;
  onDiscrepancy?: (discrepancy: OperatorDiscrepancy) => void;
  /** Whether a route's provider float is low: new payouts then take another route that offers them. */
  lowFloat?: (routeLabel: string) => boolean;
}

const statusEvent: Record<Exclude<PayoutStatus, 'PENDING'>, PayoutEventType> = {
  PROCESSING: 'updated',
  COMPLETED: 'completed',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
};

/** The longest wait between two re-reads of a completed payout its operator may reverse. */
const REVERSAL_CHECK_MAX_INTERVAL_MS = 6 * 3_600_000;

/** Operator calls a worker pass makes at once (hand-offs, status checks). */
const OPERATOR_CALLS_IN_FLIGHT = 16;

const defaultFailure: Partial<Record<PayoutStatus, FailureCode>> = { FAILED: 'operator_declined', CANCELLED: 'payer_declined' };

/**
 * Payouts (docs/payouts.md). Creation reserves the money and answers PENDING;
 * workers hand each payout to its operator at most once (a recovery point is committed before
 * the call, and a resumed hand-off asks the operator about our id before sending anything), then
 * follow it to COMPLETED, FAILED or CANCELLED, settling or releasing the reservation.
 */
export class PayoutService {
  private readonly calls: RecordedCalls;
  private readonly checkIntervalMs: number;
  private readonly routing: OperatorRouting;
  private readonly discrepancies: DiscrepancyKeeper;

  constructor(private readonly deps: PayoutServiceDeps) {
    this.calls = deps.calls;
    this.checkIntervalMs = deps.checkIntervalMs ?? 1_000;
    this.routing = new OperatorRouting(deps.operators, deps.catalog, deps.lowFloat);
    this.discrepancies = new DiscrepancyKeeper({ store: deps.discrepancies, onNew: deps.onDiscrepancy, newId: deps.newId, clock: deps.clock });
  }

  async create(ctx: PaymentContext, input: CreatePayoutInput, request: RecordedRequest<Payout> = {}): Promise<Payout> {
    const payout = this.prepare(ctx, input);
    // The payout, its reservation, its event and the stored answer commit together: no operator is
    // called in this request, so there is nothing to resume.
    const claim = finishWrite(request, payout.id, payout);
    const { events, ledger } = this.initiated(payout);
    await this.deps.store.insert(payout, events, ledger, claim);
    reportCommitted(request, claim);
    return payout;
  }

  /**
   * Several payouts of one merchant and environment (a bulk batch's lines), each as `create` would
   * make it, in one transaction. Each input gets its own outcome: its payout, or the error `create`
   * would have thrown. A group the database refuses whole (a reference taken, the balance short for
   * the group) is made again one payout at a time, so each line meets its own answer.
   */
  async createMany(ctx: PaymentContext, inputs: readonly CreatePayoutInput[]): Promise<Array<{ payout: Payout } | { error: AkweError }>> {
    const outcomes: Array<{ payout: Payout } | { error: AkweError }> = inputs.map((input) => {
      try {
        return { payout: this.prepare(ctx, input) };
      } catch (error) {
        if (error instanceof AkweError) return { error };
        throw error;
      }
    });
    const made = outcomes.flatMap((outcome) => ('payout' in outcome ? [outcome.payout] : []));
    try {
      await this.deps.store.insertMany(made.map((payout) => this.initiated(payout)));
      return outcomes;
    } catch (error) {
      if (!(error instanceof AkweError) || error.status >= 500) throw error;
    }
    return Promise.all(
      outcomes.map(async (outcome) => {
        if (!('payout' in outcome)) return outcome;
        const { payout } = outcome;
        try {
          const { events, ledger } = this.initiated(payout);
          await this.deps.store.insert(payout, events, ledger);
          return outcome;
        } catch (error) {
          if (error instanceof AkweError && error.status < 500) return { error };
          throw error;
        }
      }),
    );
  }

  /** What a new payout writes beside itself: its `payout.initiated` event and its reservation. */
  initiated(payout: Payout): { payout: Payout; events: StoredEvent[]; ledger: LedgerPosting[] } {
    return { payout, events: [this.deps.events.payout('initiated', payout)], ledger: [payoutPostings.reserved(payout)] };
  }

  /**
   * A new PENDING payout after every check `create` makes (gating, catalog, phone, limits); nothing
   * stored. A wallet settlement makes its payout with it and stores it with its own rows.
   */
  prepare(ctx: PaymentContext, input: CreatePayoutInput): Payout {
    // Live money leaves only for an active, validated merchant.
    if (ctx.environment === 'live') {
      if (ctx.merchant.status !== 'active') throw new AkweError('account_inactive');
      if (ctx.merchant.kycStatus !== 'validated') throw new AkweError('kyc_required');
    }
    const country = this.countryOf(input.country);
    if (input.currency !== undefined && input.currency.toUpperCase() !== country.defaultCurrency)
      throw unsupportedCurrency(country.code, [country.defaultCurrency], input.currency);
    const operator = this.operatorOf(country, input.operator);
    const check = normalizePhone(country.code, input.phone);
    if (!check.ok) throw new AkweError('invalid_phone', check.message, { field: 'phone' });
    const { minAmountMinor, maxAmountMinor, fee } = operator.payout;
    if (input.amountMinor < minAmountMinor) throw AkweError.ofAmount({ bound: 'minimum', limitMinor: minAmountMinor, subject: 'payout', sentMinor: input.amountMinor });
    if (input.amountMinor > maxAmountMinor) throw AkweError.ofAmount({ bound: 'maximum', limitMinor: maxAmountMinor, subject: 'payout', sentMinor: input.amountMinor });
    // No route pays out through this operator (or every one is down): refused before anything is
    // written. The first one up is chosen now and kept: the hand-off and every check go there.
    const { route } = this.routing.pick(ctx.environment, operator, 'payouts');

    const now = this.now();
    const payout: Payout = {
      id: input.id ?? this.deps.newId(),
      merchantId: ctx.merchantId,
      environment: ctx.environment,
      reference: input.reference,
      status: 'PENDING',
      amountMinor: input.amountMinor,
      feeMinor: input.feeMinor ?? feeFor(fee, input.amountMinor),
      currency: country.defaultCurrency,
      country: country.code,
      operator: operator.slug,
      phone: check.e164,
      recipientFirstName: input.recipientFirstName ?? null,
      recipientLastName: input.recipientLastName ?? null,
      description: input.description ?? null,
      pspReference: null,
      message: null,
      failureCode: null,
      metadata: checkMetadata(input.metadata),
      handoffStartedAt: null,
      handedOff: false,
      nextCheckAt: null,
      route,
      createdAt: now,
      updatedAt: now,
      version: 1,
    };
    return payout;
  }

  /**
   * By reference or id; with `sync`, a payout the operator is working on is refreshed from it. A read
   * never fails because the operator could not be asked: the stored payout is answered, and
   * `onOperatorNotAsked` told (a failed read must never look like a payout that was not sent).
   */
  async get(ctx: TenantScope, referenceOrId: string, options: SyncOptions = {}): Promise<Payout> {
    const payout = await this.find(ctx, referenceOrId);
    if (!options.sync || isFinalPayout(payout.status) || !payout.handedOff) return payout;
    let answer: PayoutAnswer | undefined;
    try {
      answer = await this.routing.optionalFlow(payout, 'payouts')?.queryPayout(payout);
    } catch (error) {
      options.onOperatorNotAsked?.(error instanceof AkweError ? error : new AkweError('operator_outcome_unknown'));
      return payout;
    }
    if (!answer || answer.status === payout.status) return payout;
    return (await this.apply(payout, answer)) ?? (await this.find(ctx, payout.id));
  }

  /** As PaymentService.refreshOnOperatorHint, for a payout: refreshed from the operator's status query. */
  async refreshOnOperatorHint(id: string): Promise<Payout | undefined> {
    const payout = await this.deps.store.findAnyById(id);
    if (!payout) return undefined;
    if (!isFinalPayout(payout.status)) return this.get(payout, payout.id, { sync: true });
    // Final here, yet the operator calls about it: a different final answer is kept for a person.
    const answer = payout.handedOff ? await this.routing.optionalFlow(payout, 'payouts')?.queryPayout(payout) : undefined;
    if (answer && answer.status !== payout.status && isFinalPayout(answer.status)) await this.recordDiscrepancy(payout, answer);
    return payout;
  }

  list(ctx: TenantScope, filters: Omit<PayoutFilters, 'operators'> & { operator?: string }, page: PageRequest): Promise<Page<Payout>> {
    const { operator, ...rest } = filters;
    if (operator === undefined) return this.deps.store.list(ctx, rest, page);
    const slugs = this.deps.catalog.slugsNamed(operator);
    if (slugs.length === 0) throw new AkweError('validation_error', `Unknown operator ${operator}; see the operator catalog.`, { field: 'operator' });
    return this.deps.store.list(ctx, { ...rest, operators: slugs }, page);
  }

  /**
   * Hands PENDING payouts to their operators. A payout whose earlier hand-off was left behind
   * (its worker died) is first asked about: the operator's answer is recorded, and only a payout
   * the operator never received is sent. Returns how many payouts it handled.
   */
  async handOffDue(limit = 50): Promise<number> {
    const claimed = await this.deps.store.claimHandoffs(this.now(), this.calls.abandonedBefore(), limit);
    // Side by side (operator calls wait on the network); one payout's trouble does not hold the
    // others of the batch until their lease ends.
    await eachConcurrently(claimed, OPERATOR_CALLS_IN_FLIGHT, ({ payout, resumed }) => this.handOff(payout, resumed));
    return claimed.length;
  }

  /**
   * Asks operators about payouts they are processing, recording the final ones, then reads again
   * the completed payouts their operator may still reverse. Background checks: their failures do
   * not count toward the operator's breaker.
   */
  async checkDue(limit = 100): Promise<number> {
    const now = this.deps.clock.now();
    const due = await this.deps.store.claimChecks(now.toISOString(), new Date(now.getTime() + this.checkIntervalMs).toISOString(), limit);
    let failure: { error: unknown } | undefined;
    try {
      await inBackground(() =>
        eachConcurrently(due, OPERATOR_CALLS_IN_FLIGHT, async (payout) => {
          const answer = await this.routing.optionalFlow(payout, 'payouts')?.queryPayout(payout);
          if (answer && answer.status !== payout.status) await this.apply(payout, answer);
        }),
      );
    } catch (error) {
      failure = { error };
    }
    // One operator failing its checks must not hold back the re-reads of every other's payouts.
    const rechecked = await this.recheckCompleted(limit);
    if (failure) throw failure.error;
    return due.length + rechecked;
  }

  /**
   * Reads completed payouts again while their operator can still reverse them (the connector's
   * `payoutReversalWindowMs`, counted from the completion), less and less often. A reversal, or any
   * other final answer, is a discrepancy for a person: the payout stays COMPLETED and the ledger
   * is not touched until that person decides (docs/decisions.md "Payout reversals").
   */
  private async recheckCompleted(limit: number): Promise<number> {
    const now = this.deps.clock.now();
    const due = await this.deps.store.claimReversalChecks(now.toISOString(), new Date(now.getTime() + this.calls.leaseMs).toISOString(), limit);
    await inBackground(() =>
      eachConcurrently(due, OPERATOR_CALLS_IN_FLIGHT, async (payout) => {
        let nextCheckAt = this.reversalCheckAfter(payout);
        if (nextCheckAt !== null) {
          const answer = await this.routing.optionalFlow(payout, 'payouts')?.queryPayout(payout);
          if (answer && (answer.reversed || answer.status !== 'COMPLETED')) {
            await this.recordDiscrepancy(payout, answer);
            nextCheckAt = null;
          }
        }
        // Lost to a concurrent change: whoever changed it decided.
        await this.deps.store.save({ next: { ...payout, nextCheckAt }, expectedVersion: payout.version, events: [] });
      }),
    );
    return due.length;
  }

  /** When a completed payout is next read again, or null once its operator can no longer reverse it. */
  private reversalCheckAfter(payout: Payout): string | null {
    const windowMs = this.deps.operators.connectorFor(payout.environment, this.gatewayCodeOf(payout) ?? '')?.payoutReversalWindowMs;
    if (windowMs === undefined || payout.status !== 'COMPLETED') return null;
    const nowMs = this.deps.clock.now().getTime();
    const completedMs = Date.parse(payout.updatedAt);
    if (nowMs >= completedMs + windowMs) return null;
    const waitMs = Math.min(REVERSAL_CHECK_MAX_INTERVAL_MS, Math.max(this.checkIntervalMs, (nowMs - completedMs) / 4));
    return new Date(Math.min(completedMs + windowMs, nowMs + waitMs)).toISOString();
  }

  private gatewayCodeOf(payout: Payout): string | undefined {
    return this.deps.catalog.findOperator(payout.country, payout.operator)?.gatewayCode;
  }

  private async handOff(claimed: Payout, resumed: boolean): Promise<void> {
    await this.calls.reached('after_intent', claimed.id);
    // A batch's last hand-offs may start long after the claim (calls run a few at a time): past
    // half the lease, renew it first, or another worker could take the payout over and send it too.
    const payout = await this.stillOurs(claimed);
    if (!payout) return;
    let answer: PayoutAnswer | undefined;
    let current = payout;
    let unroutable = false;
    try {
      // The catalog or the operators file may have changed since the payout was accepted: one no
      // connector routes any more fails (its money released) instead of being claimed again, and
      // refused again, forever. An operator that is only down (its breaker open) is tried later.
      const operator = this.deps.catalog.operatorFor(payout.country, payout.operator, 'payout');
      unroutable = !operator || !this.routing.isConfigured(payout);
      if (!operator) throw new AkweError('operator_unavailable', `The catalog no longer pays out through ${payout.operator} in ${payout.country}.`);
      if (unroutable) throw new AkweError('operator_unavailable', `No connector for ${operator.label} is configured on this server any more.`);
      const payouts = this.routing.flowFor(payout, 'payouts');
      if (!resumed) answer = await payouts.sendPayout(payout, operator);
      else {
        answer = await payouts.queryPayout(payout);
        if (!answer) {
          // Recorded as sent before the call: the answer is then written on that version.
          const sending = await this.recordSendAgain(payout);
          // Not known yet, or taken over: the recovery point stays, and a worker asks again after the lease.
          if (!sending) return;
          current = sending;
          answer = await payouts.sendPayout(current, operator);
        }
      }
    } catch (error) {
      // No operator for this environment: the payout fails cleanly and its money is released.
      if (unroutable && error instanceof AkweError) {
        answer = { status: 'FAILED', message: error.message, failureCode: 'operator_unavailable' };
      } else {
        // The outcome is unknown: the recovery point stays, and after the lease a worker asks first.
        throw error;
      }
    }
    await this.calls.reached('after_operator_call', payout.id);
    await this.apply(current, answer, { handedOff: answer.failureCode !== 'operator_unavailable' });
    await this.calls.reached('after_outcome', payout.id);
  }

  /**
   * A resumed hand-off the operator does not know. A send may still be on its way (held by a proxy,
   * queued at the operator) for a while after its own timeout: "not known" means "never sent" only
   * once the last send began more than two leases ago. Before that (or when another worker took the
   * payout meanwhile) it is undefined: the recovery point stays, and the operator is asked again
   * after the lease. Else the new send is recorded (`sentAt`) before it is made, and the payout at
   * that version is returned.
   */
  private async recordSendAgain(payout: Payout): Promise<Payout | undefined> {
    const nowMs = this.deps.clock.now().getTime();
    if (payout.sentAt && nowMs < this.calls.resendAllowedAt(payout.sentAt)) return undefined;
    const sending: Payout = { ...payout, sentAt: new Date(nowMs).toISOString(), version: payout.version + 1 };
    return (await this.deps.store.save({ next: sending, expectedVersion: payout.version, events: [] })) ? sending : undefined;
  }

  /** The claimed payout, its lease renewed if half of it has gone; undefined once another worker holds it. */
  private async stillOurs(claimed: Payout): Promise<Payout | undefined> {
    if (claimed.handoffStartedAt === null || !this.calls.needsRenewal(claimed.handoffStartedAt)) return claimed;
    return this.deps.store.renewHandoff(claimed, this.now());
  }

  /** Records an operator's answer: the status it reached, its events and ledger postings, in one commit. */
  private async apply(current: Payout, answer: PayoutAnswer, options: { handedOff?: boolean } = {}): Promise<Payout | undefined> {
    const events: StoredEvent[] = [];
    const ledger: LedgerPosting[] = [];
    const now = this.now();
    const moving = answer.status !== current.status;
    if (moving && !canMovePayout(current.status, answer.status)) {
      // Refused by the state machine: the payout keeps its status, a person decides (docs/operators.md).
      await this.recordDiscrepancy(current, answer);
      return undefined;
    }
    const next: Payout = {
      ...current,
      status: answer.status,
      pspReference: answer.pspReference ?? current.pspReference,
      message: answer.message ?? current.message,
      failureCode: answer.status === 'FAILED' || answer.status === 'CANCELLED' ? (answer.failureCode ?? defaultFailure[answer.status] ?? null) : current.failureCode,
      handoffStartedAt: null,
      handedOff: current.handedOff || (options.handedOff ?? true),
      nextCheckAt: answer.status === 'PROCESSING' ? new Date(this.deps.clock.now().getTime() + this.checkIntervalMs).toISOString() : null,
      updatedAt: now,
    };
    // A completed payout its operator may still reverse is read again (recheckCompleted).
    if (moving && answer.status === 'COMPLETED') next.nextCheckAt = this.reversalCheckAfter(next);
    if (moving) events.push(this.deps.events.payout(statusEvent[answer.status], next));
    if (moving && answer.status === 'COMPLETED') ledger.push(payoutPostings.completed(next));
    if (moving && (answer.status === 'FAILED' || answer.status === 'CANCELLED')) ledger.push(payoutPostings.released(next));
    const saved = await this.deps.store.save({ next, expectedVersion: current.version, events, ledger });
    return saved ? { ...next, version: current.version + 1 } : undefined;
  }

  private recordDiscrepancy(payout: Payout, answer: PayoutAnswer): Promise<void> {
    return this.discrepancies.keep({
      merchantId: payout.merchantId,
      environment: payout.environment,
      resourceType: 'payout',
      resourceId: payout.id,
      reference: payout.reference,
      operator: payout.operator,
      ourStatus: payout.status,
      operatorStatus: answer.reversed ? 'REVERSED' : answer.status,
      operatorReference: answer.pspReference ?? null,
      message: answer.reversed
        ? `${answer.message ?? 'The operator reversed the payout.'} The payout stays COMPLETED and its money stays spent on the merchant's balance until a person decides (credit it back, or not).`
        : (answer.message ?? null),
    });
  }

  private async find(ctx: TenantScope, referenceOrId: string): Promise<Payout> {
    const payout = await this.deps.store.find(ctx, referenceOrId);
    if (!payout) throw await notFoundIn(ctx, 'payout', referenceOrId, (other) => this.deps.store.find(other, referenceOrId));
    return payout;
  }

  private countryOf(code: string): CatalogCountry {
    const country = this.deps.catalog.country(code);
    if (!country) throw new AkweError('invalid_operator', `Country ${code} is not supported; see the payout operator catalog.`, { field: 'country' });
    return country;
  }

  private operatorOf(country: CatalogCountry, slug: string): CatalogOperator {
    const operator = this.deps.catalog.operatorFor(country.code, slug, 'payout');
    if (!operator) throw new AkweError('invalid_operator', `Operator ${slug} does not pay out in ${country.name}; see the payout operator catalog.`, { field: 'operator' });
    return operator;
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
