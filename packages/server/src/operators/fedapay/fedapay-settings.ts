import { returnProof } from '../return-proof.js';
import { Type, type Static } from 'typebox';
import type { SecretValue } from '../secret-value.js';

/**
 * A FedaPay entry of the operators file (one per catalog slug: moov_bj, celtiis_bj, tmoney_tg,
 * flooz_tg, mtn_bj). One FedaPay account reaches every operator it was opened for, with one secret
 * key, so several entries usually name the same key; each entry sends its own operator's FedaPay
 * `mode`. The webhook secrets are the signing secrets FedaPay shows for each webhook endpoint
 * registered in its dashboard: a delivery signed by any of them is FedaPay's (several, so an
 * endpoint can be replaced without a gap).
 */
export const FedaPayEntrySchema = Type.Object(
  {
    connector: Type.Literal('fedapay'),
    base_url: Type.String({ format: 'uri', description: 'https://api.fedapay.com (live), https://sandbox-api.fedapay.com, or a mock; `/v1` is added.' }),
    api_key: Type.String({ minLength: 1, description: 'The account’s secret key (sk_live_…), sent as a bearer token (inline or env:NAME).' }),
    webhook_secrets: Type.Array(Type.String({ minLength: 1 }), {
      minItems: 1,
      maxItems: 5,
      description: 'The signing secret (wh_…) of each webhook endpoint registered in FedaPay’s dashboard (inline or env:NAME).',
    }),
    mode: Type.Optional(
      Type.String({ pattern: '^[a-z][a-z0-9_]{1,39}$', description: 'FedaPay’s payment mode for this operator; defaults to the known one (e.g. moov, sbin, togocel, moov_tg).' }),
    ),
    hosted_page: Type.Optional(
      Type.Boolean({ description: 'Send the customer of a hosted payment to FedaPay’s payment page instead of a push from our checkout page (default false).' }),
    ),
    currency: Type.Optional(Type.String({ minLength: 3, maxLength: 3, description: 'Defaults to the country’s currency (XOF).' })),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 1000, maximum: 30_000, description: 'Per call; under half the idempotency lease.' })),
  },
  { additionalProperties: false },
);

export type FedaPayEntry = Static<typeof FedaPayEntrySchema>;

/** A validated FedaPay entry with its secrets resolved. */
export interface FedaPaySettings {
  slug: string;
  baseUrl: string;
  apiKey: SecretValue;
  webhookSecrets: SecretValue[];
  /** FedaPay's payment mode of this operator (the path of the no-redirect send). */
  mode: string;
  /** ISO 3166 alpha-2 code of the operator's country, lower case, as FedaPay writes it in phone numbers. */
  country: string;
  currency: string;
  timeoutMs: number;
  /** Hosted payments go to FedaPay's own payment page (the transaction token's URL). */
  hostedPage: boolean;
  /** Where FedaPay sends a customer back from its payment page (FedaPay's `callback_url`). */
  returnUrlFor(paymentId: string): string;
}

/** Four chained calls must fit in half the default 60 s lease (lease-fit.ts). */
export const DEFAULT_FEDAPAY_TIMEOUT_MS = 7_000;

/**
 * `<PUBLIC_URL>/api/v1/operators/fedapay/checkout-return/<payment id>/<proof>`: refreshes the
 * payment, then shows its checkout page (the proof: operators/return-proof.ts).
 */
export const FEDAPAY_RETURN_PATH = '/api/v1/operators/fedapay/checkout-return';

export function fedaPayReturnUrl(publicUrl: string, serverSecret: () => string): (paymentId: string) => string {
  const base = `${publicUrl.replace(/\/+$/, '')}${FEDAPAY_RETURN_PATH}`;
  return (paymentId) => `${base}/${encodeURIComponent(paymentId)}/${returnProof(serverSecret(), 'fedapay', paymentId)}`;
}
