import { Type, type Static } from 'typebox';
import type { SecretValue } from '../secret-value.js';

/** One MoMo product's credentials (collection, disbursement): each has its own subscription and API user. */
const ProductCredentials = Type.Object(
  {
    subscription_key: Type.String({ minLength: 1, description: 'Ocp-Apim-Subscription-Key of the product (inline or env:NAME).' }),
    api_user: Type.String({ minLength: 1, description: 'The API user id (a UUID) MTN issued for the product.' }),
    api_key: Type.String({ minLength: 1, description: 'The API user’s key (inline or env:NAME).' }),
  },
  { additionalProperties: false },
);

/**
 * An MTN MoMo entry of the operators file (one per catalog slug: MTN Benin and MTN Côte d'Ivoire
 * are separate companies with their own credentials and target environment). A product left out
 * is a flow the connector does not offer: no collection, no collect; no disbursement, no payouts
 * or refunds.
 */
export const MtnMomoEntrySchema = Type.Object(
  {
    connector: Type.Literal('mtn-momo'),
    base_url: Type.String({ format: 'uri', description: 'e.g. https://proxy.momoapi.mtn.com' }),
    target_environment: Type.String({ minLength: 1, description: 'X-Target-Environment, e.g. mtnbenin, mtnivorycoast.' }),
    currency: Type.Optional(Type.String({ minLength: 3, maxLength: 3, description: 'Defaults to the country’s currency (XOF).' })),
    timeout_ms: Type.Optional(
      Type.Integer({ minimum: 1000, maximum: 30_000, description: 'Per call; five chained calls must fit in half the request lease (IDEMPOTENCY_LEASE_SECONDS).' }),
    ),
    collection: Type.Optional(ProductCredentials),
    disbursement: Type.Optional(ProductCredentials),
  },
  { additionalProperties: false },
);

export type MtnMomoEntry = Static<typeof MtnMomoEntrySchema>;

export type MtnProduct = 'collection' | 'disbursement';

export interface MtnCredentials {
  subscriptionKey: SecretValue;
  apiUser: string;
  apiKey: SecretValue;
}

/** A validated MTN MoMo entry with its secrets resolved. */
export interface MtnMomoSettings {
  slug: string;
  baseUrl: string;
  targetEnvironment: string;
  currency: string;
  timeoutMs: number;
  /** Where MTN posts its callbacks: `<PUBLIC_URL>/api/v1/operators/mtn-momo/callbacks`. */
  callbackBaseUrl: string;
  products: Partial<Record<MtnProduct, MtnCredentials>>;
}

/** Five chained calls of 6 s fit in half the longest request lease (60 s): see lease-fit.ts. */
export const DEFAULT_MTN_TIMEOUT_MS = 6_000;
