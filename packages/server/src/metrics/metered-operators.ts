/**
 * Every operator call the core makes, counted and timed per connector family, operator (its
 * catalog gateway code), operation (`startCollection`, `sendPayout`, …) and outcome. Measured here,
 * around the connectors, rather than in operator-http.ts: the sandbox and every live family pass
 * through, the operator is known, and a call is one business operation even when the family
 * makes two HTTP exchanges for it (a token, then the request).
 */
import { BrokenCircuitError } from 'cockatiel';
import { AkweError } from '../core/errors/index.js';
import type { OperatorConnector, OperatorConnectors, OperatorHealth, OperatorRoute } from '../core/operators/operator-connector.js';
import type { Environment } from '../core/shared/environment.js';
import { OperatorUnreachable } from '../operators/operator-http.js';
import type { AkweMetrics } from './akwe-metrics.js';
import { methodNames } from '../operators/method-names.js';

const flowNames = ['push', 'hosted', 'otp', 'status', 'refunds', 'payouts', 'balance'] as const;

type Flow = Record<string, (...args: unknown[]) => Promise<unknown>>;

/**
 * `answered`: the connector returned (an operator's refusal included, which is an answer);
 * `refused`: our own decision stopped it (an AkweError); `circuit_open`: the breaker refused it
 * without calling; `unreachable`: no answer came (network, timeout); `error`: anything else.
 */
export function callOutcome(error: unknown): string {
  if (error instanceof OperatorUnreachable) return 'unreachable';
  if (error instanceof BrokenCircuitError) return 'circuit_open';
  if (error instanceof AkweError) return 'refused';
  return 'error';
}

export class MeteredOperators implements OperatorConnectors {
  /** One wrapper per connector, operator and route, made on first use. */
  private readonly wrapped = new WeakMap<OperatorConnector, Map<string, OperatorConnector>>();

  constructor(
    private readonly inner: OperatorConnectors,
    private readonly metrics: AkweMetrics,
  ) {}

  routesFor(environment: Environment, gatewayCode: string): readonly OperatorRoute[] {
    return this.inner.routesFor(environment, gatewayCode).map((route) => ({ ...route, connector: this.metered(route.connector, gatewayCode, route.label) }));
  }

  connectorFor(environment: Environment, gatewayCode: string, route?: string | null): OperatorConnector | undefined {
    const connector = this.inner.connectorFor(environment, gatewayCode, route);
    if (!connector) return undefined;
    const held = this.inner.routesFor(environment, gatewayCode).find((r) => r.connector === connector);
    return this.metered(connector, gatewayCode, held?.label ?? connector.family);
  }

  private metered(connector: OperatorConnector, gatewayCode: string, label: string): OperatorConnector {
    let byOperator = this.wrapped.get(connector);
    if (!byOperator) this.wrapped.set(connector, (byOperator = new Map<string, OperatorConnector>()));
    const key = `${gatewayCode} ${label}`;
    let metered = byOperator.get(key);
    if (!metered) byOperator.set(key, (metered = this.meter(connector, gatewayCode, label)));
    return metered;
  }

  health(environment: Environment, gatewayCode: string): OperatorHealth {
    return this.inner.health(environment, gatewayCode);
  }

  liveConnectorsOf(family: string): OperatorConnector[] {
    return this.inner.liveConnectorsOf(family);
  }

  /** The connector with each flow's methods timed; everything else (health, checks) passed through. */
  private meter(connector: OperatorConnector, operator: string, route: string): OperatorConnector {
    const metered: Record<string, unknown> = {};
    for (const name of flowNames) {
      const flow = connector[name] as unknown as Flow | undefined;
      if (flow) metered[name] = this.meterFlow(flow, { connector: connector.family, operator, route });
    }
    return new Proxy(connector, {
      get: (target, property) => {
        if (typeof property === 'string' && property in metered) return metered[property];
        const value: unknown = Reflect.get(target, property, target);
        // Bound to the connector itself, so its private state is reached as without the wrapper.
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }

  private meterFlow(flow: Flow, labels: { connector: string; operator: string; route: string }): Flow {
    const timed: Flow = {};
    for (const operation of methodNames(flow)) {
      const method = flow[operation];
      if (typeof method !== 'function') continue;
      timed[operation] = async (...args) => {
        const stopTimer = this.metrics.operatorDuration.startTimer({ ...labels, operation });
        try {
          const result = await method.apply(flow, args);
          this.metrics.operatorCalls.inc({ ...labels, operation, outcome: 'answered' });
          return result;
        } catch (error) {
          this.metrics.operatorCalls.inc({ ...labels, operation, outcome: callOutcome(error) });
          throw error;
        } finally {
          stopTimer();
        }
      };
    }
    return timed;
  }
}
