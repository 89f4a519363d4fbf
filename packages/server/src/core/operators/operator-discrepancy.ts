import type { Clock, IdSource } from '../ports.js';
import type { Environment } from '../shared/environment.js';

/**
 * What a discrepancy is: an operator's answer our state machine refused (`operator_answer`), or
 * what a reconciliation against the provider's report found (docs/operations.md "Reconciliation"):
 * a line of theirs we have no record of, a record of ours their report lacks, or both with a
 * different amount or status.
 */
export const discrepancyKinds = ['operator_answer', 'missing_at_provider', 'missing_at_akwe', 'amount_differs', 'status_differs'] as const;
export type DiscrepancyKind = (typeof discrepancyKinds)[number];

/**
 * Something an operator reports that our records do not hold (e.g. SUCCESSFUL for a payment we
 * already expired: the customer paid after all; or a payout missing from its report). The
 * resource keeps its status; the discrepancy is kept for a person to decide (refund the customer,
 * accept the money, ask the provider), and listed by `akwe reconcile discrepancies`.
 */
export interface OperatorDiscrepancy {
  id: string;
  kind: DiscrepancyKind;
  /** Null: a provider's line we have no record of. */
  merchantId: string | null;
  environment: Environment;
  resourceType: 'payment' | 'payout' | 'refund';
  /** Null: a provider's line we have no record of. */
  resourceId: string | null;
  reference: string;
  operator: string;
  /** Our status when the answer came (`absent`: we have no record). */
  ourStatus: string;
  /** The status the operator reported (`absent`: not in its report). */
  operatorStatus: string;
  operatorReference: string | null;
  message: string | null;
  createdAt: string;
  resolvedAt: string | null;
  resolution: string | null;
  /** The route whose report showed it; null for operator answers. */
  route: string | null;
  currency: string | null;
  ourAmountMinor: number | null;
  operatorAmountMinor: number | null;
  reconciliationRunId: string | null;
}

export interface DiscrepancyStore {
  /** Stores it unless the same one (kind, resource and reported status; or kind, route and provider reference) is stored already; true when new. */
  record(discrepancy: OperatorDiscrepancy): Promise<boolean>;
  list(filter: { unresolvedOnly: boolean; limit: number }): Promise<OperatorDiscrepancy[]>;
  /** Marks it decided with a note; undefined when there is no such discrepancy. */
  resolve(id: string, resolution: string, at: string): Promise<OperatorDiscrepancy | undefined>;
}

/** The fields only a reconciliation fills. */
type ReconciliationFields = 'kind' | 'route' | 'currency' | 'ourAmountMinor' | 'operatorAmountMinor' | 'reconciliationRunId';

/** An operator's answer, as the code that met it knows it; the keeper gives it its id, time and kind. */
export type DiscrepancyReport = Omit<OperatorDiscrepancy, 'id' | 'createdAt' | 'resolvedAt' | 'resolution' | ReconciliationFields> & {
  merchantId: string;
  resourceType: 'payment' | 'payout';
  resourceId: string;
};

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
    const discrepancy: OperatorDiscrepancy = {
      ...report,
      id: this.deps.newId(),
      kind: 'operator_answer',
      createdAt: this.deps.clock.now().toISOString(),
      resolvedAt: null,
      resolution: null,
      route: null,
      currency: null,
      ourAmountMinor: null,
      operatorAmountMinor: null,
      reconciliationRunId: null,
    };
    const fresh = this.deps.store ? await this.deps.store.record(discrepancy) : true;
    if (fresh) this.deps.onNew?.(discrepancy);
  }
}
