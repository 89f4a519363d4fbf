import type { OperatorCatalog } from '../catalog/operator-catalog.js';
import type { OperatorConnectors } from '../operators/operator-connector.js';
import type { FloatStore, LedgerExpectation, RouteFloat } from './route-float.js';
import { watchedRoutes, type WatchedRoute } from './watched-routes.js';

/** low: under its threshold at the last reading; read_failed: the last read failed; unread: never read yet. */
export type FloatState = 'ok' | 'low' | 'no_threshold' | 'read_failed' | 'unread';

/** One route as the back office's Floats page shows it. */
export interface RouteFloatView {
  route: string;
  operator: string;
  country: string;
  connector: string;
  paysOut: boolean;
  thresholdMinor: number | null;
  balanceMinor: number | null;
  currency: string | null;
  readAt: string | null;
  state: FloatState;
  lowSince: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  /** What Akwe's ledger says this provider should hold for the routes' traffic (live); null: nothing recorded. */
  expectedMinor: number | null;
  expectedCurrency: string | null;
}

/**
 * The back office's view of the floats: every live route that can read its balance, with its last
 * reading, its threshold, its state and what the ledger expects at the provider
 * (docs/operations.md "Floats").
 */
export class FloatBoard {
  constructor(private readonly deps: { store: FloatStore; catalog: OperatorCatalog; connectors: OperatorConnectors }) {}

  async routes(): Promise<RouteFloatView[]> {
    const routes = watchedRoutes(this.deps.catalog, this.deps.connectors);
    const [floats, expectations] = await Promise.all([this.deps.store.list(), this.deps.store.ledgerExpectations()]);
    const byLabel = new Map(floats.map((f) => [f.routeLabel, f]));
    return routes.map((route) => view(route, byLabel.get(route.label), expectedAt(route, routes, expectations)));
  }

  /** The routes low on float now, for the back office's banner. */
  async low(): Promise<RouteFloatView[]> {
    return (await this.routes()).filter((r) => r.state === 'low');
  }
}

function view(route: WatchedRoute, float: RouteFloat | undefined, expected: { minor: number; currency: string } | undefined): RouteFloatView {
  return {
    route: route.label,
    operator: route.operator,
    country: route.country,
    connector: route.family,
    paysOut: route.paysOut,
    thresholdMinor: route.thresholdMinor,
    balanceMinor: float?.balanceMinor ?? null,
    currency: float?.currency ?? null,
    readAt: float?.readAt ?? null,
    state: stateOf(route, float),
    lowSince: float?.lowSince ?? null,
    lastError: float?.lastError ?? null,
    lastErrorAt: float?.lastErrorAt ?? null,
    expectedMinor: expected?.minor ?? null,
    expectedCurrency: expected?.currency ?? null,
  };
}

function stateOf(route: WatchedRoute, float: RouteFloat | undefined): FloatState {
  if (!float || (float.readAt === null && float.lastError === null)) return 'unread';
  if (float.low) return 'low';
  if (float.lastErrorAt !== null && (float.readAt === null || float.lastErrorAt > float.readAt)) return 'read_failed';
  return route.thresholdMinor === null ? 'no_threshold' : 'ok';
}

/** A resource recorded without a route belongs to its operator's first route. */
function expectedAt(route: WatchedRoute, all: WatchedRoute[], expectations: LedgerExpectation[]): { minor: number; currency: string } | undefined {
  const firstOf = (operator: string) => all.find((r) => r.operator === operator && r.first)?.route;
  const mine = expectations.filter((e) => e.operator === route.operator && (e.route ?? firstOf(e.operator)) === route.route);
  if (mine.length === 0) return undefined;
  return { minor: mine.reduce((sum, e) => sum + e.expectedMinor, 0), currency: mine[0]!.currency };
}
