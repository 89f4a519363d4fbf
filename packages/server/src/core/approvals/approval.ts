import type { Environment } from '../shared/environment.js';

/**
 * Maker-checker approvals (docs/dashboard.md "Approvals (maker-checker)"). A dashboard user submits
 * a payout or a batch execution; in live above the merchant's threshold it waits, `pending`, for a
 * second user to approve (then it is executed: `executed`, or `failed` with the execution's error)
 * or reject it. Otherwise it is executed at once, `approvalRequired` false.
 */
export const approvalStatuses = ['pending', 'approved', 'executed', 'rejected', 'failed'] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];

export type ApprovalKind = 'payout' | 'batch';

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

export type ApprovalRequestBody = PayoutSubmission | { batch_id: string };

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
  /** A batch's request still waiting or being executed, if any. */
  openForBatch(merchantId: string, environment: Environment, batchId: string): Promise<ApprovalRequest | undefined>;
  /** Newest first; undefined when `startingAfter` is no request of this merchant and environment. */
  page(
    merchantId: string,
    environment: Environment,
    filter: { status?: ApprovalStatus; limit: number; startingAfter?: string },
  ): Promise<{ data: ApprovalRequest[]; hasMore: boolean } | undefined>;
  /**
   * Moves a request from `from` to `changes.status` only if it is still in `from`: the condition
   * of the update, so of two deciders racing only one moves it. False when it had moved already.
   * With `updatedAt`, only if the request was last changed then (taking over an abandoned execution).
   */
  move(
    id: string,
    from: ApprovalStatus,
    changes: Partial<Omit<ApprovalRequest, 'id' | 'merchantId' | 'environment' | 'kind' | 'request'>> & { status: ApprovalStatus },
    updatedAt?: string,
  ): Promise<boolean>;
}

/** Whether money-out of this amount needs a second user: live only, and above the currency's threshold. */
export function needsApproval(thresholds: readonly ApprovalThreshold[], environment: Environment, currency: string, amountMinor: number): boolean {
  if (environment !== 'live') return false;
  const threshold = thresholds.find((t) => t.currency === currency.toUpperCase());
  return threshold !== undefined && amountMinor > threshold.thresholdMinor;
}
