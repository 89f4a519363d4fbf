import type { OperatorConnector, OperatorConnectors, OperatorHealth, OperatorRoute } from '../core/operators/operator-connector.js';
import type { Environment } from '../core/shared/environment.js';
import { SandboxOperator } from './sandbox/sandbox-operator.js';

/** Best first: an operator is as available as its best route. */
const healthRank: Record<OperatorHealth, number> = { available: 0, degraded: 1, unavailable: 2 };

/** A connector given alone is the operator's only route, named by its family. */
function asRoutes(gatewayCode: string, entry: OperatorConnector | readonly OperatorRoute[]): readonly OperatorRoute[] {
  if (Array.isArray(entry)) return entry as readonly OperatorRoute[];
  const connector = entry as OperatorConnector;
  return [{ name: connector.family, label: `${gatewayCode.toLowerCase()}/${connector.family}`, connector }];
}

export function routeHealth(route: OperatorRoute): OperatorHealth {
  return route.connector.health?.() ?? 'available';
}

/**
 * Test traffic always reaches the sandbox, whatever the operator; live traffic the routes
 * configured for the operator's gateway code (OPERATORS_FILE), in order, or none: the core then
 * answers 503 operator_unavailable before writing anything.
 */
export class OperatorRegistry implements OperatorConnectors {
  private readonly test: readonly OperatorRoute[];
  private readonly live: ReadonlyMap<string, readonly OperatorRoute[]>;

  constructor(connectors: { test?: OperatorConnector; live?: ReadonlyMap<string, OperatorConnector | readonly OperatorRoute[]> } = {}) {
    const sandbox = connectors.test ?? new SandboxOperator();
    this.test = [{ name: sandbox.family, label: sandbox.family, connector: sandbox }];
    this.live = new Map([...(connectors.live ?? new Map<string, OperatorConnector>()).entries()].map(([code, entry]) => [code, asRoutes(code, entry)]));
  }

  routesFor(environment: Environment, gatewayCode: string): readonly OperatorRoute[] {
    return environment === 'test' ? this.test : (this.live.get(gatewayCode) ?? []);
  }

  connectorFor(environment: Environment, gatewayCode: string, route?: string | null): OperatorConnector | undefined {
    const routes = this.routesFor(environment, gatewayCode);
    // The sandbox answers for whatever route a test resource names.
    if (environment === 'test' || route === undefined || route === null) return routes[0]?.connector;
    return routes.find((r) => r.name === route)?.connector;
  }

  health(environment: Environment, gatewayCode: string): OperatorHealth {
    const routes = this.routesFor(environment, gatewayCode);
    if (routes.length === 0) return 'unavailable';
    return routes.map(routeHealth).reduce((best, health) => (healthRank[health] < healthRank[best] ? health : best));
  }

  liveConnectorsOf(family: string): OperatorConnector[] {
    return [...new Set([...this.live.values()].flat().map((route) => route.connector))].filter((connector) => connector.family === family);
  }
}
