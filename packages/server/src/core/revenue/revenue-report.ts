import { auditEntry, type DashboardStore, type RequestOrigin } from '../dashboard/dashboard-user.js';
import type { Clock } from '../ports.js';
import { costFor, providerCostMinor, type ProviderCosts } from './provider-costs.js';
import type { RevenueCell, RevenueFlow, RevenueLedger } from './revenue-ledger.js';
import type { RevenueGrouping, RevenueQuery } from './revenue-query.js';

/** What one row of the report is about; only the fields of its grouping are set. */
export interface RevenueKey {
  day?: string;
  merchantId?: string;
  merchantName?: string;
  operator?: string | null;
  route?: string | null;
  /** Grouping by route splits each route by flow: the provider's costs are per route and flow. */
  flow?: RevenueFlow;
}

/** Money of a row or a total, in centimes, exact. */
export interface RevenueAmounts {
  currency: string;
  feesMinor: number;
  volumeMinor: number;
  count: number;
  costsMinor: number;
  /** Fees less the provider's costs. */
  marginMinor: number;
  /** Whether every transaction of it that went through a route had that route's cost configured. */
  costsComplete: boolean;
}

export type RevenueRow = RevenueKey & RevenueAmounts;

export interface RevenueReport {
  query: RevenueQuery;
  rows: RevenueRow[];
  /** One per currency: the fees accounts' movement over the period. */
  totals: RevenueAmounts[];
}

const keyOf: Record<RevenueGrouping, (cell: RevenueCell) => RevenueKey> = {
  day: (cell) => ({ day: cell.day }),
  operator: (cell) => ({ operator: cell.operator }),
  route: (cell) => ({ operator: cell.operator, route: cell.route, flow: cell.flow }),
  merchant: (cell) => ({ merchantId: cell.merchantId, merchantName: cell.merchantName }),
};

function emptyAmounts(currency: string): RevenueAmounts {
  return { currency, feesMinor: 0, volumeMinor: 0, count: 0, costsMinor: 0, marginMinor: 0, costsComplete: true };
}

function add(into: RevenueAmounts, cell: RevenueCell, costs: ProviderCosts): void {
  const cost = costFor(costs, cell);
  const costMinor = providerCostMinor(cost, cell);
  into.feesMinor += cell.feesMinor;
  into.volumeMinor += cell.volumeMinor;
  into.count += cell.count;
  into.costsMinor += costMinor;
  into.marginMinor += cell.feesMinor - costMinor;
  if (!cost && cell.route !== null && cell.flow !== 'transfer' && cell.flow !== 'other') into.costsComplete = false;
}

/** Rows in a stable order: days ascending; otherwise the largest fees first. */
function compareRows(grouping: RevenueGrouping) {
  return (a: RevenueRow, b: RevenueRow): number => {
    if (grouping === 'day') return (a.day ?? '').localeCompare(b.day ?? '') || a.currency.localeCompare(b.currency);
    return b.feesMinor - a.feesMinor || JSON.stringify(a).localeCompare(JSON.stringify(b));
  };
}

/**
 * Platform revenue (docs/operations.md "Revenue"): the fees accounts' movement over a period, per
 * day, operator, route or merchant, with the providers' costs and the margin. Every row and total
 * adds up the same cells, so each grouping's totals are the fees accounts' movement.
 */
export class RevenueReports {
  constructor(
    private readonly ledger: RevenueLedger,
    private readonly costs: ProviderCosts,
    /** Where an administrator's download of the report is written (the audit log, as KYC document downloads). */
    private readonly audit: { store: Pick<DashboardStore, 'insertAudit'>; clock: Clock; newId: () => string },
  ) {}

  /** Writes `admin.revenue_exported` (no merchant: the report covers them all), with the period and grouping. */
  async recordExport(userId: string, query: RevenueQuery, origin: RequestOrigin): Promise<void> {
    const target = `${query.environment} ${query.groupBy} ${query.fromDay}..${query.toDay}`;
    await this.audit.store.insertAudit(auditEntry(this.audit, { action: 'admin.revenue_exported', userId, merchantId: null, target }, origin));
  }

  async report(query: RevenueQuery): Promise<RevenueReport> {
    const cells = await this.ledger.cells(query.period, query.environment);
    const rows = new Map<string, RevenueRow>();
    const totals = new Map<string, RevenueAmounts>();
    for (const cell of cells) {
      const key = keyOf[query.groupBy](cell);
      const id = JSON.stringify([key, cell.currency]);
      let row = rows.get(id);
      if (!row) rows.set(id, (row = { ...key, ...emptyAmounts(cell.currency) }));
      add(row, cell, this.costs);
      let total = totals.get(cell.currency);
      if (!total) totals.set(cell.currency, (total = emptyAmounts(cell.currency)));
      add(total, cell, this.costs);
    }
    return {
      query,
      rows: [...rows.values()].sort(compareRows(query.groupBy)),
      totals: [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency)),
    };
  }
}
