import { returnProof } from '../return-proof.js';
import { Type, type Static } from 'typebox';
import type { SecretValue } from '../secret-value.js';

/**
 * An Orange Money Web Payment entry of the operators file (orange_ci). Orange's developer portal
 * gives the application's *Authorization header* (`Basic <base64 of client id:client secret>`),
 * used as is to get an OAuth token, and, once the merchant subscribed to Web Payment, its
 * *merchant key*. Web Payment is hosted only: the customer pays on Orange's page; Orange offers
 * no refund or payout through it.
 */
export const OrangeMoneyEntrySchema = Type.Object(
  {
    connector: Type.Literal('orange-money'),
    base_url: Type.String({ format: 'uri', description: 'https://api.orange.com (or a mock).' }),
    authorization_header: Type.String({ minLength: 1, description: 'The application’s Authorization header from Orange’s portal, `Basic …` (inline or env:NAME).' }),
    merchant_key: Type.String({ minLength: 1, description: 'The Web Payment merchant key (inline or env:NAME).' }),
    webpay_path: Type.Optional(
      Type.String({ pattern: '^/', description: 'Path of the Web Payment API: /orange-money-webpay/ci/v1 live (the default), /orange-money-webpay/dev/v1 in Orange’s sandbox.' }),
    ),
    token_path: Type.Optional(Type.String({ pattern: '^/', description: 'Default /oauth/v3/token.' })),
    currency: Type.Optional(Type.String({ minLength: 3, maxLength: 3, description: 'XOF live (the default: the country’s); OUV in Orange’s sandbox.' })),
    lang: Type.Optional(Type.Union([Type.Literal('fr'), Type.Literal('en')], { description: 'Language of Orange’s payment page; default fr.' })),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 30, description: 'The merchant name shown on Orange’s page; default Akwe.' })),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 1000, maximum: 30_000, description: 'Per call; under half the idempotency lease.' })),
  },
  { additionalProperties: false },
);

export type OrangeMoneyEntry = Static<typeof OrangeMoneyEntrySchema>;

/** A validated entry with its secrets resolved and Orange's URLs back to us built from PUBLIC_URL. */
export interface OrangeMoneySettings {
  slug: string;
  baseUrl: string;
  authorizationHeader: SecretValue;
  merchantKey: SecretValue;
  webpayPath: string;
  tokenPath: string;
  currency: string;
  lang: 'fr' | 'en';
  reference: string;
  timeoutMs: number;
  /** Where Orange posts the payment's notification (`notif_url`). */
  notifyUrlFor(paymentId: string): string;
  /** Where Orange sends the customer back, paid or cancelled (`return_url`, `cancel_url`). */
  returnUrlFor(paymentId: string): string;
  cancelUrlFor(paymentId: string): string;
}

export const DEFAULT_ORANGE_TIMEOUT_MS = 10_000;
export const DEFAULT_ORANGE_WEBPAY_PATH = '/orange-money-webpay/ci/v1';
export const DEFAULT_ORANGE_TOKEN_PATH = '/oauth/v3/token';

/** `<PUBLIC_URL>/api/v1/operators/orange-money/notifications/<payment id>`: the notif_url to expect. */
export const ORANGE_NOTIFY_PATH = '/api/v1/operators/orange-money/notifications';
/** `<PUBLIC_URL>/api/v1/operators/orange-money/return/<payment id>/<proof>`: where the customer comes back (operators/return-proof.ts). */
export const ORANGE_RETURN_PATH = '/api/v1/operators/orange-money/return';

export function orangeUrls(publicUrl: string, serverSecret: () => string): Pick<OrangeMoneySettings, 'notifyUrlFor' | 'returnUrlFor' | 'cancelUrlFor'> {
  const base = publicUrl.replace(/\/+$/, '');
  return {
    notifyUrlFor: (id) => `${base}${ORANGE_NOTIFY_PATH}/${encodeURIComponent(id)}`,
    returnUrlFor: (id) => `${base}${ORANGE_RETURN_PATH}/${encodeURIComponent(id)}/${returnProof(serverSecret(), 'orange-money', id)}`,
    cancelUrlFor: (id) => `${base}${ORANGE_RETURN_PATH}/${encodeURIComponent(id)}/${returnProof(serverSecret(), 'orange-money', id)}`,
  };
}
