import type { WebhookService } from '../core/webhooks/webhook-service.js';
import type { WorkerJob } from './worker-pool.js';

/** Turns new events into webhook deliveries, a bounded batch per pass. */
export function eventFanoutJob(webhooks: WebhookService, options: { batchSize?: number; idleDelayMs?: number } = {}): WorkerJob {
  return { name: 'event-fanout', idleDelayMs: options.idleDelayMs ?? 1_000, wakeOn: ['events', 'fanout'], runOnce: () => webhooks.fanOut(options.batchSize ?? 500) };
}
