import type { CreatePaymentLinkParams, QueryParams, UpdatePaymentLinkParams } from '../api-types.js';
import type { RequestOptions } from '../transport.js';
import { Resource, segment } from './resource.js';

/** Payment links: a page anyone can pay the merchant through (its `url`), and its QR code. */
export class PaymentLinks extends Resource {
  /** POST /payment-links, with an Idempotency-Key. */
  create(params: CreatePaymentLinkParams, options?: RequestOptions) {
    return this.call('createPaymentLink', { method: 'POST', path: '/payment-links', body: params, idempotent: true }, options);
  }

  /** GET /payment-links/{id}. */
  retrieve(id: string, options?: RequestOptions) {
    return this.call('getPaymentLink', { method: 'GET', path: `/payment-links/${segment(id)}` }, options);
  }

  /** GET /payment-links, newest first. */
  list(query?: QueryParams<'listPaymentLinks'>, options?: RequestOptions) {
    return this.paginate('listPaymentLinks', '/payment-links', query, options);
  }

  /** PATCH /payment-links/{id}: description, max_payments, expires_at, return_url, metadata. */
  update(id: string, params: UpdatePaymentLinkParams, options?: RequestOptions) {
    return this.call('updatePaymentLink', { method: 'PATCH', path: `/payment-links/${segment(id)}`, body: params }, options);
  }

  /** POST /payment-links/{id}/deactivate: the page takes no more payments. */
  deactivate(id: string, options?: RequestOptions) {
    return this.call('deactivatePaymentLink', { method: 'POST', path: `/payment-links/${segment(id)}/deactivate`, idempotent: true }, options);
  }

  /** GET /payment-links/{id}/qr.svg: the QR code of the link's url, as SVG text. */
  qrSvg(id: string, query?: { size?: number }, options?: RequestOptions): Promise<string> {
    return this.transport.request<string>({ method: 'GET', path: `/payment-links/${segment(id)}/qr.svg`, query, responseType: 'text' }, options);
  }
}
