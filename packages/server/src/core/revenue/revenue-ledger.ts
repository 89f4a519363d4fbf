import type { Environment } from '../shared/environment.js';

/**
 * What a fee moved for: the object that caused the ledger transaction. A collection is a payment,
 * a payout a payout, a settlement a settlement (a wallet settlement's payout books the settlement's
 * postings), a refund a refund and a transfer a transfer; `other` is anything else that ever touches
 * the fees accounts (the sandbox float never does).
 */
export const revenueFlows = ['collection', 'payout', 'settlement', 'refund', 'transfer', 'other'] as const;
export type RevenueFlow = (typeof revenueFlows)[number];

/**
 * The finest piece of the report: the ledger transactions of one UTC day, merchant, currency, flow,
 * operator and route. Every grouping of the report adds these up, so its totals always agree.
 */
export interface RevenueCell {
  /** UTC day, `2026-11-27`. */
  day: string;
  merchantId: string;
  merchantName: string;
  currency: string;
  flow: RevenueFlow;
  /** The catalog slug (`mtn_bj`); null where no operator carried the money (a bank settlement, a transfer). */
  operator: string | null;
  /** The route that held it (migration 0033); null for rows made before routes were recorded, or without operator. */
  route: string | null;
  /** The movement of the merchant's `fees` account: positive earned, negative given back. */
  feesMinor: number;
  /** What the operator moved for these transactions (payment, payout, refund amount; a settlement's net), signed as the fees. */
  volumeMinor: number;
  /** Transactions: +1 each, −1 for one that gives fees back. */
  count: number;
}

/** The period of a report: UTC days, `from` inclusive, `to` exclusive (ISO instants). */
export interface RevenuePeriod {
  from: string;
  to: string;
}

/** The port the report reads the ledger through (storage/repositories/revenue-repository.ts). */
export interface RevenueLedger {
  /**
   * One cell per day, merchant, currency, flow, operator and route, of the ledger transactions made
   * in the period in this environment that moved a fees account or that earn a fee by their type
   * (collection, payout, settlement: a zero fee leaves no fees entry, but the provider still moved the money).
   */
  cells(period: RevenuePeriod, environment: Environment): Promise<RevenueCell[]>;
}
