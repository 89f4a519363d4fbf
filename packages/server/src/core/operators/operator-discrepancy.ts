import type { Environment } from '../shared/environment.js';

/**
 * An operator's answer our state machine refuses (e.g. SUCCESSFUL for a payment we already
 * expired: the customer paid after all). The resource keeps its status; the answer is kept here
 * for a person to decide (refund the customer, or accept the money), and listed by
 * `akwe reconcile discrepancies`.
 */
export interface OperatorDiscrepancy {
  id: string;
  merchantId: string;
  environment: Environment;
  resourceType: 'payment' | 'payout';
  resourceId: string;
  reference: string;
  operator: string;
  /** Our status when the answer came. */
  ourStatus: string;
  /** The status the operator reported. */
  operatorStatus: string;
  operatorReference: string | null;
  message: string | null;
  createdAt: string;
  resolvedAt: string | null;
  resolution: string | null;
}

export interface DiscrepancyStore {
  /** Stores it unless the same answer about the same resource is stored already; true when new. */
  record(discrepancy: OperatorDiscrepancy): Promise<boolean>;
  list(filter: { unresolvedOnly: boolean; limit: number }): Promise<OperatorDiscrepancy[]>;
  /** Marks it decided with a note; undefined when there is no such discrepancy. */
  resolve(id: string, resolution: string, at: string): Promise<OperatorDiscrepancy | undefined>;
}
