import type { PaymentService } from '../core/payments/payment-service.js';
import type { WorkerJob } from './worker-pool.js';

/** Asks operators about the live payments whose check is due (a lost callback), a bounded batch per pass. */
export function paymentReconcileJob(payments: PaymentService, options: { batchSize?: number; idleDelayMs?: number } = {}): WorkerJob {
  return {
    name: 'payment-reconcile',
    idleDelayMs: options.idleDelayMs ?? 1_000,
    runOnce: () => payments.reconcileDue(options.batchSize ?? 50),
  };
}
