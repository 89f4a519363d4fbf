import type { QueryParams } from '../api-types.js';
import type { RequestOptions } from '../transport.js';
import { Resource } from './resource.js';

/** CSV exports, read whole into a string (for very large ones, stream GET /exports/… with fetch yourself). */
export class Exports extends Resource {
  payments(query?: QueryParams<'exportPayments'>, options?: RequestOptions): Promise<string> {
    return this.transport.request<string>({ method: 'GET', path: '/exports/payments.csv', query, responseType: 'text' }, options);
  }

  payouts(query?: QueryParams<'exportPayouts'>, options?: RequestOptions): Promise<string> {
    return this.transport.request<string>({ method: 'GET', path: '/exports/payouts.csv', query, responseType: 'text' }, options);
  }

  balanceTransactions(query?: QueryParams<'exportBalanceTransactions'>, options?: RequestOptions): Promise<string> {
    return this.transport.request<string>({ method: 'GET', path: '/exports/balance-transactions.csv', query, responseType: 'text' }, options);
  }
}
