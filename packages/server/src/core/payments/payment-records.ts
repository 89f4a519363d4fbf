import { finishWrite, reportCommitted, type RecordedRequest } from '../idempotency/request-journal.js';
import type { TenantScope } from '../shared/environment.js';
import { notFoundIn } from '../shared/not-found.js';
import type { Payment } from './payment.js';
import type { PaymentStore } from './payment-store.js';

/** The scope's payment by reference or id; 404 (naming the other environment if it holds it) otherwise. */
export async function findPayment(store: PaymentStore, scope: TenantScope, referenceOrId: string): Promise<Payment> {
  const payment = await store.find(scope, referenceOrId);
  if (!payment) throw await notFoundIn(scope, 'payment', referenceOrId, (other) => store.find(other, referenceOrId));
  return payment;
}

/** Stores the response of a request whose resource needs no further write. */
export async function answerOnly<T>(store: PaymentStore, request: RecordedRequest<T>, resourceId: string, result: T): Promise<T> {
  const claim = finishWrite(request, resourceId, result);
  if (claim) {
    await store.save({ events: [], claim });
    reportCommitted(request, claim);
  }
  return result;
}
