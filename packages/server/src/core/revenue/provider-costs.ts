import type { RevenueCell, RevenueFlow } from './revenue-ledger.js';

/** What a provider charges Akwe on one flow of one route: a percentage of the volume and a fixed part per transaction. */
export interface ProviderCost {
  percentBps: number;
  fixedMinor: number;
}

/** The provider's flows a cost is given for; a settlement by wallet is a payout at the provider. */
export const costFlows = ['collect', 'payout', 'refund'] as const;
export type CostFlow = (typeof costFlows)[number];

/** Costs per route label (`mtn_bj/mtn-momo`, as the operators file names routes) and flow. */
export type ProviderCosts = ReadonlyMap<string, Partial<Record<CostFlow, ProviderCost>>>;

export const noProviderCosts: ProviderCosts = new Map();

const costFlowOf: Record<RevenueFlow, CostFlow | undefined> = {
  collection: 'collect',
  payout: 'payout',
  settlement: 'payout',
  refund: 'refund',
  transfer: undefined,
  other: undefined,
};

/** The cost configured for a cell's route and flow; none for a cell without a route. */
export function costFor(costs: ProviderCosts, cell: Pick<RevenueCell, 'operator' | 'route' | 'flow'>): ProviderCost | undefined {
  const flow = costFlowOf[cell.flow];
  if (!flow || cell.operator === null || cell.route === null) return undefined;
  return costs.get(`${cell.operator}/${cell.route}`)?.[flow];
}

/**
 * The provider's cost of one cell, in centimes, exact: the percentage of its volume rounded up to
 * the centime (as fees are), plus the fixed part per transaction. A cell that gives fees back
 * (negative volume and count) gives the cost back the same way.
 */
export function providerCostMinor(cost: ProviderCost | undefined, cell: Pick<RevenueCell, 'volumeMinor' | 'count'>): number {
  if (!cost) return 0;
  const volume = BigInt(Math.abs(cell.volumeMinor));
  const percent = (volume * BigInt(cost.percentBps) + 9_999n) / 10_000n;
  const sign = cell.volumeMinor < 0 ? -1 : 1;
  return sign * Number(percent) + cost.fixedMinor * cell.count;
}
