import type { Environment } from '../shared/environment.js';

/**
 * Maker-checker approvals (docs/dashboard.md "Approvals (maker-checker)"). A dashboard user submits
 * money-out (a payout, a batch execution, a wallet transfer, a settlement, a refund); in live above
 * the merchant's threshold it waits, `pending`, for a second user to approve (then it is executed:
 * `executed`, or `failed` with the execution's error) or reject it, until it expires. Otherwise it
 * is executed at once, `approvalRequired` false.
 */
export const storedApprovalStatuses = ['pending', 'approved', 'executed', 'rejected', 'failed'] as const;
/** `expired` is never stored: it is a `pending` request whose `expiresAt` has passed. */
export const approvalStatuses = [...storedApprovalStatuses, 'expired'] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];
export type StoredApprovalStatus = (typeof storedApprovalStatuses)[number];

export const approvalKinds = ['payout', 'batch', 'transfer', 'settlement', 'refund'] as const;
export type ApprovalKind = (typeof approvalKinds)[number];

/** How long a request waits for its approval by default: 72 hours (APPROVAL_EXPIRY_HOURS). */
export const DEFAULT_APPROVAL_EXPIRY_MS = 72 * 3_600_000;

/** The payout as submitted, in the payout contract's words (amounts in centimes). */
export interface PayoutSubmission {
  reference: string;
  amount: number;
  currency?: string;
  phone: string;
  country: string;
  operator: string;
  recipient_first_name?: string;
  recipient_last_name?: string;
  description?: string;
  metadata?: Record<string, string>;
}

/** A wallet transfer as submitted, in the transfer API's words (centimes). */
export interface TransferSubmission {
  receiver: string;
  amount_minor: number;
  currency: string;
  reference: string;
  description?: string;
  metadata?: Record<string, string>;
}

/**
 * A settlement as submitted, in the settlement API's words (centimes). Without `amount_minor` (the
 * whole available balance) the request is for the balance at submission, and executes that amount.
 */
export interface SettlementSubmission {
  settlement_account: string;
  currency: string;
  amount_minor?: number;
  reference?: string;
  description?: string;
  metadata?: Record<string, string>;
}

/** A refund as submitted: the payment (reference or id), centimes (all that is left when absent), a reason. */
export interface RefundSubmission {
  payment: string;
  amount_minor?: number;
  reason?: string;
}

export type ApprovalRequestBody = PayoutSubmission | { batch_id: string } | TransferSubmission | SettlementSubmission | RefundSubmission;

export interface ApprovalRequest {
  id: string;
  merchantId: string;
  environment: Environment;
  kind: ApprovalKind;
  request: ApprovalRequestBody;
  amountMinor: number;
  currency: string;
  approvalRequired: boolean;
  makerId: string;
  status: ApprovalStatus;
  decidedBy: string | null;
  decidedAt: string | null;
  /** Why it was rejected. */
  reason: string | null;
  /** The payout's id, or the batch's. */
  resultId: string | null;
  /** The payout's or the batch's status right after the execution. */
  resultStatus: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  createdAt: string;
  updatedAt: string;
  /** Past this instant a pending request is `expired` and can no longer be approved; null when it never waited. */
  expiresAt: string | null;
}

/** The request as it stands at `now`: a pending one past its expiry reads `expired`. */
export function asOf(request: ApprovalRequest, now: string): ApprovalRequest {
  return request.status === 'pending' && request.expiresAt !== null && request.expiresAt <= now ? { ...request, status: 'expired' } : request;
}

/** Per currency, the live amount (minor units) above which money-out needs approval. No entry: none needed. */
export interface ApprovalThreshold {
  currency: string;
  thresholdMinor: number;
}

export interface ApprovalPolicy {
  merchantId: string;
  thresholds: ApprovalThreshold[];
}

/** The approvals' storage (storage/repositories/approval-repository.ts). */
export interface ApprovalStore {
  policy(merchantId: string): Promise<ApprovalThreshold[]>;
  /** Replaces the merchant's thresholds whole. */
  setPolicy(merchantId: string, thresholds: ApprovalThreshold[], by: string, at: string): Promise<void>;
  insert(request: ApprovalRequest): Promise<void>;
  find(merchantId: string, environment: Environment, id: string): Promise<ApprovalRequest | undefined>;
  /** A batch's request still waiting (unexpired at `now`) or being executed, if any. */
  openForBatch(merchantId: string, environment: Environment, batchId: string, now: string): Promise<ApprovalRequest | undefined>;
  /**
   * Newest first; undefined when `startingAfter` is no request of this merchant and environment.
   * `pending` means unexpired at `now`, `expired` a pending one whose expiry has passed.
   */
  page(
    merchantId: string,
    environment: Environment,
    filter: { status?: ApprovalStatus; limit: number; startingAfter?: string; now: string },
  ): Promise<{ data: ApprovalRequest[]; hasMore: boolean } | undefined>;
  /**
   * Moves a request from `from` to `changes.status` only if it is still in `from`: the condition
   * of the update, so of two deciders racing only one moves it. False when it had moved already.
   * With `updatedAt`, only if the request was last changed then (taking over an abandoned execution);
   * with `unexpiredAt`, only if it has not expired at that instant.
   */
  move(
    id: string,
    from: StoredApprovalStatus,
    changes: Partial<Omit<ApprovalRequest, 'id' | 'merchantId' | 'environment' | 'kind' | 'request' | 'status'>> & { status: StoredApprovalStatus },
    condition?: { updatedAt?: string; unexpiredAt?: string },
  ): Promise<boolean>;
}

/** Whether money-out of this amount needs a second user: live only, and above the currency's threshold. */
export function needsApproval(thresholds: readonly ApprovalThreshold[], environment: Environment, currency: string, amountMinor: number): boolean {
  if (environment !== 'live') return false;
  const threshold = thresholds.find((t) => t.currency === currency.toUpperCase());
  return threshold !== undefined && amountMinor > threshold.thresholdMinor;
}
