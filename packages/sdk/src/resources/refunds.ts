import type { CreateRefundParams, QueryParams } from '../api-types.js';
import type { RequestOptions } from '../transport.js';
import { Resource, segment } from './resource.js';

/** Refunds of a completed collect payment; each belongs to its payment. */
export class Refunds extends Resource {
  /** POST /collect/payments/{reference_or_id}/refunds, with an Idempotency-Key. */
  create(paymentReferenceOrId: string, params: CreateRefundParams, options?: RequestOptions) {
    return this.call('createPaymentRefund', { method: 'POST', path: `/collect/payments/${segment(paymentReferenceOrId)}/refunds`, body: params, idempotent: true }, options);
  }

  /** GET /collect/payments/{reference_or_id}/refunds/{refund_id}. */
  retrieve(paymentReferenceOrId: string, refundId: string, options?: RequestOptions) {
    return this.call('getPaymentRefund', { method: 'GET', path: `/collect/payments/${segment(paymentReferenceOrId)}/refunds/${segment(refundId)}` }, options);
  }

  /** GET /collect/payments/{reference_or_id}/refunds. */
  list(paymentReferenceOrId: string, query?: QueryParams<'listPaymentRefunds'>, options?: RequestOptions) {
    return this.paginate('listPaymentRefunds', `/collect/payments/${segment(paymentReferenceOrId)}/refunds`, query, options);
  }
}
