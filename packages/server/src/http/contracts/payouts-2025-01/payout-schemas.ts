import { Type } from 'typebox';
import { inCentimes } from '../../shared/money-descriptions.js';
import { payoutStatuses } from '../../../core/payouts/payout.js';
import { failureCodeList } from '../../../core/shared/failure-codes.js';
import { Reference } from '../collect-2026-06/payment-schemas.js';
import { MetadataInput, MetadataObject, metadataFilterProperties } from '../../shared/metadata-schema.js';
import { listOf, listQuery } from '../../shared/pagination.js';

/** The payout contract's request fields (amounts in centimes; docs/payouts.md). */
export const CreatePayoutBody = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: 100_000_000_000, description: inCentimes('Minimum 10000 for XOF.') }),
    phone: Type.String({ minLength: 1, maxLength: 32, description: 'Beneficiary’s wallet number, national or E.164.' }),
    country: Type.String({ minLength: 2, maxLength: 2, description: 'BJ, TG or CI.' }),
    operator: Type.String({ minLength: 1, maxLength: 32, description: 'Operator slug or alias from the payout catalog.' }),
    currency: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 16,
        description: 'Optional: the country’s currency (XOF in BJ, TG and CI), the one payouts use; another gets 400 unsupported_currency.',
      }),
    ),
    reference: Reference,
    recipient_first_name: Type.Optional(Type.String({ maxLength: 100 })),
    recipient_last_name: Type.Optional(Type.String({ maxLength: 100 })),
    description: Type.Optional(Type.String({ maxLength: 255 })),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    title: 'CreatePayoutRequest',
    examples: [
      {
        amount: 2500000,
        phone: '+22890112233',
        country: 'TG',
        operator: 'tmoney_tg',
        reference: 'salary-2026-06-042',
        recipient_first_name: 'Afi',
        recipient_last_name: 'Mensah',
        description: 'June salary',
      },
    ],
  },
);

export const PayoutObject = Type.Object(
  {
    object: Type.Literal('payout'),
    id: Type.String({ format: 'uuid' }),
    reference: Type.String(),
    status: Type.Enum(payoutStatuses),
    amount: Type.Integer({ description: inCentimes('Sent to the beneficiary.') }),
    fee_minor: Type.Integer({ description: inCentimes('The fee, reserved with the amount and charged when the payout completes.') }),
    currency: Type.String(),
    country: Type.String(),
    operator: Type.String(),
    phone: Type.String({ description: 'E.164.' }),
    recipient_first_name: Type.Union([Type.String(), Type.Null()]),
    recipient_last_name: Type.Union([Type.String(), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    psp_reference: Type.Union([Type.String(), Type.Null()]),
    message: Type.Union([Type.String(), Type.Null()]),
    failure_code: Type.Union([Type.Enum(failureCodeList), Type.Null()], { description: 'Why a FAILED or CANCELLED payout did not complete (docs/failure-codes.md).' }),
    metadata: MetadataObject,
    environment: Type.String(),
    sandbox: Type.Boolean(),
    idempotent_replay: Type.Boolean(),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  {
    title: 'Payout',
    description: 'A payout to a Mobile Money wallet (contract 2025-01).',
    examples: [
      {
        object: 'payout',
        id: '0193a7e1-4c5d-7e6f-8a9b-0c1d2e3f4a5b',
        reference: 'salary-2026-06-042',
        status: 'PENDING',
        amount: 2500000,
        fee_minor: 37500,
        currency: 'XOF',
        country: 'TG',
        operator: 'tmoney_tg',
        phone: '+22890112233',
        recipient_first_name: 'Afi',
        recipient_last_name: 'Mensah',
        description: 'June salary',
        psp_reference: null,
        message: null,
        failure_code: null,
        metadata: {},
        environment: 'test',
        sandbox: true,
        idempotent_replay: false,
        created_at: '2026-06-01T09:30:00.000Z',
        updated_at: '2026-06-01T09:30:00.000Z',
      },
    ],
  },
);

export const PayoutParams = Type.Object({ reference: Type.String({ minLength: 1, maxLength: 100 }) });

export const GetPayoutQuery = Type.Object(
  { sync: Type.Boolean({ default: false, description: 'Ask the operator first while the payout is not final.' }) },
  { additionalProperties: false },
);

export const ListPayoutsQuery = listQuery(
  {
    status: Type.Optional(Type.Enum(payoutStatuses)),
    operator: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    phone: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'The beneficiary’s number in E.164 (+2290197000000); spaces ignored.' })),
    created_gte: Type.Optional(Type.String({ format: 'date-time' })),
    created_lte: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { patternProperties: metadataFilterProperties },
);

export const PayoutList = listOf(PayoutObject, { title: 'PayoutList', description: 'Payouts, newest first.' });
