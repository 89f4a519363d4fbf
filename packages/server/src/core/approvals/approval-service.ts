import { auditEntry } from '../dashboard/dashboard-user.js';
import type { BulkService } from '../bulk/bulk-service.js';
import type { MemberCaller } from '../dashboard/dashboard-service.js';
import type { AuditAction, AuditEntry, RequestOrigin } from '../dashboard/dashboard-user.js';
import { AkweError } from '../errors/index.js';
import type { Merchant } from '../merchants/merchant.js';
import type { Principal } from '../merchants/principal.js';
import type { PaymentContext } from '../payments/payment-service.js';
import type { CreatePayoutInput, PayoutService } from '../payouts/payout-service.js';
import type { RefundService } from '../payments/refund-service.js';
import type { SettlementService } from '../settlements/settlement-service.js';
import type { TransferService } from '../transfers/transfer-service.js';
import type { Clock, IdSource } from '../ports.js';
import { isoNow } from '../shared/clock.js';
import type { Environment } from '../shared/environment.js';
import {
  asOf,
  DEFAULT_APPROVAL_EXPIRY_MS,
  needsApproval,
  type ApprovalRequest,
  type ApprovalStatus,
  type ApprovalStore,
  type ApprovalThreshold,
  type PayoutSubmission,
  type RefundSubmission,
  type SettlementSubmission,
  type TransferSubmission,
} from './approval.js';
import type { ApprovalNotices } from './approval-notices.js';

export interface ApprovalServiceDeps {
  store: ApprovalStore;
  /** The dashboard's audit log. */
  audit: { insertAudit(entry: AuditEntry): Promise<void> };
  payouts: PayoutService;
  bulk: BulkService;
  transfers: Pick<TransferService, 'prepare' | 'create' | 'get'>;
  settlements: Pick<SettlementService, 'prepare' | 'create' | 'get'>;
  refunds: Pick<RefundService, 'refundable' | 'refund' | 'getRefund'>;
  merchants: { getMerchant(id: string): Promise<Merchant> };
  clock: Clock;
  newId: IdSource;
  /** How long an approved request's execution is presumed still running before approving again retries it (ms). */
  executionLeaseMs?: number;
  /** How long a request waits for its approval before it expires (ms; APPROVAL_EXPIRY_HOURS, 72 hours by default). */
  expiryMs?: number;
  /** Emails the members who may decide when a request waits; none: no email. */
  notices?: ApprovalNotices;
}

const DEFAULT_EXECUTION_LEASE_MS = 60_000;

/** Where a dashboard session submits money-out that needs approval (the merchant API's 403 names it). */
export const approvalsPath = (merchantId: string) => `/api/v1/dashboard/merchants/${merchantId}/approvals`;

/**
 * Maker-checker for live money-out (docs/dashboard.md "Approvals (maker-checker)"). Callers come
 * from DashboardService.actingIn, which has checked membership and the role's permission. Every
 * submission is kept with its maker; one that needs no second user (test, or at or below the
 * threshold) is executed at once; one that waits expires after `expiryMs`. Execution goes through
 * the payout, bulk, transfer, settlement and refund services, with the checks and balance rules of
 * the API, and is idempotent by the request's id: the payout's, transfer's, settlement's or
 * refund's id is the request's, and a batch's validation answers a processing batch as it is.
 */
export class ApprovalService {
  private readonly leaseMs: number;
  private readonly expiryMs: number;

  constructor(private readonly deps: ApprovalServiceDeps) {
    this.leaseMs = deps.executionLeaseMs ?? DEFAULT_EXECUTION_LEASE_MS;
    this.expiryMs = deps.expiryMs ?? DEFAULT_APPROVAL_EXPIRY_MS;
  }

  thresholds(merchantId: string): Promise<ApprovalThreshold[]> {
    return this.deps.store.policy(merchantId);
  }

  /** Replaces the merchant's thresholds; an empty list turns approvals off. */
  async setThresholds(caller: MemberCaller, thresholds: ApprovalThreshold[], origin: RequestOrigin): Promise<ApprovalThreshold[]> {
    const normalised = thresholds.map((t) => ({ currency: t.currency.toUpperCase(), thresholdMinor: t.thresholdMinor }));
    const seen = new Set<string>();
    for (const [index, threshold] of normalised.entries()) {
      if (seen.has(threshold.currency)) throw AkweError.ofField('validation_error', `thresholds[${index}].currency`, `${threshold.currency} is given twice.`);
      seen.add(threshold.currency);
    }
    await this.deps.store.setPolicy(caller.merchantId, normalised, caller.user.id, this.now());
    const described = normalised.map((t) => `${t.currency} > ${t.thresholdMinor}`).join(', ') || 'off';
    await this.audit(caller, 'approval_policy.changed', described, origin);
    return this.deps.store.policy(caller.merchantId);
  }

  /**
   * A payout submitted from the dashboard. Checked at once as the API would (catalog, phone,
   * limits, KYC in live: a refusal stores nothing); the balance is checked when it executes.
   */
  async submitPayout(caller: MemberCaller, environment: Environment, submission: PayoutSubmission, origin: RequestOrigin): Promise<ApprovalRequest> {
    const ctx = await this.contextOf(caller.merchantId, environment);
    const id = this.deps.newId();
    const prepared = this.deps.payouts.prepare(ctx, payoutInput(submission, id));
    const request = await this.record(caller, environment, { id, kind: 'payout', request: submission, amountMinor: prepared.amountMinor, currency: prepared.currency }, origin);
    return request.approvalRequired ? request : this.executeAtOnce(request, caller, origin);
  }

  /** A draft batch's execution submitted from the dashboard; a batch already waiting answers its request. */
  async submitBatch(caller: MemberCaller, environment: Environment, batchId: string, origin: RequestOrigin): Promise<{ request: ApprovalRequest; created: boolean }> {
    const ctx = await this.contextOf(caller.merchantId, environment);
    const { batch } = await this.deps.bulk.get(ctx, batchId);
    const open = await this.deps.store.openForBatch(caller.merchantId, environment, batch.id, this.now());
    if (open) return { request: open, created: false };
    if (batch.status !== 'draft') throw new AkweError('invalid_state_transition', `The batch is ${batch.status}; only a draft batch is submitted for execution.`);
    const request = await this.record(
      caller,
      environment,
      { id: this.deps.newId(), kind: 'batch', request: { batch_id: batch.id }, amountMinor: batch.totalAmountMinor, currency: batch.currency },
      origin,
    );
    return { request: request.approvalRequired ? request : await this.executeAtOnce(request, caller, origin), created: true };
  }

  /** A wallet transfer submitted from the dashboard, checked at once as the API would (the balance when it executes). */
  async submitTransfer(caller: MemberCaller, environment: Environment, submission: TransferSubmission, origin: RequestOrigin): Promise<ApprovalRequest> {
    const ctx = await this.contextOf(caller.merchantId, environment);
    const { currency } = await this.deps.transfers.prepare(ctx, transferInput(submission));
    const request = await this.record(
      caller,
      environment,
      { id: this.deps.newId(), kind: 'transfer', request: submission, amountMinor: submission.amount_minor, currency },
      origin,
    );
    return request.approvalRequired ? request : this.executeAtOnce(request, caller, origin);
  }

  /**
   * A settlement submitted from the dashboard. Without an amount it is for the whole available
   * balance as it is now: that figure is what the threshold compares, what the checker approves and
   * what the execution settles (docs/decisions.md), never more.
   */
  async submitSettlement(caller: MemberCaller, environment: Environment, submission: SettlementSubmission, origin: RequestOrigin): Promise<ApprovalRequest> {
    const ctx = await this.contextOf(caller.merchantId, environment);
    const { account, amountMinor } = await this.deps.settlements.prepare(ctx, settlementInput(submission));
    const request = await this.record(caller, environment, { id: this.deps.newId(), kind: 'settlement', request: submission, amountMinor, currency: account.currency }, origin);
    return request.approvalRequired ? request : this.executeAtOnce(request, caller, origin);
  }

  /** A refund submitted from the dashboard; without an amount, for all that is left of the payment now. */
  async submitRefund(caller: MemberCaller, environment: Environment, submission: RefundSubmission, origin: RequestOrigin): Promise<ApprovalRequest> {
    const ctx = await this.contextOf(caller.merchantId, environment);
    const { payment, amountMinor } = await this.deps.refunds.refundable(ctx, submission.payment, submission.amount_minor);
    const request = await this.record(caller, environment, { id: this.deps.newId(), kind: 'refund', request: submission, amountMinor, currency: payment.currency }, origin);
    return request.approvalRequired ? request : this.executeAtOnce(request, caller, origin);
  }

  async get(caller: MemberCaller, environment: Environment, id: string): Promise<ApprovalRequest> {
    const request = await this.deps.store.find(caller.merchantId, environment, id.toLowerCase());
    if (!request) throw new AkweError('not_found', `no approval request with id ${id}`);
    return asOf(request, this.now());
  }

  async list(caller: MemberCaller, environment: Environment, filter: { status?: ApprovalStatus; limit: number; startingAfter?: string }) {
    const now = this.now();
    const page = await this.deps.store.page(caller.merchantId, environment, { ...filter, startingAfter: filter.startingAfter?.toLowerCase(), now });
    if (!page) throw AkweError.ofField('invalid_cursor', 'starting_after', 'starting_after must be the next_cursor of a previous page of this list.');
    return { ...page, data: page.data.map((request) => asOf(request, now)) };
  }

  /**
   * The second user's approval, then the execution. Only a pending request is approved, never by
   * its maker; the move to `approved` is conditional, so of two approvers racing one executes and
   * the other gets 409. An expired request is never approved (409 approval_expired), the expiry
   * being a condition of that move too. An approved request whose execution did not finish (a fault
   * of ours, an operator down) is executed again by a later approval, once the lease of the first has passed.
   */
  async approve(caller: MemberCaller, environment: Environment, id: string, origin: RequestOrigin): Promise<ApprovalRequest> {
    const request = await this.get(caller, environment, id);
    if (request.makerId === caller.user.id && request.approvalRequired) throw new AkweError('self_approval_forbidden');
    if (request.status === 'approved' && this.executionAbandoned(request)) {
      // Taken over by one approval only: the others racing for it find it changed.
      const takenOver = { status: 'approved' as const, updatedAt: this.now() };
      if (!(await this.deps.store.move(request.id, 'approved', takenOver, { updatedAt: request.updatedAt }))) throw notPending(request.status);
      return this.execute({ ...request, ...takenOver }, caller, origin);
    }
    if (request.status !== 'pending') throw notPending(request.status);
    const now = this.now();
    const decision = { status: 'approved' as const, decidedBy: caller.user.id, decidedAt: now, updatedAt: now };
    if (!(await this.deps.store.move(request.id, 'pending', decision, { unexpiredAt: now }))) throw notPending((await this.get(caller, environment, id)).status);
    await this.audit(caller, 'approval.approved', describe(request), origin);
    return this.execute({ ...request, ...decision }, caller, origin);
  }

  /** A pending request refused (by a decider, or withdrawn by its maker): nothing is executed. */
  async reject(caller: MemberCaller, environment: Environment, id: string, reason: string, origin: RequestOrigin): Promise<ApprovalRequest> {
    const request = await this.get(caller, environment, id);
    if (request.status !== 'pending') throw notPending(request.status);
    const now = this.now();
    const decision = { status: 'rejected' as const, decidedBy: caller.user.id, decidedAt: now, reason, updatedAt: now };
    if (!(await this.deps.store.move(request.id, 'pending', decision, { unexpiredAt: now }))) throw notPending((await this.get(caller, environment, id)).status);
    await this.audit(caller, 'approval.rejected', `${describe(request)}: ${reason}`, origin);
    return { ...request, ...decision };
  }

  /**
   * The merchant API's guard (docs/decisions.md): a dashboard session may not send live money-out
   * above the threshold there, around the approvals. API keys are not concerned.
   */
  async guardApiCall(principal: Principal, currency: string, amountMinor: number): Promise<void> {
    await this.guardApiCallMeasured(principal, async () => ({ currency, amountMinor }));
  }

  /**
   * The guard where the amount must be read first (a settlement of the whole balance, a refund of
   * all that is left): `measure` runs only for a live session of a merchant with thresholds.
   */
  async guardApiCallMeasured(principal: Principal, measure: () => Promise<{ currency: string; amountMinor: number }>): Promise<void> {
    if (!principal.actor || principal.environment !== 'live') return;
    const thresholds = await this.deps.store.policy(principal.merchantId);
    if (thresholds.length === 0) return;
    const { currency, amountMinor } = await measure();
    if (!needsApproval(thresholds, principal.environment, currency, amountMinor)) return;
    throw new AkweError(
      'approval_required',
      `Live money-out above the merchant's approval threshold (${currency.toUpperCase()}) needs a second user's approval: submit it at ${approvalsPath(principal.merchantId)}.`,
    );
  }

  private async record(
    caller: MemberCaller,
    environment: Environment,
    submitted: Pick<ApprovalRequest, 'id' | 'kind' | 'request' | 'amountMinor' | 'currency'>,
    origin: RequestOrigin,
  ): Promise<ApprovalRequest> {
    const required = needsApproval(await this.deps.store.policy(caller.merchantId), environment, submitted.currency, submitted.amountMinor);
    const now = this.now();
    const request: ApprovalRequest = {
      ...submitted,
      merchantId: caller.merchantId,
      environment,
      approvalRequired: required,
      makerId: caller.user.id,
      // Needing no second user, it is approved by its submission.
      status: required ? 'pending' : 'approved',
      decidedBy: null,
      decidedAt: null,
      reason: null,
      resultId: null,
      resultStatus: null,
      errorCode: null,
      errorMessage: null,
      createdAt: now,
      updatedAt: now,
      expiresAt: required ? new Date(Date.parse(now) + this.expiryMs).toISOString() : null,
    };
    await this.deps.store.insert(request);
    await this.audit(caller, 'approval.submitted', `${describe(request)}${required ? ', awaiting approval' : ', no approval needed'}`, origin);
    if (required) this.deps.notices?.waiting(request, caller.user);
    return request;
  }

  /** A submission needing no approval: executed now; a refusal of the execution is the submission's answer. */
  private async executeAtOnce(request: ApprovalRequest, caller: MemberCaller, origin: RequestOrigin): Promise<ApprovalRequest> {
    const executed = await this.execute(request, caller, origin);
    if (executed.status === 'failed' && executed.errorCode) throw new AkweError(executed.errorCode as AkweError['code'], executed.errorMessage ?? undefined);
    return executed;
  }

  /**
   * Executes an approved request. A refusal (4xx: the balance, a reference taken, a batch no longer
   * a draft) fails the request; any other error leaves it approved, to be executed again.
   */
  private async execute(request: ApprovalRequest, caller: MemberCaller, origin: RequestOrigin): Promise<ApprovalRequest> {
    let result: { id: string; status: string };
    try {
      const ctx = await this.contextOf(request.merchantId, request.environment);
      result = await this.executors[request.kind](ctx, request);
    } catch (error) {
      if (!(error instanceof AkweError) || error.status >= 500) throw error;
      const failed = { status: 'failed' as const, errorCode: error.code, errorMessage: error.message, updatedAt: this.now() };
      if (!(await this.deps.store.move(request.id, 'approved', failed))) return this.get(caller, request.environment, request.id);
      await this.audit(caller, 'approval.failed', `${describe(request)}: ${error.code}`, origin);
      return { ...request, ...failed };
    }
    const executed = { status: 'executed' as const, resultId: result.id, resultStatus: result.status, updatedAt: this.now() };
    if (!(await this.deps.store.move(request.id, 'approved', executed))) return this.get(caller, request.environment, request.id);
    await this.audit(caller, 'approval.executed', `${describe(request)} -> ${request.kind} ${result.id} (${result.status})`, origin);
    return { ...request, ...executed };
  }

  private readonly executors: Record<ApprovalRequest['kind'], (ctx: PaymentContext, request: ApprovalRequest) => Promise<{ id: string; status: string }>> = {
    payout: (ctx, request) => this.executePayout(ctx, request),
    batch: (ctx, request) => this.executeBatch(ctx, request),
    transfer: (ctx, request) => this.executeTransfer(ctx, request),
    settlement: (ctx, request) => this.executeSettlement(ctx, request),
    refund: (ctx, request) => this.executeRefund(ctx, request),
  };

  // Each execution first looks for what an earlier, interrupted execution of this request made (its id is the request's).
  private async executeTransfer(ctx: PaymentContext, request: ApprovalRequest): Promise<{ id: string; status: string }> {
    const made = await unlessNotFound(this.deps.transfers.get(ctx, request.id));
    const transfer = made ?? (await this.deps.transfers.create(ctx, { ...transferInput(request.request as TransferSubmission), id: request.id }));
    return { id: transfer.id, status: 'completed' };
  }

  private async executeSettlement(ctx: PaymentContext, request: ApprovalRequest): Promise<{ id: string; status: string }> {
    const made = await unlessNotFound(this.deps.settlements.get(ctx, request.id));
    // The amount approved, whether it was asked or read from the balance at submission.
    const input = { ...settlementInput(request.request as SettlementSubmission), amountMinor: request.amountMinor, id: request.id };
    const settlement = made ?? (await this.deps.settlements.create(ctx, input));
    return { id: settlement.id, status: settlement.status };
  }

  private async executeRefund(ctx: PaymentContext, request: ApprovalRequest): Promise<{ id: string; status: string }> {
    const submission = request.request as RefundSubmission;
    const made = await unlessNotFound(this.deps.refunds.getRefund(ctx, submission.payment, request.id));
    const refund = made ?? (await this.deps.refunds.refund(ctx, submission.payment, { amountMinor: request.amountMinor, reason: submission.reason, id: request.id })).refund;
    return { id: refund.id, status: refund.status };
  }

  private async executePayout(ctx: PaymentContext, request: ApprovalRequest): Promise<{ id: string; status: string }> {
    // The payout's id is the request's: an execution that is resumed finds the payout it made.
    const made = await unlessNotFound(this.deps.payouts.get(ctx, request.id));
    const payout = made ?? (await this.deps.payouts.create(ctx, payoutInput(request.request as PayoutSubmission, request.id)));
    return { id: payout.id, status: payout.status };
  }

  private async executeBatch(ctx: PaymentContext, request: ApprovalRequest): Promise<{ id: string; status: string }> {
    const { batch } = await this.deps.bulk.validate(ctx, (request.request as { batch_id: string }).batch_id);
    return { id: batch.id, status: batch.status };
  }

  private executionAbandoned(request: ApprovalRequest): boolean {
    return this.deps.clock.now().getTime() - Date.parse(request.updatedAt) >= this.leaseMs;
  }

  private async contextOf(merchantId: string, environment: Environment): Promise<PaymentContext> {
    return { merchant: await this.deps.merchants.getMerchant(merchantId), merchantId, environment };
  }

  private async audit(caller: MemberCaller, action: AuditAction, target: string, origin: RequestOrigin): Promise<void> {
    await this.deps.audit.insertAudit(auditEntry(this.deps, { action, userId: caller.user.id, merchantId: caller.merchantId, target }, origin));
  }

  private now(): string {
    return isoNow(this.deps.clock);
  }
}

const notPending = (status: ApprovalStatus) =>
  status === 'expired' ? new AkweError('approval_expired') : new AkweError('approval_not_pending', `This request is ${status}; only a pending request is approved or rejected.`);

/** What the lookup found, or undefined where it answered not_found. */
const unlessNotFound = <T>(lookup: Promise<T>): Promise<T | undefined> =>
  lookup.catch((error: unknown) => {
    if (error instanceof AkweError && error.code === 'not_found') return undefined;
    throw error;
  });

const transferInput = (submission: TransferSubmission) => ({
  receiver: submission.receiver,
  amountMinor: submission.amount_minor,
  currency: submission.currency,
  reference: submission.reference,
  description: submission.description,
  metadata: submission.metadata,
});

const settlementInput = (submission: SettlementSubmission) => ({
  accountId: submission.settlement_account,
  currency: submission.currency,
  amountMinor: submission.amount_minor,
  reference: submission.reference,
  description: submission.description,
  metadata: submission.metadata,
});

const describe = (request: ApprovalRequest) => `${request.id} (${request.environment} ${request.kind}, ${request.amountMinor} ${request.currency})`;

function payoutInput(submission: PayoutSubmission, id: string): CreatePayoutInput {
  return {
    id,
    reference: submission.reference,
    amountMinor: submission.amount,
    currency: submission.currency,
    phone: submission.phone,
    country: submission.country,
    operator: submission.operator,
    recipientFirstName: submission.recipient_first_name,
    recipientLastName: submission.recipient_last_name,
    description: submission.description,
    metadata: submission.metadata,
  };
}
