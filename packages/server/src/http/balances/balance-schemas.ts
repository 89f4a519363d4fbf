import { Type } from 'typebox';
import { balanceTransactionTypes } from '../../core/ledger/ledger.js';
import { listOf, listQuery } from '../shared/pagination.js';

export const BalanceObject = Type.Object(
  {
    object: Type.Literal('balance'),
    environment: Type.String(),
    balances: Type.Array(
      Type.Object({
        currency: Type.String(),
        available_minor: Type.Integer({ description: 'Centimes (100 FCFA = 10000) the merchant can pay out or refund now.' }),
        reserved_minor: Type.Integer({ description: 'Centimes (100 FCFA = 10000) held for payouts and refunds in flight; released or spent when they finish.' }),
      }),
    ),
  },
  { title: 'Balance', description: 'The key’s environment’s balances, per currency, in centimes. A test balance starts with the sandbox float.' },
);

export const BalanceTransactionObject = Type.Object(
  {
    object: Type.Literal('balance_transaction'),
    id: Type.String(),
    type: Type.Enum(balanceTransactionTypes),
    currency: Type.String(),
    available_change_minor: Type.Integer({ description: 'Centimes (100 FCFA = 10000) added to (or, negative, taken from) the available balance.' }),
    reserved_change_minor: Type.Integer({ description: 'Centimes (100 FCFA = 10000) added to or released from the reserved balance.' }),
    fee_minor: Type.Integer({ description: 'Centimes (100 FCFA = 10000) of fee this transaction charged.' }),
    source: Type.Object({
      object: Type.String({ description: 'payment, refund, payout, or account (the sandbox float).' }),
      id: Type.String(),
      reference: Type.Union([Type.String(), Type.Null()]),
    }),
    description: Type.String(),
    environment: Type.String(),
    created_at: Type.String(),
  },
  { title: 'BalanceTransaction', description: 'One ledger transaction as it moved the merchant’s balances: their sum over all transactions is the balance.' },
);

export const BalanceTransactionList = listOf(BalanceTransactionObject, { title: 'BalanceTransactionList', description: 'Balance transactions, newest first.' });

export const ListBalanceTransactionsQuery = listQuery({
  type: Type.Optional(Type.Enum(balanceTransactionTypes)),
  created_gte: Type.Optional(Type.String({ format: 'date-time' })),
  created_lte: Type.Optional(Type.String({ format: 'date-time' })),
});
