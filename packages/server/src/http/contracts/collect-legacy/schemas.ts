import { Type } from 'typebox';
import { inCentimes } from '../../shared/money-descriptions.js';

/** The earlier contract's operator catalog, field for field (no field of ours added). */
export const LegacyOperatorCatalog = Type.Object(
  {
    api_version: Type.String({ examples: ['2026-06.1'] }),
    countries: Type.Array(
      Type.Object({
        code: Type.String(),
        currency_default: Type.String(),
        operators: Type.Array(
          Type.Object({
            slug: Type.String(),
            label: Type.String(),
            gateway_code: Type.String(),
            aliases: Type.Optional(Type.Array(Type.String())),
            requires_otp: Type.Boolean(),
          }),
        ),
        unsupported: Type.Optional(Type.Array(Type.String())),
      }),
    ),
  },
  {
    title: 'LegacyOperatorCatalog',
    description: 'Operator catalog, earlier contract shape.',
    examples: [
      {
        api_version: '2026-06.1',
        countries: [
          { code: 'TG', currency_default: 'XOF', operators: [{ slug: 'tmoney_tg', label: 'T-Money', gateway_code: 'TMONEY_TG', aliases: ['togocom_tg'], requires_otp: false }] },
        ],
      },
    ],
  },
);

export const LegacyError = Type.Object(
  { error: Type.String(), code: Type.String(), detail: Type.String() },
  { title: 'LegacyError', description: 'Earlier-contract error body.', examples: [{ error: 'Not Found', code: 'not_found', detail: 'No payment has this reference.' }] },
);

/** The earlier contract's request fields and their maximum lengths (reference 100, phone 20, operator 32, …). */
export const LegacyCreatePaymentBody = Type.Object(
  {
    amount: Type.Integer({ minimum: 1, maximum: 100_000_000_000, description: inCentimes('Minimum 1.') }),
    phone: Type.String({ minLength: 1, maxLength: 20 }),
    country: Type.String({ minLength: 1, maxLength: 2, description: 'BJ, CI or TG.' }),
    operator: Type.String({ minLength: 1, maxLength: 32 }),
    reference: Type.String({ minLength: 1, maxLength: 100 }),
    currency: Type.Optional(Type.String({ maxLength: 3, description: 'Default XOF.' })),
    description: Type.Optional(Type.String({ maxLength: 255 })),
    customer_first_name: Type.Optional(Type.String({ maxLength: 64 })),
    customer_last_name: Type.Optional(Type.String({ maxLength: 64 })),
  },
  {
    title: 'LegacyCreatePaymentRequest',
    examples: [{ amount: 500000, phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: 'order-2001', currency: 'XOF', description: 'Order 2001' }],
  },
);

export const LegacyConfirmBody = Type.Object(
  {
    reference: Type.String({ minLength: 1, maxLength: 100 }),
    otp: Type.String({ minLength: 4, maxLength: 8, pattern: '^[0-9]+$' }),
  },
  // Another payment than the create example's (mtn_bj asks no OTP): one made with an operator that does, such as orange_ci.
  { title: 'LegacyConfirmPaymentRequest', examples: [{ reference: 'order-2002', otp: '123456' }] },
);

export const LegacyReferenceParams = Type.Object({ reference: Type.String({ minLength: 1, maxLength: 100 }) });

export const LegacySyncQuery = Type.Object({
  sync: Type.Boolean({ default: false, description: 'Ask the operator first while the payment is not final.' }),
});

const nullableString = Type.Union([Type.String(), Type.Null()]);

export const LegacyPayment = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    reference: Type.String(),
    status: Type.String({ examples: ['PENDING', 'PROCESSING', 'AWAITING_OTP', 'COMPLETED', 'FAILED', 'CANCELLED'] }),
    amount: Type.Integer({ description: inCentimes() }),
    currency: Type.String(),
    country: Type.String(),
    operator: nullableString,
    phone: nullableString,
    psp_reference: nullableString,
    message: nullableString,
    environment: Type.String(),
    idempotent_replay: Type.Boolean(),
    pending_since_seconds: Type.Union([Type.Integer(), Type.Null()]),
    sandbox: Type.Boolean(),
  },
  {
    title: 'LegacyPayment',
    description: 'A payment, earlier contract.',
    examples: [
      {
        id: '0193a7c9-2f3e-7a4b-8c5d-6e7f8a9b0c1d',
        reference: 'order-2001',
        status: 'COMPLETED',
        amount: 500000,
        currency: 'XOF',
        country: 'BJ',
        operator: 'mtn_bj',
        phone: '+2290197000000',
        psp_reference: 'sbx_0193a7c9',
        message: 'Payment completed (sandbox).',
        environment: 'test',
        idempotent_replay: false,
        pending_since_seconds: null,
        sandbox: true,
      },
    ],
  },
);

/** Validation failures: each field mapped to its messages. */
export const LegacyValidationError = Type.Record(Type.String(), Type.Array(Type.String()), {
  title: 'LegacyValidationError',
  description: 'Field -> messages.',
  examples: [{ phone: ['Expected string length less or equal to 20'] }],
});
