/**
 * A live route's provider float (docs/operations.md "Floats"): what the provider account that pays
 * the route's payouts held at its last reading, and whether that is under the route's threshold.
 */
export interface RouteFloat {
  /** `<slug>/<route>`, e.g. `mtn_bj/mtn-momo`. */
  routeLabel: string;
  /** Null until a first reading succeeds. */
  balanceMinor: number | null;
  currency: string | null;
  readAt: string | null;
  /** The threshold in force at that reading (`low_float_minor`); null: none. */
  thresholdMinor: number | null;
  low: boolean;
  /** When the current low spell began (its first low reading); null while the float is not low. */
  lowSince: string | null;
  /** When the administrators were told of the current low spell. */
  alertedAt: string | null;
  /** The last read that failed, and when (kept until a read succeeds). */
  lastError: string | null;
  lastErrorAt: string | null;
}

export interface FloatReading {
  id: string;
  routeLabel: string;
  balanceMinor: number;
  currency: string;
  readAt: string;
  thresholdMinor: number | null;
}

/** What the ledger says the provider behind a route should hold for Akwe's merchants (live only). */
export interface LedgerExpectation {
  /** Catalog operator slug. */
  operator: string;
  /** The route recorded on the resources; null: made before routes were recorded (the operator's first route). */
  route: string | null;
  currency: string;
  /** Collections completed through it, less payouts, refunds and wallet settlements paid through it. */
  expectedMinor: number;
}

export interface FloatStore {
  /**
   * Takes the route's next read when it is due (its row made on first use) and moves its due time
   * to `nextReadAt`; false when it is not due or another worker took it first.
   */
  claimRead(routeLabel: string, now: string, nextReadAt: string): Promise<boolean>;
  /** Keeps the reading and the route's state; true when it begins a low spell (the alert is then this caller's to send). */
  recordReading(reading: FloatReading): Promise<{ newlyLow: boolean }>;
  /** Forgets the route's readings made before `before` (the state row keeps the last one). */
  pruneReadings(routeLabel: string, before: string): Promise<void>;
  /** Keeps why a read failed; the last good reading and the low state stay as they were. */
  recordFailure(routeLabel: string, message: string, at: string): Promise<void>;
  list(): Promise<RouteFloat[]>;
  /** The labels of the routes whose last reading was under their threshold. */
  lowRouteLabels(): Promise<string[]>;
  /** The live operator clearing balances, attributed to the route of the payment, refund, payout or settlement that moved them. */
  ledgerExpectations(): Promise<LedgerExpectation[]>;
}
