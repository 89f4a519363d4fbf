import { Type } from 'typebox';
import { paymentLinkStatuses } from '../../core/payment-links/payment-link.js';
import { PAYMENT_LINK_DESCRIPTION_MAX_LENGTH, PAYMENT_LINK_MAX_PAYMENTS } from '../../core/payment-links/payment-link-service.js';
import { MetadataInput, MetadataObject } from '../shared/metadata-schema.js';
import { inCentimes, inMajorUnits } from '../shared/money-descriptions.js';
import { listOf, listQuery } from '../shared/pagination.js';

const linkExample = {
  object: 'payment_link',
  id: '0193a812-4c5d-7e6f-8091-a2b3c4d5e6f7',
  url: 'https://pay.example.com/pay/3q2-7wEXAMPLEs1ugKf0jZ9hX4bV5nQ2Lk',
  status: 'active',
  amount: 5000,
  amount_minor: 500000,
  min_amount: null,
  min_amount_minor: null,
  max_amount: null,
  max_amount_minor: null,
  currency: 'XOF',
  countries: ['BJ'],
  description: 'Wax fabric, 6 yards',
  reusable: true,
  max_payments: null,
  completed_payments: 0,
  expires_at: null,
  return_url: null,
  metadata: { product: 'wax-6y' },
  deactivated_at: null,
  environment: 'live',
  sandbox: false,
  created_at: '2026-06-17T09:00:00.000Z',
  updated_at: '2026-06-17T09:00:00.000Z',
} as const;

const Money = (what: string) => Type.Union([Type.Integer(), Type.Null()], { description: inMajorUnits(what) });
const MoneyMinor = (what: string) => Type.Union([Type.Integer(), Type.Null()], { description: inCentimes(what) });

export const PaymentLinkObject = Type.Object(
  {
    object: Type.Literal('payment_link'),
    id: Type.String({ format: 'uuid' }),
    url: Type.String({ description: 'The public page to share (`<PUBLIC_URL>/pay/<slug>`): anyone holding it can pay. Also the content of the QR code.' }),
    status: Type.Enum(paymentLinkStatuses, {
      description: '`active`; `inactive` (deactivated); `expired` (past expires_at); `completed` (single use paid, or max_payments reached).',
    }),
    amount: Money('The fixed amount; null for an open amount.'),
    amount_minor: MoneyMinor('The fixed amount; null for an open amount.'),
    min_amount: Money('Open amount: the least the customer may pay; null: the catalog’s minimum.'),
    min_amount_minor: MoneyMinor('Open amount: the least the customer may pay; null: the catalog’s minimum.'),
    max_amount: Money('Open amount: the most the customer may pay; null: the catalog’s maximum.'),
    max_amount_minor: MoneyMinor('Open amount: the most the customer may pay; null: the catalog’s maximum.'),
    currency: Type.String(),
    countries: Type.Array(Type.String(), { description: 'The countries the customer may pay from.' }),
    description: Type.String({ description: 'What is sold; shown on the page and given to each payment.' }),
    reusable: Type.Boolean({ description: 'false: single use (one completed payment).' }),
    max_payments: Type.Union([Type.Integer(), Type.Null()], { description: 'At most this many completed payments; null: no limit.' }),
    completed_payments: Type.Integer({ description: 'Payments through the link that completed (refunded ones included).' }),
    expires_at: Type.Union([Type.String(), Type.Null()]),
    return_url: Type.Union([Type.String(), Type.Null()], { description: 'Given to each payment: the checkout’s final page links back to it.' }),
    metadata: MetadataObject,
    deactivated_at: Type.Union([Type.String(), Type.Null()]),
    environment: Type.String(),
    sandbox: Type.Boolean(),
    created_at: Type.String(),
    updated_at: Type.String(),
  },
  { title: 'PaymentLink', description: 'A page anyone can pay you through, in front of the hosted checkout.', examples: [linkExample] },
);

const AmountMinor = (what: string) => Type.Integer({ minimum: 1, maximum: 100_000_000_000, description: inCentimes(`${what} Whole FCFA: a multiple of 100.`) });
const Country = Type.String({ minLength: 2, maxLength: 2, description: 'BJ, TG or CI.' });
const Description = Type.String({ minLength: 1, maxLength: PAYMENT_LINK_DESCRIPTION_MAX_LENGTH, description: 'What is sold, shown to the customer.' });
const MaxPayments = Type.Integer({ minimum: 1, maximum: PAYMENT_LINK_MAX_PAYMENTS, description: 'At most this many completed payments.' });
const ExpiresAt = Type.String({ format: 'date-time', description: 'After this instant the page takes no payment.' });
const ReturnUrl = Type.String({
  format: 'uri',
  maxLength: 2048,
  description: 'HTTPS URL the checkout’s final page links back to (http:// only for test links on a development server).',
});

export const CreatePaymentLinkBody = Type.Object(
  {
    amount_minor: Type.Optional(AmountMinor('Fixed amount. Leave out for an open amount (the customer types it).')),
    min_amount_minor: Type.Optional(AmountMinor('Open amount: the least the customer may pay.')),
    max_amount_minor: Type.Optional(AmountMinor('Open amount: the most the customer may pay.')),
    currency: Type.Optional(Type.Union([Type.Literal('XOF'), Type.Literal('XAF')], { description: 'Defaults to the country’s currency (XOF).' })),
    country: Type.Optional(Country),
    countries: Type.Optional(Type.Array(Country, { minItems: 1, maxItems: 3, description: 'Instead of country: the customer chooses among these.' })),
    description: Description,
    reusable: Type.Optional(Type.Boolean({ description: 'Default true. false: single use, used up by its first completed payment.' })),
    max_payments: Type.Optional(MaxPayments),
    expires_at: Type.Optional(ExpiresAt),
    return_url: Type.Optional(ReturnUrl),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    title: 'CreatePaymentLinkRequest',
    description: 'A fixed amount (`amount_minor`) or an open one (optional bounds), the country or countries, and what is sold.',
    examples: [
      { amount_minor: 500000, country: 'BJ', description: 'Wax fabric, 6 yards', metadata: { product: 'wax-6y' } },
      { min_amount_minor: 100000, max_amount_minor: 5000000, countries: ['BJ', 'TG'], description: 'Donation', reusable: true },
      { amount_minor: 2500000, country: 'CI', description: 'Order 1042', reusable: false, expires_at: '2030-12-31T23:59:59Z' },
    ],
  },
);

export const UpdatePaymentLinkBody = Type.Object(
  {
    description: Type.Optional(Description),
    max_payments: Type.Optional(Type.Union([MaxPayments, Type.Null()], { description: 'null: no limit.' })),
    expires_at: Type.Optional(Type.Union([ExpiresAt, Type.Null()], { description: 'null: never expires.' })),
    return_url: Type.Optional(Type.Union([ReturnUrl, Type.Null()], { description: 'null clears it.' })),
    metadata: Type.Optional(MetadataInput),
  },
  {
    additionalProperties: false,
    title: 'UpdatePaymentLinkRequest',
    description: 'Only the fields sent change. Amounts, currency, countries and reusable never change: create a new link instead.',
    examples: [{ description: 'Wax fabric, 6 yards (new stock)' }, { expires_at: null, max_payments: 50 }],
  },
);

export const PaymentLinkParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100, description: 'The payment link’s id.' }) });

export const ListPaymentLinksQuery = listQuery({
  active: Type.Optional(Type.Boolean({ description: 'true: links not deactivated; false: deactivated ones; both when absent.' })),
  created_gte: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or after this instant.' })),
  created_lte: Type.Optional(Type.String({ format: 'date-time', description: 'Created at or before this instant.' })),
});

export const PaymentLinkList = listOf(PaymentLinkObject, { title: 'PaymentLinkList', description: 'Your payment links in the key’s environment, newest first.' });

export const QrQuery = Type.Object(
  { size: Type.Optional(Type.Integer({ minimum: 128, maximum: 2048, default: 1024, description: 'Width and height in pixels (PNG) or user units (SVG).' })) },
  { additionalProperties: false },
);
