import type { CreatePayoutParams, QueryParams } from '../api-types.js';
import type { RequestOptions } from '../transport.js';
import { Resource, segment } from './resource.js';

/** Payouts to a beneficiary's wallet (contract 2025-01): amounts in centimes, statuses in capitals. */
export class Payouts extends Resource {
  /** POST /payout/mobile-money/, with an Idempotency-Key. */
  create(params: CreatePayoutParams, options?: RequestOptions) {
    return this.call('createPayout', { method: 'POST', path: '/payout/mobile-money/', body: params, idempotent: true }, options);
  }

  /** GET /payout/mobile-money/{reference}/; `sync: true` asks the operator about a payout still pending. */
  retrieve(reference: string, query?: QueryParams<'getPayout'>, options?: RequestOptions) {
    return this.call('getPayout', { method: 'GET', path: `/payout/mobile-money/${segment(reference)}/`, query }, options);
  }

  /** GET /payout/mobile-money/, newest first. */
  list(query?: QueryParams<'listPayouts'>, options?: RequestOptions) {
    return this.paginate('listPayouts', '/payout/mobile-money/', query, options);
  }

  /** GET /payout/operators/: the payout operators. */
  operators(options?: RequestOptions) {
    return this.call('getPayoutOperatorCatalog', { method: 'GET', path: '/payout/operators/' }, options);
  }
}
