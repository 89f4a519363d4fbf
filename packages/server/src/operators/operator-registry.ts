import type { OperatorConnector, OperatorConnectors, OperatorHealth } from '../core/operators/operator-connector.js';
import type { Environment } from '../core/shared/environment.js';
import { SandboxOperator } from './sandbox/sandbox-operator.js';

/**
 * Test traffic always reaches the sandbox, whatever the operator; live traffic the connector
 * configured for the operator's gateway code (OPERATORS_FILE), or none: the core then answers
 * 503 operator_unavailable before writing anything.
 */
export class OperatorRegistry implements OperatorConnectors {
  private readonly test: OperatorConnector;
  private readonly live: ReadonlyMap<string, OperatorConnector>;

  constructor(connectors: { test?: OperatorConnector; live?: ReadonlyMap<string, OperatorConnector> } = {}) {
    this.test = connectors.test ?? new SandboxOperator();
    this.live = connectors.live ?? new Map();
  }

  connectorFor(environment: Environment, gatewayCode: string): OperatorConnector | undefined {
    return environment === 'test' ? this.test : this.live.get(gatewayCode);
  }

  health(environment: Environment, gatewayCode: string): OperatorHealth {
    const connector = this.connectorFor(environment, gatewayCode);
    if (!connector) return 'unavailable';
    return connector.health?.() ?? 'available';
  }

  liveConnectorsOf(family: string): OperatorConnector[] {
    return [...new Set(this.live.values())].filter((connector) => connector.family === family);
  }
}
