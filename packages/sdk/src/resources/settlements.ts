import type { CreateSettlementAccountParams, CreateSettlementParams, QueryParams, UpdateSettlementAccountParams } from '../api-types.js';
import type { RequestOptions } from '../transport.js';
import { Resource, segment } from './resource.js';

/** Settlements: the available balance paid out to the merchant's own wallet or bank account. */
export class Settlements extends Resource {
  /** POST /settlements/, with an Idempotency-Key. */
  create(params: CreateSettlementParams, options?: RequestOptions) {
    return this.call('createSettlement', { method: 'POST', path: '/settlements/', body: params, idempotent: true }, options);
  }

  /** GET /settlements/{id}. */
  retrieve(id: string, options?: RequestOptions) {
    return this.call('getSettlement', { method: 'GET', path: `/settlements/${segment(id)}` }, options);
  }

  /** GET /settlements/, newest first. */
  list(query?: QueryParams<'listSettlements'>, options?: RequestOptions) {
    return this.paginate('listSettlements', '/settlements/', query, options);
  }

  /** GET /settlements/{id}/statement: what the settlement covers, summed. */
  statement(id: string, options?: RequestOptions) {
    return this.call('getSettlementStatement', { method: 'GET', path: `/settlements/${segment(id)}/statement` }, options);
  }

  /** GET /settlements/{id}/statement.csv: the statement as CSV text. */
  statementCsv(id: string, options?: RequestOptions): Promise<string> {
    return this.transport.request<string>({ method: 'GET', path: `/settlements/${segment(id)}/statement.csv`, responseType: 'text' }, options);
  }
}

/** The wallets and bank accounts settlements go to. */
export class SettlementAccounts extends Resource {
  /** POST /settlement-accounts/, with an Idempotency-Key. */
  create(params: CreateSettlementAccountParams, options?: RequestOptions) {
    return this.call('createSettlementAccount', { method: 'POST', path: '/settlement-accounts/', body: params, idempotent: true }, options);
  }

  /** GET /settlement-accounts/{id}. */
  retrieve(id: string, options?: RequestOptions) {
    return this.call('getSettlementAccount', { method: 'GET', path: `/settlement-accounts/${segment(id)}` }, options);
  }

  /** GET /settlement-accounts/. */
  list(query?: QueryParams<'listSettlementAccounts'>, options?: RequestOptions) {
    return this.paginate('listSettlementAccounts', '/settlement-accounts/', query, options);
  }

  /** PATCH /settlement-accounts/{id}: a changed destination waits a new cooling period. */
  update(id: string, params: UpdateSettlementAccountParams, options?: RequestOptions) {
    return this.call('updateSettlementAccount', { method: 'PATCH', path: `/settlement-accounts/${segment(id)}`, body: params }, options);
  }

  /** DELETE /settlement-accounts/{id}. */
  del(id: string, options?: RequestOptions) {
    return this.call('removeSettlementAccount', { method: 'DELETE', path: `/settlement-accounts/${segment(id)}` }, options);
  }
}
