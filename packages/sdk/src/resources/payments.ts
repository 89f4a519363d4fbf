import type { ConfirmPaymentParams, CreatePaymentParams, QueryParams, RequestBody } from '../api-types.js';
import type { RequestOptions } from '../transport.js';
import { Resource, segment } from './resource.js';

/** Collect payments, current contract (2026-06): amounts in major units. */
export class Payments extends Resource {
  /** POST /collect/payments, with an Idempotency-Key (yours, or one made for this call). */
  create(params: CreatePaymentParams, options?: RequestOptions) {
    return this.call('createPayment', { method: 'POST', path: '/collect/payments', body: params, idempotent: true }, options);
  }

  /** GET /collect/payments/{reference_or_id}; `sync: true` asks the operator about a payment not yet final. */
  retrieve(referenceOrId: string, query?: QueryParams<'getPayment'>, options?: RequestOptions) {
    return this.call('getPayment', { method: 'GET', path: `/collect/payments/${segment(referenceOrId)}`, query }, options);
  }

  /** GET /collect/payments, newest first: await for a page, `for await` for every payment. */
  list(query?: QueryParams<'listPayments'>, options?: RequestOptions) {
    return this.paginate('listPayments', '/collect/payments', query, options);
  }

  /** POST /collect/payments/{reference_or_id}/confirm with the customer's OTP. */
  confirm(referenceOrId: string, params: ConfirmPaymentParams, options?: RequestOptions) {
    return this.call('confirmPayment', { method: 'POST', path: `/collect/payments/${segment(referenceOrId)}/confirm`, body: params, idempotent: true }, options);
  }

  /** POST /collect/payments/{reference_or_id}/cancel. */
  cancel(referenceOrId: string, params: RequestBody<'cancelPayment'> = {}, options?: RequestOptions) {
    return this.call('cancelPayment', { method: 'POST', path: `/collect/payments/${segment(referenceOrId)}/cancel`, body: params, idempotent: true }, options);
  }

  /** POST /collect/payments/{reference_or_id}/pay: the customer paying a hosted checkout (test environment only). */
  simulateCheckoutPayment(referenceOrId: string, params: RequestBody<'simulateCheckoutPayment'>, options?: RequestOptions) {
    return this.call('simulateCheckoutPayment', { method: 'POST', path: `/collect/payments/${segment(referenceOrId)}/pay`, body: params, idempotent: true }, options);
  }

  /** GET /collect/payments/operators/: countries, currencies and collect operators. */
  operators(options?: RequestOptions) {
    return this.call('getOperatorCatalog', { method: 'GET', path: '/collect/payments/operators/' }, options);
  }
}
