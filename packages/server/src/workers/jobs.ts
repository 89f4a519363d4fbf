import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Services } from '../services.js';
import { WebhookDeliveryJob } from '../webhooks/webhook-delivery-job.js';
import { webhookSenders } from '../webhooks/webhook-senders.js';
import { renderDelivery } from '../http/contracts/index.js';
import { eventFanoutJob } from './event-fanout-job.js';
import { bulkFollowJob, payoutCheckJob, payoutHandoffJob } from './payout-jobs.js';
import { settlementFollowJob } from './settlement-jobs.js';
import { idempotencyCleanupJob } from './idempotency-cleanup-job.js';
import { paymentExpiryJob } from './payment-expiry-job.js';
import { paymentReconcileJob } from './payment-reconcile-job.js';
import { requestRecoveryJob } from './request-recovery-job.js';
import { settlementScheduleJob } from './settlement-schedule-job.js';
import { floatReadJob } from './float-read-job.js';
import { dailyReconciliationJob } from './daily-reconciliation-job.js';
import { DailyStatements, statementRoutes } from '../core/reconciliation/daily-statements.js';
import type { WorkerJob } from './worker-pool.js';
import { newId } from '../core/shared/ids.js';
import type { AkweMetrics } from '../metrics/akwe-metrics.js';

/** The background jobs every worker runs (payouts join with their issue). */
export function createJobs(services: Services, config: Pick<Config, 'dev' | 'publicUrl' | 'reconciliationStatementHourUtc'>, logger?: Logger): WorkerJob[] {
  const senders = webhookSenders({ dev: config.dev });
  const dailyStatements = new DailyStatements({
    reconciliation: services.reconciliation,
    routes: () => statementRoutes(services.catalog, services.operators),
    clock: services.clock,
    settleHours: config.reconciliationStatementHourUtc,
    onFailure: (route, error) => logger?.error({ route, err: error }, 'the daily reconciliation of a route failed; tried again at the next look'),
  });
  const jobs: WorkerJob[] = [
    paymentExpiryJob(services.payments),
    paymentReconcileJob(services.payments),
    requestRecoveryJob(services.payments),
    idempotencyCleanupJob({ store: services.idempotency, clock: services.clock }),
    eventFanoutJob(services.webhooks),
    payoutHandoffJob(services.payouts),
    payoutCheckJob(services.payouts),
    bulkFollowJob(services.bulk),
    settlementFollowJob(services.settlements),
    settlementScheduleJob(services.settlementSchedules),
    floatReadJob(services.floats.watch),
    dailyReconciliationJob(dailyStatements),
    new WebhookDeliveryJob({
      store: services.webhookStore,
      webhooks: services.webhooks,
      senderFor: senders,
      closeSenders: senders.close,
      clock: services.clock,
      newId,
      publicUrl: config.publicUrl,
      render: renderDelivery,
      logger,
      // A finished send frees a slot: the loop claims the next at once instead of pausing.
      onSlotFree: () => services.signals.wakeLocal('deliveries'),
      onTryRecorded: (status) => services.metrics.webhookDeliveries.inc({ outcome: status }),
    }),
  ];
  return jobs.map((job) => countingItems(job, services.metrics));
}

/**
 * Counts what each pass handled under the job's name: request-recovery's count is the recoveries,
 * payment-reconcile's and payout-check's the reconciliation checks. The job object is kept (its
 * stop and state stay), only its runOnce is wrapped.
 */
function countingItems(job: WorkerJob, metrics: AkweMetrics): WorkerJob {
  metrics.workerItems.inc({ job: job.name }, 0);
  const runOnce = job.runOnce.bind(job);
  job.runOnce = async () => {
    const handled = await runOnce();
    if (handled > 0) metrics.workerItems.inc({ job: job.name }, handled);
    return handled;
  };
  return job;
}
