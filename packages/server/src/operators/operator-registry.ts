import type { OperatorGateway, OperatorGatewayRegistry } from '../core/payments/operator-gateway.js';
import type { Environment } from '../core/shared/environment.js';
import { SandboxOperator } from './sandbox/sandbox-operator.js';
import { UnconfiguredLiveOperator } from './unconfigured-live-operator.js';

/** Test traffic always reaches the sandbox; live traffic the configured operators (none yet). */
export class OperatorRegistry implements OperatorGatewayRegistry {
  constructor(private readonly gateways: Record<Environment, OperatorGateway> = { test: new SandboxOperator(), live: new UnconfiguredLiveOperator() }) {}

  gatewayFor(environment: Environment): OperatorGateway {
    return this.gateways[environment];
  }
}
