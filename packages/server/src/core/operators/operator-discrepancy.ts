import type { Clock, IdSource } from '../ports.js';
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

/** What a discrepancy is about, as the code that met it knows it; the keeper gives it its id and time. */
export type DiscrepancyReport = Omit<OperatorDiscrepancy, 'id' | 'createdAt' | 'resolvedAt' | 'resolution'>;

/** Keeps each new discrepancy once, and tells of it (the server logs it at error level). */
export class DiscrepancyKeeper {
  constructor(
    private readonly deps: {
      /** None: only told of. */
      store?: DiscrepancyStore;
      onNew?: (discrepancy: OperatorDiscrepancy) => void;
      newId: IdSource;
      clock: Clock;
    },
  ) {}

  async keep(report: DiscrepancyReport): Promise<void> {
    const discrepancy: OperatorDiscrepancy = { ...report, id: this.deps.newId(), createdAt: this.deps.clock.now().toISOString(), resolvedAt: null, resolution: null };
    const fresh = this.deps.store ? await this.deps.store.record(discrepancy) : true;
    if (fresh) this.deps.onNew?.(discrepancy);
  }
}
