import { Type } from 'typebox';

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
  { title: 'LegacyOperatorCatalog', description: 'Operator catalog, earlier contract shape.' },
);

export const LegacyError = Type.Object(
  { error: Type.String(), code: Type.String(), detail: Type.String() },
  { title: 'LegacyError', description: 'Earlier-contract error body.' },
);

/** The earlier contract's request fields and their maximum lengths (reference 100, phone 20, operator 32, …). */
export const LegacyCreatePaymentBody = Type.Object({
  amount: Type.Integer({ minimum: 1, maximum: 100_000_000_000, description: 'Centimes (10000 = 100 XOF).' }),
  phone: Type.String({ minLength: 1, maxLength: 20 }),
  country: Type.String({ minLength: 1, maxLength: 2, description: 'BJ, CI or TG.' }),
  operator: Type.String({ minLength: 1, maxLength: 32 }),
  reference: Type.String({ minLength: 1, maxLength: 100 }),
  currency: Type.Optional(Type.String({ maxLength: 3, description: 'Default XOF.' })),
  description: Type.Optional(Type.String({ maxLength: 255 })),
  customer_first_name: Type.Optional(Type.String({ maxLength: 64 })),
  customer_last_name: Type.Optional(Type.String({ maxLength: 64 })),
}, { title: 'LegacyCreatePaymentRequest' });

export const LegacyConfirmBody = Type.Object({
  reference: Type.String({ minLength: 1, maxLength: 100 }),
  otp: Type.String({ minLength: 4, maxLength: 8, pattern: '^[0-9]+$' }),
}, { title: 'LegacyConfirmPaymentRequest' });

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
    amount: Type.Integer({ description: 'Centimes.' }),
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
  { title: 'LegacyPayment', description: 'A payment, earlier contract.' },
);

/** Validation failures: each field mapped to its messages. */
export const LegacyValidationError = Type.Record(Type.String(), Type.Array(Type.String()), { title: 'LegacyValidationError', description: 'Field -> messages.' });
