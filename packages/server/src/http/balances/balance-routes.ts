import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { BalanceTransaction, LedgerReader } from '../../core/ledger/ledger.js';
import { principalOf } from '../plugins/authentication.js';
import { errorResponses } from '../shared/error-schemas.js';
import { enumFiltersInAnyCase, instantFilter } from '../shared/list-filters.js';
import { readList } from '../shared/list-cursors.js';
import { BalanceObject, BalanceTransactionList, ListBalanceTransactionsQuery } from './balance-schemas.js';

export interface BalanceRoutesOptions {
  ledger: LedgerReader;
}

const tags = ['balances'];

function transactionToWire(transaction: BalanceTransaction) {
  return {
    object: 'balance_transaction' as const,
    id: transaction.id,
    type: transaction.type,
    currency: transaction.currency,
    available_change_minor: transaction.availableChangeMinor,
    reserved_change_minor: transaction.reservedChangeMinor,
    fee_minor: transaction.feeMinor,
    source: { object: transaction.source.type, id: transaction.source.id, reference: transaction.source.reference },
    description: transaction.description,
    settlement: transaction.settlementId,
    environment: transaction.environment,
    created_at: transaction.createdAt,
  };
}

/** The merchant's balances and the ledger transactions behind them (docs/ledger.md). Centimes, like payouts. */
export const balanceRoutes: FastifyPluginAsyncTypebox<BalanceRoutesOptions> = async (app, { ledger }) => {
  app.get(
    '/balances',
    {
      config: { scope: 'payout:read', rateLimitBucket: 'read' },
      schema: { tags, operationId: 'getBalances', summary: 'Available and reserved balances per currency', response: { 200: BalanceObject, ...errorResponses(401, 403, 429) } },
    },
    async (request) => {
      const principal = principalOf(request);
      const balances = await ledger.balances(principal);
      return {
        object: 'balance' as const,
        environment: principal.environment,
        balances: balances.map((b) => ({ currency: b.currency, available_minor: b.availableMinor, reserved_minor: b.reservedMinor })),
      };
    },
  );

  app.get(
    '/balance-transactions',
    {
      config: { scope: 'payout:read', rateLimitBucket: 'read' },
      preValidation: enumFiltersInAnyCase(ListBalanceTransactionsQuery),
      schema: {
        tags,
        operationId: 'listBalanceTransactions',
        summary: 'Balance transactions, newest first',
        description:
          'Every change of the balances: collections (less their fee), refunds, payouts and their reservations, the sandbox float, settlements. Filters: type, settlement (the lines of that settlement’s statement), created_gte, created_lte.',
        querystring: ListBalanceTransactionsQuery,
        response: { 200: BalanceTransactionList, ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => {
      const query = request.query;
      const filters = { type: query.type, settlementId: query.settlement, createdGte: instantFilter(query.created_gte, 'created_gte'), createdLte: instantFilter(query.created_lte, 'created_lte') };
      const list = readList(request, 'balance_transactions', filters);
      return list.envelope(await ledger.transactions(principalOf(request), filters, list.page), transactionToWire);
    },
  );
};
