import { Type } from 'typebox';
import { inCentimes, inMajorUnits } from '../../shared/money-descriptions.js';
import { failureCodeList } from '../../../core/shared/failure-codes.js';
import { paymentModes, paymentStatuses, refundStatuses } from '../../../core/payments/payment.js';
import { MetadataInput, MetadataObject, metadataFilterProperties } from '../../shared/metadata-schema.js';
import { listOf, listQuery } from '../../shared/pagination.js';

/** References travel in paths, so they keep to characters that need no escaping. */
export const Reference = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9._:-]+$',
  description: 'Merchant reference, unique per merchant and environment; usable in paths.',
});

export const CreatePaymentBody = Type.Object(
  {
    reference: Reference,
    amount: Type.Integer({ maximum: 1_000_000_000, description: inMajorUnits('Minimum 100 XOF (see the catalog’s min_amount per operator).') }),
    currency: Type.Optional(Type.Union([Type.Literal('XOF'), Type.Literal('XAF')], { description: 'Defaults to the country’s currency (XOF).' })),
    country: Type.String({ minLength: 2, maxLength: 2, description: 'BJ, TG or CI.' }),
    mode: Type.Union([Type.Literal('direct'), Type.Literal('hosted')]),
    customer: Type.Optional(
      Type.Object({ phone: Type.String({ minLength: 1, maxLength: 32, description: 'National or E.164 form; required for direct.' }) }, { additionalProperties: false }),
    ),
    operator: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'Operator slug or alias from the catalog; required for direct.' })),
    description: Type.Optional(Type.String({ maxLength: 255 })),
    callback_url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'HTTPS URL that also receives this payment’s events.' })),
    return_url: Type.Optional(
      Type.String({
        format: 'uri',
        maxLength: 2048,
        description:
          'Hosted payments only: HTTPS URL of the merchant’s page that the checkout page links back to once the payment is final (paid, failed, cancelled or expired). Sent as given, nothing appended; check the payment’s status from your server, never from the redirect. http:// is accepted only for test payments on a development server.',
      }),
    ),
    expires_in_seconds: Type.Optional(Type.Integer({ minimum: 60, maximum: 86_400, description: 'Lifetime; default 900 (direct) or 3600 (hosted).' })),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    title: 'CreatePaymentRequest',
    examples: [
      {
        reference: 'order-1001',
        amount: 5000,
        currency: 'XOF',
        country: 'BJ',
        mode: 'direct',
        customer: { phone: '+2290197000000' },
        operator: 'mtn_bj',
        description: 'Order 1001',
        metadata: { order_id: '1001' },
      },
    ],
  },
);

export const ListPaymentsQuery = listQuery(
  {
    status: Type.Optional(Type.Enum(paymentStatuses)),
    mode: Type.Optional(Type.Enum(paymentModes)),
    operator: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'Slug or alias; an alias shared by several countries matches each.' })),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    phone: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'The customer’s number in E.164 (+2290197000000); spaces ignored.' })),
    payment_link: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Payments made through this payment link (its id).' })),
    created_gte: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after this instant.' })),
    created_lte: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or before this instant.' })),
  },
  { patternProperties: metadataFilterProperties },
);

export const RefundParams = Type.Object({ reference_or_id: Type.String({ minLength: 1, maxLength: 100 }), refund_id: Type.String({ minLength: 1, maxLength: 64 }) });

export const ListRefundsQuery = listQuery({});
export const ListAllRefundsQuery = listQuery({
  status: Type.Optional(Type.Enum(refundStatuses)),
  created_gte: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after this instant.' })),
  created_lte: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or before this instant.' })),
});

export const PaymentParams = Type.Object({ reference_or_id: Type.String({ minLength: 1, maxLength: 100 }) });

export const GetPaymentQuery = Type.Object(
  { sync: Type.Boolean({ default: false, description: 'Ask the operator for the current status first (non-final payments only). `true`/`false` or `1`/`0`.' }) },
  // An unknown parameter (a typo such as `snyc`) is refused rather than ignored.
  { additionalProperties: false },
);

export const ConfirmBody = Type.Object(
  { otp: Type.String({ pattern: '^[0-9]{4,8}$', description: 'The code the customer received (4 to 8 digits).' }) },
  { additionalProperties: false, title: 'ConfirmPaymentRequest', examples: [{ otp: '123456' }] },
);

export const CancelBody = Type.Union([Type.Object({}, { additionalProperties: false }), Type.Null()]);

export const PayBody = Type.Object(
  {
    phone: Type.String({ minLength: 1, maxLength: 32 }),
    operator: Type.String({ minLength: 1, maxLength: 32 }),
  },
  { additionalProperties: false, title: 'SimulateCheckoutPaymentRequest', examples: [{ phone: '+2290197000000', operator: 'mtn_bj' }] },
);

/** Optional: no body (or an empty one) refunds everything left. */
export const RefundBody = Type.Union([
  Type.Object(
    {
      amount: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: inMajorUnits('Default: everything left to refund.') })),
      reason: Type.Optional(Type.String({ maxLength: 255 })),
    },
    { additionalProperties: false, title: 'CreateRefundRequest', examples: [{ amount: 2000, reason: 'Item returned' }] },
  ),
  Type.Null(),
]);

const NextAction = Type.Union(
  [
    Type.Object({ type: Type.Literal('redirect_to_checkout'), url: Type.String() }),
    Type.Object({
      type: Type.Literal('confirm_otp'),
      url: Type.String({ description: 'POST the code here.' }),
      confirm_url: Type.String({ description: 'Deprecated: the same as url.', deprecated: true }),
    }),
    Type.Object({ type: Type.Literal('await_customer_approval') }),
    Type.Object({ type: Type.Literal('await_status_update') }),
    Type.Null(),
  ],
  {
    title: 'NextAction',
    description:
      'What happens next: redirect_to_checkout (hosted: send the customer to url), confirm_otp (POST the code to url), await_customer_approval (push on the phone), await_status_update (the operator has not answered: wait for the webhook or GET with sync=true); null once final. A URL is always in `url`.',
  },
);

export const PaymentObject = Type.Object(
  {
    object: Type.Literal('collect.payment'),
    api_version: Type.Literal('2026-06'),
    id: Type.String({ format: 'uuid' }),
    reference: Type.String(),
    status: Type.Union([
      Type.Literal('pending'),
      Type.Literal('processing'),
      Type.Literal('awaiting_otp'),
      Type.Literal('awaiting_payment'),
      Type.Literal('completed'),
      Type.Literal('failed'),
      Type.Literal('cancelled'),
      Type.Literal('expired'),
      Type.Literal('refunded'),
    ]),
    amount: Type.Integer({ description: inMajorUnits('Rounded down when the stored amount is not a whole franc; amount_minor is exact.') }),
    amount_minor: Type.Integer({ description: inCentimes('The exact amount.') }),
    currency: Type.String(),
    country: Type.String(),
    mode: Type.String(),
    operator: Type.Union([Type.String(), Type.Null()], { description: 'Canonical slug.' }),
    customer: Type.Union([Type.Object({ phone: Type.String({ description: 'E.164.' }) }), Type.Null()]),
    description: Type.Union([Type.String(), Type.Null()]),
    environment: Type.String(),
    sandbox: Type.Boolean(),
    idempotent_replay: Type.Boolean(),
    checkout_url: Type.Optional(
      Type.String({
        description:
          'Hosted payments: the customer’s page, `<PUBLIC_URL>/checkout/<token>`; the token is a random secret (not the id or the reference). Share it only with the customer.',
      }),
    ),
    payment_link: Type.Optional(
      Type.String({ description: 'Present only on a payment made through a payment link: the link’s id (GET /payment-links/{id}; list with ?payment_link=).' }),
    ),
    return_url: Type.Union([Type.String(), Type.Null()], { description: 'Hosted payments: where the final checkout page links back to; null when none was given.' }),
    next_action: NextAction,
    psp_reference: Type.Union([Type.String(), Type.Null()]),
    message: Type.Union([Type.String(), Type.Null()], { description: 'The last word from the operator, for people.' }),
    failure_code: Type.Union([Type.Enum(failureCodeList), Type.Null()], {
      description: 'Why a failed, cancelled or expired payment did not complete (docs/failure-codes.md); null otherwise.',
    }),
    metadata: MetadataObject,
    refunded_amount: Type.Integer({ description: inMajorUnits('Refunded so far, rounded down.') }),
    refunded_amount_minor: Type.Integer({ description: inCentimes('Refunded so far, exact.') }),
    callback_url: Type.Union([Type.String(), Type.Null()]),
    expires_at: Type.String({
      description: 'When a non-final payment expires. Kept once the payment is final: for an expired payment, when it expired; otherwise the deadline it no longer has.',
    }),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  {
    title: 'Payment',
    description: 'A collection (current contract 2026-06).',
    examples: [
      {
        object: 'collect.payment',
        api_version: '2026-06',
        id: '0193a7c2-5b1e-7c3d-9f20-4a6b8c0d2e41',
        reference: 'order-1001',
        status: 'completed',
        amount: 5000,
        amount_minor: 500000,
        currency: 'XOF',
        country: 'BJ',
        mode: 'direct',
        operator: 'mtn_bj',
        customer: { phone: '+2290197000000' },
        description: 'Order 1001',
        environment: 'test',
        sandbox: true,
        idempotent_replay: false,
        return_url: null,
        next_action: null,
        psp_reference: 'sbx_0193a7c2',
        message: 'Payment completed (sandbox).',
        failure_code: null,
        metadata: { order_id: '1001' },
        refunded_amount: 0,
        refunded_amount_minor: 0,
        callback_url: null,
        expires_at: '2026-06-01T09:45:00.000Z',
        created_at: '2026-06-01T09:30:00.000Z',
        updated_at: '2026-06-01T09:30:01.000Z',
      },
    ],
  },
);

export const RefundObject = Type.Object(
  {
    object: Type.Literal('collect.refund'),
    id: Type.String({ format: 'uuid' }),
    payment_id: Type.String(),
    payment_reference: Type.String(),
    status: Type.Union([Type.Literal('pending'), Type.Literal('completed'), Type.Literal('failed')]),
    amount: Type.Integer({ description: inMajorUnits() }),
    amount_minor: Type.Integer({ description: inCentimes('The exact amount.') }),
    currency: Type.String(),
    reason: Type.Union([Type.String(), Type.Null()]),
    psp_reference: Type.Union([Type.String(), Type.Null()]),
    environment: Type.String(),
    sandbox: Type.Boolean(),
    idempotent_replay: Type.Boolean(),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  {
    title: 'Refund',
    description: 'A refund of a collection.',
    examples: [
      {
        object: 'collect.refund',
        id: '0193a7d0-11aa-7b2c-8d3e-5f6a7b8c9d01',
        payment_id: '0193a7c2-5b1e-7c3d-9f20-4a6b8c0d2e41',
        payment_reference: 'order-1001',
        status: 'completed',
        amount: 2000,
        amount_minor: 200000,
        currency: 'XOF',
        reason: 'Item returned',
        psp_reference: 'sbx_rf_0193a7d0',
        environment: 'test',
        sandbox: true,
        idempotent_replay: false,
        created_at: '2026-06-02T10:00:00.000Z',
        updated_at: '2026-06-02T10:00:01.000Z',
      },
    ],
  },
);

export const RefundList = listOf(RefundObject, { title: 'RefundList', description: 'A payment’s refunds, newest first.' });
export const AllRefundsList = listOf(RefundObject, { title: 'AllRefundsList', description: 'Refunds of every payment, newest first.' });

export const PaymentList = listOf(PaymentObject, { title: 'PaymentList', description: 'Payments, newest first.' });
