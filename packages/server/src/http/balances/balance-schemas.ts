import { Type } from 'typebox';
import { inCentimes } from '../shared/money-descriptions.js';
import { balanceTransactionTypes } from '../../core/ledger/ledger.js';
import { listOf, listQuery } from '../shared/pagination.js';

export const BalanceObject = Type.Object(
  {
    object: Type.Literal('balance'),
    environment: Type.String(),
    balances: Type.Array(
      Type.Object({
        currency: Type.String(),
        available_minor: Type.Integer({ description: inCentimes('What the merchant can pay out or refund now.') }),
        reserved_minor: Type.Integer({ description: inCentimes('Held for payouts and refunds in flight; released or spent when they finish.') }),
      }),
    ),
  },
  {
    title: 'Balance',
    description: 'The key’s environment’s balances, per currency, in centimes. A test balance starts with the sandbox float.',
    examples: [{ object: 'balance', environment: 'test', balances: [{ currency: 'XOF', available_minor: 99462500, reserved_minor: 2537500 }] }],
  },
);

export const BalanceTransactionObject = Type.Object(
  {
    object: Type.Literal('balance_transaction'),
    id: Type.String(),
    type: Type.Enum(balanceTransactionTypes),
    currency: Type.String(),
    available_change_minor: Type.Integer({ description: inCentimes('Added to (or, negative, taken from) the available balance.') }),
    reserved_change_minor: Type.Integer({ description: inCentimes('Added to or released from the reserved balance.') }),
    fee_minor: Type.Integer({ description: inCentimes('The fee this transaction charged.') }),
    source: Type.Object({
      object: Type.String({ description: 'payment, refund, payout, transfer, settlement, or account (the sandbox float).' }),
      id: Type.String(),
      reference: Type.Union([Type.String(), Type.Null()]),
    }),
    description: Type.String(),
    settlement: Type.Union([Type.String(), Type.Null()], { description: 'The settlement whose statement covers this transaction; null until the next settlement of its currency.' }),
    environment: Type.String(),
    created_at: Type.String(),
  },
  {
    title: 'BalanceTransaction',
    description: 'One ledger transaction as it moved the merchant’s balances: their sum over all transactions is the balance.',
    examples: [
      {
        object: 'balance_transaction',
        id: '0193a7e1-5d6e-7f80-9a1b-2c3d4e5f6a7b',
        type: 'payout_reservation',
        currency: 'XOF',
        available_change_minor: -2537500,
        reserved_change_minor: 2537500,
        fee_minor: 0,
        source: { object: 'payout', id: '0193a7e1-4c5d-7e6f-8a9b-0c1d2e3f4a5b', reference: 'salary-2026-06-042' },
        description: 'Payout salary-2026-06-042 reserved (amount and fee)',
        settlement: null,
        environment: 'test',
        created_at: '2026-06-01T09:30:00.000Z',
      },
    ],
  },
);

export const BalanceTransactionList = listOf(BalanceTransactionObject, { title: 'BalanceTransactionList', description: 'Balance transactions, newest first.' });

export const ListBalanceTransactionsQuery = listQuery({
  type: Type.Optional(Type.Enum(balanceTransactionTypes)),
  settlement: Type.Optional(Type.String({ format: 'uuid', description: 'Only the lines of this settlement’s statement.' })),
  created_gte: Type.Optional(Type.String({ format: 'date-time' })),
  created_lte: Type.Optional(Type.String({ format: 'date-time' })),
});
