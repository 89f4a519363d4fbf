import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Services } from '../services.js';
import { WebhookDeliveryJob } from '../webhooks/webhook-delivery-job.js';
import { webhookSenders } from '../webhooks/webhook-senders.js';
import { eventFanoutJob } from './event-fanout-job.js';
import { bulkFollowJob, payoutCheckJob, payoutHandoffJob } from './payout-jobs.js';
import { idempotencyCleanupJob } from './idempotency-cleanup-job.js';
import { paymentExpiryJob } from './payment-expiry-job.js';
import { paymentReconcileJob } from './payment-reconcile-job.js';
import { requestRecoveryJob } from './request-recovery-job.js';
import type { WorkerJob } from './worker-pool.js';
import { newId } from '../core/shared/ids.js';

/** The background jobs every worker runs (payouts join with their issue). */
export function createJobs(services: Services, config: Pick<Config, 'dev' | 'publicUrl'>, logger?: Logger): WorkerJob[] {
  const senders = webhookSenders({ dev: config.dev });
  return [
    paymentExpiryJob(services.payments),
    paymentReconcileJob(services.payments),
    requestRecoveryJob(services.payments),
    idempotencyCleanupJob({ store: services.idempotency, clock: services.clock }),
    eventFanoutJob(services.webhooks),
    payoutHandoffJob(services.payouts),
    payoutCheckJob(services.payouts),
    bulkFollowJob(services.bulk),
    new WebhookDeliveryJob({
      store: services.webhookStore,
      webhooks: services.webhooks,
      senderFor: senders,
      closeSenders: senders.close,
      clock: services.clock,
      newId,
      publicUrl: config.publicUrl,
      logger,
      // A finished send frees a slot: the loop claims the next at once instead of pausing.
      onSlotFree: () => services.signals.wakeLocal('deliveries'),
    }),
  ];
}
