import type { CatalogOperator, OperatorCatalog } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import type { Environment } from '../shared/environment.js';
import type { OperatorConnector, OperatorConnectors } from './operator-connector.js';

/** A stored payment, refund or payout: it names its environment, country and operator slug. */
type RoutedResource = { environment: Environment; country: string; operator: string | null };

export type OperatorFlow = 'push' | 'hosted' | 'otp' | 'status' | 'refunds' | 'payouts';

/** How long a client is told to wait when an operator's breaker is open (seconds). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 30;

const flowNames: Record<OperatorFlow, string> = {
  push: 'direct collection',
  hosted: 'hosted checkout',
  otp: 'one-time code confirmation',
  status: 'status queries',
  refunds: 'refunds',
  payouts: 'payouts',
};

/**
 * Routes a call to the connector serving an operator in an environment, and refuses with the right
 * error before anything is written when it cannot: no connector configured or the operator
 * unavailable (503 operator_unavailable), or a flow the operator does not offer.
 */
export class OperatorRouting {
  constructor(
    private readonly connectors: OperatorConnectors,
    private readonly catalog: OperatorCatalog,
  ) {}

  /** The flow of the connector serving `operator`, or an AkweError saying why there is none. */
  flow<F extends OperatorFlow>(environment: Environment, operator: CatalogOperator, flow: F): NonNullable<OperatorConnector[F]> {
    const connector = this.connectors.connectorFor(environment, operator.gatewayCode);
    if (!connector) {
      throw new AkweError('operator_unavailable', `No live connector for ${operator.label} is configured on this server; nothing was charged.`, {
        retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
      });
    }
    const offered = connector[flow];
    if (!offered) {
      if (flow === 'refunds') throw new AkweError('refund_not_supported', `${operator.label} takes no refunds through Akwe; refund the customer another way.`);
      throw new AkweError('invalid_operator', `${operator.label} offers no ${flowNames[flow]} through Akwe; see the operator catalog.`, { field: 'operator' });
    }
    if (this.connectors.health(environment, operator.gatewayCode) === 'unavailable') {
      // The breaker's own wait, not a fixed one: a retry sooner is refused again.
      const waitMs = connector.unavailableForMs?.() ?? UNAVAILABLE_RETRY_AFTER_SECONDS * 1000;
      throw new AkweError('operator_unavailable', `${operator.label} is not answering at the moment; nothing was charged. Retry later.`, {
        retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
      });
    }
    return offered as NonNullable<OperatorConnector[F]>;
  }

  /** As `flow`, for a stored payment, refund or payout that names its country and operator slug. */
  flowFor<F extends OperatorFlow>(resource: RoutedResource, flow: F): NonNullable<OperatorConnector[F]> {
    return this.flow(resource.environment, this.operatorOf(resource), flow);
  }

  /** The flow if the operator's connector offers it, without refusing (status queries by workers). */
  optionalFlow<F extends OperatorFlow>(resource: RoutedResource, flow: F): OperatorConnector[F] | undefined {
    return this.connectorOf(resource)?.[flow];
  }

  /** Whether a connector is configured for the resource's operator in its environment, whatever its health. */
  isConfigured(resource: RoutedResource): boolean {
    return this.connectorOf(resource) !== undefined;
  }

  private connectorOf(resource: RoutedResource): OperatorConnector | undefined {
    const operator = this.catalogOperator(resource);
    return operator && this.connectors.connectorFor(resource.environment, operator.gatewayCode);
  }

  private operatorOf(resource: RoutedResource): CatalogOperator {
    const operator = this.catalogOperator(resource);
    if (!operator) throw new AkweError('operator_unavailable', `The catalog no longer lists ${resource.operator ?? 'an operator'} in ${resource.country}.`);
    return operator;
  }

  private catalogOperator(resource: RoutedResource): CatalogOperator | undefined {
    return resource.operator === null ? undefined : this.catalog.findOperator(resource.country, resource.operator);
  }
}
