/**
 * Operator health: a circuit breaker per live connector (cockatiel). Calls that fail without an
 * operator's answer (network errors, timeouts, 5xx, unreadable answers) count; an operator's
 * refusal or any answer does not. After `failures` in a row the circuit opens: the operator is
 * `unavailable`, creations through it are refused at once (503 with Retry-After, nothing written)
 * instead of each waiting for a timeout, and after `halfOpenAfterMs` one call probes it: an answer
 * closes the circuit, a failure opens it again. One failure or more in a row, or the probe, make
 * it `degraded`: still taking traffic. Background checks (core/operators/call-origin.ts) do not
 * count, and are refused while the circuit is open.
 */
import { BrokenCircuitError, CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import { AkweError } from '../core/errors/index.js';
import type { OperatorConnector, OperatorHealth } from '../core/operators/operator-connector.js';
import { methodNames } from './method-names.js';
import { isBackgroundCall } from '../core/operators/call-origin.js';

export interface BreakerSettings {
  /** Consecutive failures that open the circuit (OPERATOR_BREAKER_FAILURES). */
  failures: number;
  /** How long an open circuit waits before one call probes the operator (OPERATOR_BREAKER_HALF_OPEN_MS). */
  halfOpenAfterMs: number;
}

export const DEFAULT_BREAKER: BreakerSettings = { failures: 5, halfOpenAfterMs: 30_000 };

const flowNames = ['push', 'hosted', 'otp', 'status', 'refunds', 'payouts', 'balance'] as const;

/** Our own refusals (an AkweError) are decisions, not an operator failing. */
const operatorFailure = handleWhen((error) => !(error instanceof AkweError));

export interface StateChange {
  family: string;
  health: OperatorHealth;
}

/** A connector whose every operator call goes through its circuit breaker, and that tells its health. */
export class BreakerConnector implements OperatorConnector {
  readonly family: string;
  readonly push?: OperatorConnector['push'];
  readonly hosted?: OperatorConnector['hosted'];
  readonly otp?: OperatorConnector['otp'];
  readonly status?: OperatorConnector['status'];
  readonly refunds?: OperatorConnector['refunds'];
  readonly payouts?: OperatorConnector['payouts'];
  readonly balance?: OperatorConnector['balance'];
  readonly signsCallbacks?: boolean;
  readonly payoutReversalWindowMs?: number;
  /** Not through the breaker: the daily reconciliation's reads are no merchant's calls. */
  readonly statements?: OperatorConnector['statements'];
  private readonly breaker: CircuitBreakerPolicy;
  private failuresInARow = 0;
  /** When the circuit last opened: cockatiel moves to half-open only when a call is tried after the wait. */
  private openedAtMs = 0;
  private readonly halfOpenAfterMs: number;

  constructor(
    private readonly inner: OperatorConnector,
    settings: BreakerSettings = DEFAULT_BREAKER,
    onChange?: (change: StateChange) => void,
  ) {
    this.family = inner.family;
    if (inner.signsCallbacks !== undefined) this.signsCallbacks = inner.signsCallbacks;
    this.payoutReversalWindowMs = inner.payoutReversalWindowMs;
    if (inner.statements) this.statements = inner.statements;
    this.halfOpenAfterMs = settings.halfOpenAfterMs;
    this.breaker = circuitBreaker(operatorFailure, { halfOpenAfter: settings.halfOpenAfterMs, breaker: new ConsecutiveBreaker(settings.failures) });
    this.breaker.onBreak(() => {
      this.openedAtMs = Date.now();
    });
    if (onChange) {
      this.breaker.onBreak(() => onChange({ family: this.family, health: 'unavailable' }));
      this.breaker.onHalfOpen(() => onChange({ family: this.family, health: 'degraded' }));
      this.breaker.onReset(() => onChange({ family: this.family, health: 'available' }));
    }
    const self = this as { -readonly [K in (typeof flowNames)[number]]?: unknown };
    for (const name of flowNames) {
      const flow = inner[name];
      if (flow) self[name] = this.guarded(flow as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>);
    }
  }

  /** The worse of the breaker's view and the connector's own (pawaPay's provider availability). */
  health(): OperatorHealth {
    const own = this.inner.health?.() ?? 'available';
    const breaker = this.breakerHealth();
    return own === 'unavailable' || breaker === 'unavailable' ? 'unavailable' : own === 'degraded' ? 'degraded' : breaker;
  }

  private breakerHealth(): OperatorHealth {
    switch (this.breaker.state) {
      case CircuitState.Open:
        // Past the wait, the next call is the probe: let it through (it decides open or closed).
        return Date.now() - this.openedAtMs >= this.halfOpenAfterMs ? 'degraded' : 'unavailable';
      case CircuitState.Isolated:
        return 'unavailable';
      case CircuitState.HalfOpen:
        return 'degraded';
      default:
        return this.failuresInARow > 0 ? 'degraded' : 'available';
    }
  }

  /** How long until the open circuit lets a probe through (ms); 0 when it is not open. */
  unavailableForMs(): number {
    if (this.health() !== 'unavailable') return 0;
    return Math.max(0, this.openedAtMs + this.halfOpenAfterMs - Date.now());
  }

  check(): ReturnType<NonNullable<OperatorConnector['check']>> {
    return this.inner.check ? this.inner.check() : Promise.resolve([]);
  }

  /** Not an operator call (a local signature check): not through the breaker. */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>, nowSeconds: number): boolean {
    return this.inner.verifyWebhook?.(rawBody, headers, nowSeconds) ?? false;
  }

  /** The flow's methods, each run through the breaker (bound to the flow object they came from). */
  private guarded<T extends Record<string, (...args: unknown[]) => Promise<unknown>>>(flow: T): T {
    const wrapped: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
    for (const key of methodNames(flow)) {
      const method = flow[key];
      if (typeof method !== 'function') continue;
      wrapped[key] = (...args) => this.run(() => method.apply(flow, args));
    }
    return wrapped as T;
  }

  private async run<R>(call: () => Promise<R>): Promise<R> {
    // A background check (a worker's) is refused while the circuit is open, and otherwise goes
    // around the breaker: its failures are no merchant's, and do not count toward opening it.
    if (isBackgroundCall()) {
      if (this.health() === 'unavailable') throw new BrokenCircuitError();
      return call();
    }
    try {
      const result = await this.breaker.execute(call);
      this.failuresInARow = 0;
      return result;
    } catch (error) {
      // Refused by the open circuit: nothing reached the operator, and it is no new failure of it.
      if (!(error instanceof AkweError) && !(error instanceof BrokenCircuitError)) this.failuresInARow += 1;
      throw error;
    }
  }
}
