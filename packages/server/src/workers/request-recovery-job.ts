import type { PaymentService } from '../core/payments/payment-service.js';
import type { WorkerJob } from './worker-pool.js';

/**
 * Finishes operator calls whose run died (a crash between recorded phases) once their lease has
 * ended: no payment stays in its first status, and no refund stays pending, because of a crash.
 */
export function requestRecoveryJob(payments: PaymentService, options: { batchSize?: number; idleDelayMs?: number } = {}): WorkerJob {
  return {
    name: 'request-recovery',
    idleDelayMs: options.idleDelayMs ?? 2_000,
    runOnce: () => payments.recoverAbandoned(options.batchSize ?? 50),
  };
}
