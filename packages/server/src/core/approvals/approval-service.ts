import { auditEntry } from '../dashboard/dashboard-user.js';
import type { BulkService } from '../bulk/bulk-service.js';
import type { MemberCaller } from '../dashboard/dashboard-service.js';
import type { AuditAction, AuditEntry, RequestOrigin } from '../dashboard/dashboard-user.js';
import { AkweError } from '../errors/index.js';
import type { Merchant } from '../merchants/merchant.js';
import type { Principal } from '../merchants/principal.js';
import type { PaymentContext } from '../payments/payment-service.js';
import type { CreatePayoutInput, PayoutService } from '../payouts/payout-service.js';
import type { Clock, IdSource } from '../ports.js';
import { isoNow } from '../shared/clock.js';
import type { Environment } from '../shared/environment.js';
import { needsApproval, type ApprovalRequest, type ApprovalStatus, type ApprovalStore, type ApprovalThreshold, type PayoutSubmission } from './approval.js';

export interface ApprovalServiceDeps {
  store: ApprovalStore;
  /** The dashboard's audit log. */
  audit: { insertAudit(entry: AuditEntry): Promise<void> };
  payouts: PayoutService;
  bulk: BulkService;
  merchants: { getMerchant(id: string): Promise<Merchant> };
  clock: Clock;
  newId: IdSource;
  /** How long an approved request's execution is presumed still running before approving again retries it (ms). */
  executionLeaseMs?: number;
}

const DEFAULT_EXECUTION_LEASE_MS = 60_000;

/** Where a dashboard session submits money-out that needs approval (the merchant API's 403 names it). */
export const approvalsPath = (merchantId: string) => `/api/v1/dashboard/merchants/${merchantId}/approvals`;

/**
 * Maker-checker for live money-out (docs/dashboard.md "Approvals (maker-checker)"). Callers come
 * from DashboardService.actingIn, which has checked membership and the role's permission. Every
 * submission is kept with its maker; one that needs no second user (test, or at or below the
 * threshold) is executed at once. Execution goes through PayoutService and BulkService, with the
 * checks and balance rules of the API, and is idempotent by the request's id: the payout's id is
 * the request's, and a batch's validation answers a processing batch as it is.
 */
export class ApprovalService {
  private readonly leaseMs: number;

  constructor(private readonly deps: ApprovalServiceDeps) {
    this.leaseMs = deps.executionLeaseMs ?? DEFAULT_EXECUTION_LEASE_MS;
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
    const open = await this.deps.store.openForBatch(caller.merchantId, environment, batch.id);
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

  async get(caller: MemberCaller, environment: Environment, id: string): Promise<ApprovalRequest> {
    const request = await this.deps.store.find(caller.merchantId, environment, id.toLowerCase());
    if (!request) throw new AkweError('not_found', `no approval request with id ${id}`);
    return request;
  }

  async list(caller: MemberCaller, environment: Environment, filter: { status?: ApprovalStatus; limit: number; startingAfter?: string }) {
    const page = await this.deps.store.page(caller.merchantId, environment, { ...filter, startingAfter: filter.startingAfter?.toLowerCase() });
    if (!page) throw AkweError.ofField('invalid_cursor', 'starting_after', 'starting_after must be the next_cursor of a previous page of this list.');
    return page;
  }

  /**
   * The second user's approval, then the execution. Only a pending request is approved, never by
   * its maker; the move to `approved` is conditional, so of two approvers racing one executes and
   * the other gets 409. An approved request whose execution did not finish (a fault of ours, an
   * operator down) is executed again by a later approval, once the lease of the first has passed.
   */
  async approve(caller: MemberCaller, environment: Environment, id: string, origin: RequestOrigin): Promise<ApprovalRequest> {
    const request = await this.get(caller, environment, id);
    if (request.makerId === caller.user.id && request.approvalRequired) throw new AkweError('self_approval_forbidden');
    if (request.status === 'approved' && this.executionAbandoned(request)) {
      // Taken over by one approval only: the others racing for it find it changed.
      const takenOver = { status: 'approved' as const, updatedAt: this.now() };
      if (!(await this.deps.store.move(request.id, 'approved', takenOver, request.updatedAt))) throw notPending(request.status);
      return this.execute({ ...request, ...takenOver }, caller, origin);
    }
    if (request.status !== 'pending') throw notPending(request.status);
    const now = this.now();
    const decision = { status: 'approved' as const, decidedBy: caller.user.id, decidedAt: now, updatedAt: now };
    if (!(await this.deps.store.move(request.id, 'pending', decision))) throw notPending((await this.get(caller, environment, id)).status);
    await this.audit(caller, 'approval.approved', describe(request), origin);
    return this.execute({ ...request, ...decision }, caller, origin);
  }

  /** A pending request refused (by a decider, or withdrawn by its maker): nothing is executed. */
  async reject(caller: MemberCaller, environment: Environment, id: string, reason: string, origin: RequestOrigin): Promise<ApprovalRequest> {
    const request = await this.get(caller, environment, id);
    if (request.status !== 'pending') throw notPending(request.status);
    const now = this.now();
    const decision = { status: 'rejected' as const, decidedBy: caller.user.id, decidedAt: now, reason, updatedAt: now };
    if (!(await this.deps.store.move(request.id, 'pending', decision))) throw notPending((await this.get(caller, environment, id)).status);
    await this.audit(caller, 'approval.rejected', `${describe(request)}: ${reason}`, origin);
    return { ...request, ...decision };
  }

  /**
   * The merchant API's guard (docs/decisions.md): a dashboard session may not send live money-out
   * above the threshold there, around the approvals. API keys are not concerned.
   */
  async guardApiCall(principal: Principal, currency: string, amountMinor: number): Promise<void> {
    if (!principal.actor || principal.environment !== 'live') return;
    if (!needsApproval(await this.deps.store.policy(principal.merchantId), principal.environment, currency, amountMinor)) return;
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
    };
    await this.deps.store.insert(request);
    await this.audit(caller, 'approval.submitted', `${describe(request)}${required ? ', awaiting approval' : ', no approval needed'}`, origin);
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
      result = request.kind === 'payout' ? await this.executePayout(ctx, request) : await this.executeBatch(ctx, request);
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

  private async executePayout(ctx: PaymentContext, request: ApprovalRequest): Promise<{ id: string; status: string }> {
    // The payout's id is the request's: an execution that is resumed finds the payout it made.
    const made = await this.deps.payouts.get(ctx, request.id).catch((error: unknown) => {
      if (error instanceof AkweError && error.code === 'not_found') return undefined;
      throw error;
    });
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

const notPending = (status: ApprovalStatus) => new AkweError('approval_not_pending', `This request is ${status}; only a pending request is approved or rejected.`);

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
