import type { PaymentService } from '../core/payments/payment-service.js';
import type { WorkerJob } from './worker-pool.js';

/** Expires non-final payments past their lifetime, a bounded batch per pass. */
export function paymentExpiryJob(payments: PaymentService, options: { batchSize?: number; idleDelayMs?: number } = {}): WorkerJob {
  return {
    name: 'payment-expiry',
    idleDelayMs: options.idleDelayMs ?? 1_000,
    runOnce: () => payments.expireDue(options.batchSize ?? 100),
  };
}
