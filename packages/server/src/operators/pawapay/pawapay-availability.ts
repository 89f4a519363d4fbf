/**
 * pawaPay's word on whether the provider's flows are open (`GET /v2/availability`), read at most
 * once per `ttlMs` in the background and never on a request's path: health() answers from what was
 * last read at once, and a stale reading only starts one refresh. pawaPay saying the deposit flow
 * is CLOSED makes the operator `unavailable` in the catalog (and creations are refused, nothing
 * written); DELAYED flows, or a closed payout flow, make it `degraded`. Until a first answer (or
 * when pawaPay cannot be asked) availability says nothing and the circuit breaker decides alone.
 */
import type { OperatorHealth } from '../../core/operators/operator-connector.js';
import type { Clock } from '../../core/ports.js';
import type { ProviderFlows } from './pawapay-responses.js';

export class ProviderAvailability {
  private flows: ProviderFlows | undefined;
  private readAtMs = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly read: () => Promise<ProviderFlows | undefined>,
    private readonly ttlMs: number,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** What the last reading says; starts a refresh in the background when it is older than the TTL. */
  health(): OperatorHealth {
    if (this.clock.now().getTime() - this.readAtMs >= this.ttlMs) void this.refresh();
    return healthOf(this.flows);
  }

  /** Reads availability now (one reading at a time); its failure keeps the last reading. */
  refresh(): Promise<void> {
    this.reading ??= this.read()
      .then((flows) => {
        this.flows = flows;
      })
      .catch((error: unknown) => this.onError(error))
      .finally(() => {
        this.readAtMs = this.clock.now().getTime();
        this.reading = undefined;
      });
    return this.reading;
  }
}

export function healthOf(flows: ProviderFlows | undefined): OperatorHealth {
  if (!flows) return 'available';
  if (flows.DEPOSIT === 'CLOSED') return 'unavailable';
  if (Object.values(flows).some((status) => status === 'CLOSED' || status === 'DELAYED')) return 'degraded';
  return 'available';
}
