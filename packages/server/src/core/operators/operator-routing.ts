import type { CatalogOperator, OperatorCatalog } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import type { Environment } from '../shared/environment.js';
import type { OperatorConnector, OperatorConnectors, OperatorRoute, RouteFlow } from './operator-connector.js';

/**
 * A stored payment, refund or payout: it names its environment, country, operator slug and the
 * route that holds it (null: made before routes were recorded, or never handed to one).
 */
type RoutedResource = { environment: Environment; country: string; operator: string | null; route?: string | null };

export type OperatorFlow = 'push' | 'hosted' | 'otp' | 'status' | 'refunds' | 'payouts';

/** A flow of the route a new request goes to, and that route's name (recorded on the resource). */
export interface RoutedFlow<F extends OperatorFlow> {
  route: string;
  flow: NonNullable<OperatorConnector[F]>;
  /** The route's connector decides in this process (OperatorConnector.decidesInProcess). */
  inProcess: boolean;
}

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

const routeFlowOf: Record<OperatorFlow, RouteFlow> = { push: 'collect', hosted: 'collect', otp: 'collect', status: 'collect', refunds: 'collect', payouts: 'payout' };

/**
 * Routes a call to the connector serving an operator in an environment, and refuses with the right
 * error before anything is written when it cannot: no connector configured or every route that
 * could take it unavailable (503 operator_unavailable), or a flow no route offers. A new request
 * goes to the first route that is up and offers the flow; a stored one to the route that holds it,
 * whatever the others' state: a request handed to a route is never sent to another.
 */
export class OperatorRouting {
  constructor(
    private readonly connectors: OperatorConnectors,
    private readonly catalog: OperatorCatalog,
    /** Whether a route's provider float is under its threshold (docs/operations.md "Floats"); none: never. */
    private readonly lowFloat: (routeLabel: string) => boolean = () => false,
  ) {}

  /**
   * The first route up that offers `flow` for a new request on `operator`, or an AkweError saying
   * why there is none. A new payout skips a route low on float when another one up offers payouts;
   * when every one is low, it goes to the first up, as without floats.
   */
  pick<F extends OperatorFlow>(environment: Environment, operator: CatalogOperator, flow: F): RoutedFlow<F> {
    const routes = this.connectors.routesFor(environment, operator.gatewayCode);
    if (routes.length === 0) throw this.notConfigured(operator);
    const offering = routes.filter((route) => offers(route, flow, operator));
    if (offering.length === 0) throw this.notOffered(operator, flow);
    const up = offering.find(isUp);
    if (!up)
      throw this.down(
        operator,
        offering.map((route) => route.connector),
      );
    // Floats matter only where there is another route to go to.
    const chosen = flow === 'payouts' && offering.length > 1 ? (offering.find((route) => isUp(route) && !this.lowFloat(route.label)) ?? up) : up;
    return { route: chosen.name, flow: chosen.connector[flow] as NonNullable<OperatorConnector[F]>, inProcess: chosen.connector.decidesInProcess === true };
  }

  /** The flow of the route holding a stored payment, refund or payout, or an AkweError saying why it cannot be used now. */
  flowFor<F extends OperatorFlow>(resource: RoutedResource, flow: F): NonNullable<OperatorConnector[F]> {
    const operator = this.operatorOf(resource);
    const connector = this.connectorOf(resource);
    if (!connector) throw this.notConfigured(operator);
    const offered = connector[flow];
    if (!offered) throw this.notOffered(operator, flow);
    if ((connector.health?.() ?? 'available') === 'unavailable') throw this.down(operator, [connector]);
    return offered as NonNullable<OperatorConnector[F]>;
  }

  /** The flow if the holding route's connector offers it, without refusing (status queries by workers). */
  optionalFlow<F extends OperatorFlow>(resource: RoutedResource, flow: F): OperatorConnector[F] | undefined {
    return this.connectorOf(resource)?.[flow];
  }

  /** Whether a send to the route holding the resource may reach its operator after its own timeout (every networked connector). */
  sendsMayArriveLate(resource: RoutedResource): boolean {
    return this.connectorOf(resource)?.sendsArriveAtOnce !== true;
  }

  /** Whether the route holding the resource (its operator's first, when none is recorded) is configured, whatever its health. */
  isConfigured(resource: RoutedResource): boolean {
    return this.connectorOf(resource) !== undefined;
  }

  private notConfigured(operator: CatalogOperator): AkweError {
    return new AkweError('operator_unavailable', `No live connector for ${operator.label} is configured on this server; nothing was charged.`, {
      retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_SECONDS,
    });
  }

  private notOffered(operator: CatalogOperator, flow: OperatorFlow): AkweError {
    if (flow === 'refunds') return new AkweError('refund_not_supported', `${operator.label} takes no refunds through Akwe; refund the customer another way.`);
    return new AkweError('invalid_operator', `${operator.label} offers no ${flowNames[flow]} through Akwe; see the operator catalog.`, { field: 'operator' });
  }

  /** Retry-After is the soonest of the routes' breaker waits, not a fixed one: a retry sooner is refused again. */
  private down(operator: CatalogOperator, connectors: OperatorConnector[]): AkweError {
    const waits = connectors.map((connector) => connector.unavailableForMs?.() ?? UNAVAILABLE_RETRY_AFTER_SECONDS * 1000);
    return new AkweError('operator_unavailable', `${operator.label} is not answering at the moment; nothing was charged. Retry later.`, {
      retryAfterSeconds: Math.max(1, Math.ceil(Math.min(...waits) / 1000)),
    });
  }

  private connectorOf(resource: RoutedResource): OperatorConnector | undefined {
    const operator = this.catalogOperator(resource);
    return operator && this.connectors.connectorFor(resource.environment, operator.gatewayCode, resource.route ?? null);
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

function isUp(route: OperatorRoute): boolean {
  return (route.connector.health?.() ?? 'available') !== 'unavailable';
}

/**
 * Whether a route takes new requests of `flow` for `operator`: its connector offers it (a direct
 * payment on an OTP operator needs the code's confirmation too) and the file does not restrict it away.
 */
export function offers(route: OperatorRoute, flow: OperatorFlow, operator: CatalogOperator): boolean {
  if (route.flows && !route.flows.includes(routeFlowOf[flow])) return false;
  if (!route.connector[flow]) return false;
  return flow !== 'push' || !operator.requiresOtp || route.connector.otp !== undefined;
}
