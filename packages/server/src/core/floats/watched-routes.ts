import type { OperatorCatalog } from '../catalog/operator-catalog.js';
import type { BalanceRead, OperatorConnectors } from '../operators/operator-connector.js';

/** A live route whose provider float can be read. */
export interface WatchedRoute {
  label: string;
  /** Catalog slug and country of the operator it serves. */
  operator: string;
  country: string;
  /** The route's name among the operator's routes, and whether it is the operator's first. */
  route: string;
  first: boolean;
  family: string;
  thresholdMinor: number | null;
  /** Whether new payouts may take this route (its connector pays out and the file does not restrict it away). */
  paysOut: boolean;
  balance: BalanceRead;
}

/** Every live route of every catalog operator whose connector offers a balance read, in catalog then file order. */
export function watchedRoutes(catalog: OperatorCatalog, connectors: OperatorConnectors): WatchedRoute[] {
  const watched: WatchedRoute[] = [];
  for (const country of catalog.countries()) {
    for (const operator of country.operators) {
      connectors.routesFor('live', operator.gatewayCode).forEach((route, index) => {
        const balance = route.connector.balance;
        if (!balance) return;
        watched.push({
          label: route.label,
          operator: operator.slug,
          country: country.code,
          route: route.name,
          first: index === 0,
          family: route.connector.family,
          thresholdMinor: route.lowFloatMinor ?? null,
          paysOut: route.connector.payouts !== undefined && (route.flows === undefined || route.flows.includes('payout')),
          balance,
        });
      });
    }
  }
  return watched;
}
