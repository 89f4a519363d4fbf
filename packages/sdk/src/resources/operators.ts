import type { RequestBody } from '../api-types.js';
import type { RequestOptions } from '../transport.js';
import { Resource } from './resource.js';

export class Operators extends Resource {
  /** POST /operators/predict: which operator a phone number belongs to (a read: no key needed, safe to retry). */
  predict(params: RequestBody<'predictOperator'>, options?: RequestOptions) {
    return this.call('predictOperator', { method: 'POST', path: '/operators/predict', body: params }, options);
  }

  /** GET /collect/payments/operators/: countries, currencies and collect operators. */
  catalog(options?: RequestOptions) {
    return this.call('getOperatorCatalog', { method: 'GET', path: '/collect/payments/operators/' }, options);
  }
}
