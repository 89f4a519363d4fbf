import type { CreateTransferParams, QueryParams } from '../api-types.js';
import type { RequestOptions } from '../transport.js';
import { Resource, segment } from './resource.js';

/** Wallet transfers between Akwe merchants, in the key's environment. */
export class Transfers extends Resource {
  /** POST /transfers/, with an Idempotency-Key. */
  create(params: CreateTransferParams, options?: RequestOptions) {
    return this.call('createTransfer', { method: 'POST', path: '/transfers/', body: params, idempotent: true }, options);
  }

  /** GET /transfers/{id}. */
  retrieve(id: string, options?: RequestOptions) {
    return this.call('getTransfer', { method: 'GET', path: `/transfers/${segment(id)}` }, options);
  }

  /** GET /transfers/, newest first (sent and received). */
  list(query?: QueryParams<'listTransfers'>, options?: RequestOptions) {
    return this.paginate('listTransfers', '/transfers/', query, options);
  }
}
