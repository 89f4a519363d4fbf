/**
 * One process's Prometheus metrics: a Registry of its own (never prom-client's global one, so
 * tests can build many apps in one process), the counters and histograms the hot paths bump, and
 * the storage gauges read at scrape time (storage-gauges.ts). docs/deployment.md lists them all.
 */
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AkweDatabase } from '../storage/database.js';
import { registerStorageGauges } from './storage-gauges.js';
import { registerFloatGauges } from './float-gauges.js';

/** Seconds: from a fast read (a few ms) to a request held by a slow operator (tens of seconds). */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface MetricsOptions {
  /** Scrape-time gauges (payments, payouts, webhook queue, pool) read from here; none without it. */
  database?: AkweDatabase;
  /**
   * prom-client's process metrics (CPU, memory, event loop lag, GC). Each collection starts
   * observers that cannot be stopped, so only the long-running processes (and one test) ask.
   */
  processMetrics?: boolean;
}

export class AkweMetrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'akwe_http_requests_total',
    help: 'HTTP requests answered, by route pattern (never the raw URL), method and status code.',
    labelNames: ['route', 'method', 'status_code'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'akwe_http_request_duration_seconds',
    help: 'Time from the request arriving to its answer being sent, by route pattern and method.',
    labelNames: ['route', 'method'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly operatorCalls = new Counter({
    name: 'akwe_operator_calls_total',
    help: 'Calls to an operator connector, by connector family, operator (gateway code), route (`mtn_bj/mtn-momo`), operation and outcome.',
    labelNames: ['connector', 'operator', 'route', 'operation', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly operatorDuration = new Histogram({
    name: 'akwe_operator_call_duration_seconds',
    help: 'Time an operator connector call took, by connector family, operator, route and operation.',
    labelNames: ['connector', 'operator', 'route', 'operation'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'akwe_webhook_delivery_attempts_total',
    help: 'Webhook delivery tries recorded, by what the try decided: succeeded, retrying, exhausted or cancelled.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly workerItems = new Counter({
    name: 'akwe_worker_items_total',
    help: 'Items a background job handled (request-recovery: operator calls recovered; payment-reconcile and payout-check: reconciliation checks).',
    labelNames: ['job'] as const,
    registers: [this.registry],
  });

  readonly discrepancies = new Counter({
    name: 'akwe_operator_discrepancies_total',
    help: 'New operator discrepancies recorded (an operator status our state machine refused), by resource.',
    labelNames: ['resource'] as const,
    registers: [this.registry],
  });

  readonly keyUseWriteFailures = new Counter({
    name: 'akwe_api_key_use_write_failures_total',
    help: 'API key "last used" writes that failed (they run after the request, which never sees the failure).',
    registers: [this.registry],
  });

  constructor(options: MetricsOptions = {}) {
    // Known label values start at 0, so a rate() or an alert has its series before the first event.
    for (const outcome of ['succeeded', 'retrying', 'exhausted', 'cancelled']) this.webhookDeliveries.inc({ outcome }, 0);
    for (const resource of ['payment', 'payout']) this.discrepancies.inc({ resource }, 0);
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
    if (options.database) {
      registerStorageGauges(this.registry, options.database);
      registerFloatGauges(this.registry, options.database);
    }
  }

  /** The text exposition format, and its content type. */
  async scrape(): Promise<{ body: string; contentType: string }> {
    return { body: await this.registry.metrics(), contentType: this.registry.contentType };
  }
}
