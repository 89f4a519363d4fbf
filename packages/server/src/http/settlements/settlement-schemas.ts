import { Type } from 'typebox';
import { settlementStatuses } from '../../core/settlements/settlement.js';
import { failureCodeList } from '../../core/shared/failure-codes.js';
import { Reference } from '../contracts/collect-2026-06/payment-schemas.js';
import { MetadataInput, MetadataObject, metadataFilterProperties } from '../shared/metadata-schema.js';
import { inCentimes } from '../shared/money-descriptions.js';
import { listOf, listQuery } from '../shared/pagination.js';
import { csvDelimiter } from '../exports/export-schemas.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);

const settlementExample = {
  object: 'settlement',
  id: '0193a901-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  reference: 'settle-2026-06-18',
  status: 'paid',
  origin: 'api',
  amount_minor: 25000000,
  fee_minor: 250000,
  net_amount_minor: 24750000,
  currency: 'XOF',
  settlement_account: '0193a812-4c5d-7e6f-8091-a2b3c4d5e6f7',
  destination: { kind: 'wallet', country: 'BJ', holder_name: 'Boutique Adjoa SARL', operator: 'mtn-bj', phone: '+22990000001', iban: null, bank_name: null },
  payout_id: '0193a901-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
  bank_reference: null,
  failure_code: null,
  failure_message: null,
  statement: {
    opening_available_minor: 0,
    closing_available_minor: 0,
    opening_reserved_minor: 0,
    closing_reserved_minor: 25000000,
    url: '/api/v1/settlements/0193a901-1a2b-7c3d-8e4f-5a6b7c8d9e0f/statement',
    csv_url: '/api/v1/settlements/0193a901-1a2b-7c3d-8e4f-5a6b7c8d9e0f/statement.csv',
  },
  description: null,
  metadata: {},
  environment: 'live',
  sandbox: false,
  idempotent_replay: false,
  created_at: '2026-06-18T00:00:02.000Z',
  updated_at: '2026-06-18T00:00:09.000Z',
  settled_at: '2026-06-18T00:00:09.000Z',
} as const;

export const SettlementObject = Type.Object(
  {
    object: Type.Literal('settlement'),
    id: Type.String({ format: 'uuid' }),
    reference: Type.String({ description: 'Yours, or the settlement’s id when you gave none; a scheduled one’s is `auto-<currency>-<date>`.' }),
    status: Type.Enum(settlementStatuses, {
      description: '`pending` (reserved; a wallet one waits for its payout, a bank one for an administrator), `in_transit` (the operator took it), `paid`, `failed`.',
    }),
    origin: Type.Enum(['api', 'schedule'], { description: 'Asked by `POST /settlements/`, or made by your schedule.' }),
    amount_minor: Type.Integer({ description: inCentimes('What left your available balance, fee included.') }),
    fee_minor: Type.Integer({ description: inCentimes('The payout fee of the catalog (wallet); 0 for a bank settlement.') }),
    net_amount_minor: Type.Integer({ description: inCentimes('What reaches the settlement account: amount less fee.') }),
    currency: Type.String(),
    settlement_account: Type.String({ description: 'The settlement account’s id.' }),
    destination: Type.Object(
      {
        kind: Type.Enum(['wallet', 'bank']),
        country: Type.String(),
        holder_name: Type.String(),
        operator: NullableString,
        phone: NullableString,
        iban: NullableString,
        bank_name: NullableString,
      },
      { description: 'Where the money went, as the account was when the settlement was made.' },
    ),
    payout_id: Type.Union([Type.String(), Type.Null()], { description: 'The payout sending a wallet settlement (GET /api/v1/payouts/{id}).' }),
    bank_reference: Type.Union([Type.String(), Type.Null()], { description: 'The bank’s reference, once an administrator marked a bank settlement paid.' }),
    failure_code: Type.Union([Type.Enum(failureCodeList), Type.Null()]),
    failure_message: NullableString,
    statement: Type.Object(
      {
        opening_available_minor: Type.Integer({
          description: inCentimes('The available balance before the first transaction the statement covers (the previous settlement’s closing).'),
        }),
        closing_available_minor: Type.Integer({ description: inCentimes('The available balance right after this settlement’s reservation.') }),
        opening_reserved_minor: Type.Integer({ description: inCentimes('The reserved balance before the first transaction the statement covers.') }),
        closing_reserved_minor: Type.Integer({ description: inCentimes('The reserved balance right after this settlement’s reservation.') }),
        url: Type.String({ description: 'The statement, JSON.' }),
        csv_url: Type.String({ description: 'The statement’s lines, CSV.' }),
      },
      {
        description:
          'The balance transactions since the previous settlement of this currency, up to and with this one’s reservation: opening + their changes = closing, to the centime.',
      },
    ),
    description: NullableString,
    metadata: MetadataObject,
    environment: Type.String(),
    sandbox: Type.Boolean(),
    idempotent_replay: Type.Boolean(),
    created_at: Type.String(),
    updated_at: Type.String(),
    settled_at: Type.Union([Type.String(), Type.Null()], { description: 'When it became paid or failed.' }),
  },
  { title: 'Settlement', description: 'Money moved from your available balance to your own settlement account.', examples: [settlementExample] },
);

/** A new settlement (docs/settlements.md): all or part of one currency's available balance, to your own account. */
export const CreateSettlementBody = Type.Object(
  {
    settlement_account: Type.String({ minLength: 1, maxLength: 64, description: 'The settlement account’s id (usable: its cooling period over).' }),
    currency: Type.String({ minLength: 1, maxLength: 16, description: 'The account’s currency (XOF).' }),
    amount_minor: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 100_000_000_000, description: inCentimes('What leaves your available balance, fee included; the whole available balance when absent.') }),
    ),
    reference: Type.Optional(Reference),
    description: Type.Optional(Type.String({ maxLength: 255 })),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    title: 'CreateSettlementRequest',
    examples: [
      { settlement_account: '0193a812-4c5d-7e6f-8091-a2b3c4d5e6f7', currency: 'XOF', amount_minor: 25000000, reference: 'settle-2026-06-18', metadata: { period: '2026-06' } },
    ],
  },
);

/** The statement file's query: only its delimiter (the exports' choice). */
export const StatementCsvQuery = Type.Object({ ...csvDelimiter }, { additionalProperties: false });

export const SettlementParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'The settlement’s id, or your reference.' }) });

export const ListSettlementsQuery = listQuery(
  {
    status: Type.Optional(Type.Enum(settlementStatuses)),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    created_gte: Type.Optional(Type.String({ format: 'date-time' })),
    created_lte: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { patternProperties: metadataFilterProperties },
);

export const SettlementList = listOf(SettlementObject, { title: 'SettlementList', description: 'The merchant’s settlements in the key’s environment, newest first.' });

const statementExample = {
  object: 'settlement_statement',
  settlement: settlementExample.id,
  currency: 'XOF',
  opening_available_minor: 0,
  closing_available_minor: 0,
  available_change_minor: 0,
  opening_reserved_minor: 0,
  closing_reserved_minor: 25000000,
  reserved_change_minor: 25000000,
  fee_minor: 250000,
  line_count: 3,
  totals: [
    { type: 'collection', count: 2, available_change_minor: 25000000, reserved_change_minor: 0, fee_minor: 250000 },
    { type: 'settlement_reservation', count: 1, available_change_minor: -25000000, reserved_change_minor: 25000000, fee_minor: 0 },
  ],
  lines_url: `/api/v1/balance-transactions?settlement=${settlementExample.id}`,
  csv_url: `/api/v1/settlements/${settlementExample.id}/statement.csv`,
} as const;

export const SettlementStatementObject = Type.Object(
  {
    object: Type.Literal('settlement_statement'),
    settlement: Type.String(),
    currency: Type.String(),
    opening_available_minor: Type.Integer({ description: inCentimes('The available balance before the first line (the previous settlement’s closing; 0 for the first).') }),
    closing_available_minor: Type.Integer({ description: inCentimes('The available balance right after this settlement’s reservation.') }),
    available_change_minor: Type.Integer({ description: inCentimes('The sum of the lines’ available changes: closing - opening, to the centime.') }),
    opening_reserved_minor: Type.Integer({ description: inCentimes('The reserved balance before the first line.') }),
    closing_reserved_minor: Type.Integer({ description: inCentimes('The reserved balance right after this settlement’s reservation.') }),
    reserved_change_minor: Type.Integer({ description: inCentimes('The sum of the lines’ reserved changes: closing - opening.') }),
    fee_minor: Type.Integer({ description: inCentimes('The fees the lines carry.') }),
    line_count: Type.Integer(),
    totals: Type.Array(
      Type.Object({
        type: Type.String(),
        count: Type.Integer(),
        available_change_minor: Type.Integer({ description: inCentimes('This type’s lines’ available changes, summed.') }),
        reserved_change_minor: Type.Integer({ description: inCentimes('This type’s lines’ reserved changes, summed.') }),
        fee_minor: Type.Integer({ description: inCentimes('This type’s lines’ fees, summed.') }),
      }),
      { description: 'The lines summed per balance-transaction type.' },
    ),
    lines_url: Type.String({ description: 'The lines, a list like every other: GET /api/v1/balance-transactions?settlement=<id>.' }),
    csv_url: Type.String({ description: 'The lines as a CSV file, oldest first.' }),
  },
  {
    title: 'SettlementStatement',
    description:
      'What a settlement covers: every balance transaction of its currency since the previous settlement, up to and with its own reservation. opening + the lines = closing, to the centime.',
    examples: [statementExample],
  },
);
