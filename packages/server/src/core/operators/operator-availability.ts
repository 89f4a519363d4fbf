import type { CatalogOperator } from '../catalog/operator-catalog.js';
import type { Environment } from '../shared/environment.js';
import type { OperatorConnectors, OperatorHealth } from './operator-connector.js';
import { offers } from './operator-routing.js';

/** What the catalog shows of an operator in an environment: how it is doing and what it takes. */
export interface OperatorAvailability {
  /** The best route's; `unavailable` also when no connector serves it (live without an operators-file entry). */
  status: OperatorHealth;
  supports: { direct: boolean; hosted: boolean; refunds: boolean; payouts: boolean };
}

/** Read from the routes' connectors themselves, so the catalog cannot promise a flow no route offers. */
export function operatorAvailability(connectors: OperatorConnectors, environment: Environment, operator: CatalogOperator): OperatorAvailability {
  const routes = connectors.routesFor(environment, operator.gatewayCode);
  const anyRoute = (flow: Parameters<typeof offers>[1]) => routes.some((route) => offers(route, flow, operator));
  return {
    status: connectors.health(environment, operator.gatewayCode),
    supports: {
      direct: operator.collect.supported && anyRoute('push'),
      hosted: operator.collect.supported && anyRoute('hosted'),
      refunds: operator.collect.supported && anyRoute('refunds'),
      payouts: operator.payout.supported && anyRoute('payouts'),
    },
  };
}
