import type { QueryParams } from '../api-types.js';
import type { RequestOptions } from '../transport.js';
import { Resource } from './resource.js';

export class Balances extends Resource {
  /** GET /balances: available, pending and reserved amounts per currency, in centimes. */
  retrieve(options?: RequestOptions) {
    return this.call('getBalances', { method: 'GET', path: '/balances' }, options);
  }
}

export class BalanceTransactions extends Resource {
  /** GET /balance-transactions: the ledger transactions that moved the balances, newest first. */
  list(query?: QueryParams<'listBalanceTransactions'>, options?: RequestOptions) {
    return this.paginate('listBalanceTransactions', '/balance-transactions', query, options);
  }
}
