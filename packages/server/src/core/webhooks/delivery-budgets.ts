/**
 * Who may send how much at once (docs/webhooks.md "Throughput and fairness"). A stream is one
 * receiver as the merchant sees it: an endpoint, or one callback_url. Budgets bound what is in
 * flight per stream, per merchant and per receiving host, so one slow receiver or one busy
 * merchant cannot hold every delivery slot.
 */
export interface DeliveryBudgets {
  /** In flight per stream, unless its endpoint sets `max_in_flight`. */
  perStream: number;
  perMerchant: number;
  perHost: number;
}

export const defaultDeliveryBudgets: DeliveryBudgets = { perStream: 10, perMerchant: 100, perHost: 50 };

/** Endpoints may set their own in-flight bound within these limits. */
export const maxInFlightBounds = { min: 1, max: 50 } as const;

/** A delivery as the scheduler sees it. */
export interface DeliverySlot {
  id: string;
  stream: string;
  merchantId: string;
  host: string;
  /** What the event is about (a payment reference): one at a time per stream keeps their order. */
  subject: string | null;
  /** The endpoint's own bound, when it set one. */
  streamLimit: number | null;
}

export interface Saturation {
  streams: Set<string>;
  merchants: Set<string>;
  hosts: Set<string>;
}

/** Counts what is in flight (in any process) per stream, merchant and host. */
export class InFlightCounts {
  readonly streams = new Map<string, number>();
  readonly merchants = new Map<string, number>();
  readonly hosts = new Map<string, number>();
  /** `stream|subject` pairs in flight. */
  readonly subjects = new Set<string>();

  constructor(inFlight: readonly DeliverySlot[]) {
    for (const slot of inFlight) this.add(slot);
  }

  add(slot: DeliverySlot): void {
    bump(this.streams, slot.stream);
    bump(this.merchants, slot.merchantId);
    bump(this.hosts, slot.host);
    if (slot.subject !== null) this.subjects.add(`${slot.stream}|${slot.subject}`);
  }
}

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/**
 * The streams, merchants and hosts at their bound now: the claim query leaves their rows out, so
 * a backlog that cannot be sent does not fill the window of candidates and hide other work.
 */
export function saturation(counts: InFlightCounts, inFlight: readonly DeliverySlot[], budgets: DeliveryBudgets, streamCap: (stream: string) => number): Saturation {
  const limits = new Map(inFlight.map((slot) => [slot.stream, slot.streamLimit]));
  const full = <K>(map: Map<K, number>, limit: (key: K) => number) => new Set([...map].filter(([key, n]) => n >= limit(key)).map(([key]) => key));
  return {
    streams: full(counts.streams, (stream) => Math.min(limits.get(stream) ?? budgets.perStream, streamCap(stream))),
    merchants: full(counts.merchants, () => budgets.perMerchant),
    hosts: full(counts.hosts, () => budgets.perHost),
  };
}

/**
 * Picks, in the candidates' order (oldest due first), up to `limit` deliveries that fit every
 * budget. `streamCap` lowers a stream's bound while its receiver pushes back (429, 503, slow).
 * A candidate whose stream already has a delivery in flight about the same subject waits, so one
 * payment's events reach a receiver in order unless a retry intervenes.
 */
export function chooseDeliveries(
  candidates: readonly DeliverySlot[],
  counts: InFlightCounts,
  limit: number,
  budgets: DeliveryBudgets,
  streamCap: (stream: string) => number,
): string[] {
  const chosen: string[] = [];
  for (const slot of candidates) {
    if (chosen.length >= limit) break;
    const streamLimit = Math.min(slot.streamLimit ?? budgets.perStream, streamCap(slot.stream));
    if ((counts.streams.get(slot.stream) ?? 0) >= streamLimit) continue;
    if ((counts.merchants.get(slot.merchantId) ?? 0) >= budgets.perMerchant) continue;
    if ((counts.hosts.get(slot.host) ?? 0) >= budgets.perHost) continue;
    if (slot.subject !== null && counts.subjects.has(`${slot.stream}|${slot.subject}`)) continue;
    counts.add(slot);
    chosen.push(slot.id);
  }
  return chosen;
}

/** A delivery's stream: its endpoint, or its callback URL (callbacks of different merchants never share one). */
export function streamOf(destination: string, targetUrl: string, callbackDestination: string): string {
  return destination === callbackDestination ? `callback:${targetUrl}` : destination;
}

/** The host a delivery connects to, for the per-host budget. */
export function hostOf(targetUrl: string): string {
  try {
    return new URL(targetUrl).host.toLowerCase();
  } catch {
    return '';
  }
}
