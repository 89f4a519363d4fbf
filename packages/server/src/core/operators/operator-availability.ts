import type { CatalogOperator } from '../catalog/operator-catalog.js';
import type { Environment } from '../shared/environment.js';
import type { OperatorConnectors, OperatorHealth } from './operator-connector.js';

/** What the catalog shows of an operator in an environment: how it is doing and what it takes. */
export interface OperatorAvailability {
  /** `unavailable` also when no connector serves it (live without an operators-file entry). */
  status: OperatorHealth;
  supports: { direct: boolean; hosted: boolean; refunds: boolean; payouts: boolean };
}

/** Read from the connector itself, so the catalog cannot promise a flow the connector lacks. */
export function operatorAvailability(connectors: OperatorConnectors, environment: Environment, operator: CatalogOperator): OperatorAvailability {
  const connector = connectors.connectorFor(environment, operator.gatewayCode);
  return {
    status: connectors.health(environment, operator.gatewayCode),
    supports: {
      direct: operator.collect.supported && connector?.push !== undefined && (!operator.requiresOtp || connector.otp !== undefined),
      hosted: operator.collect.supported && connector?.hosted !== undefined,
      refunds: operator.collect.supported && connector?.refunds !== undefined,
      payouts: operator.payout.supported && connector?.payouts !== undefined,
    },
  };
}
