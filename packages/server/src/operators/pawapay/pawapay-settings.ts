import { Type, type Static } from 'typebox';
import type { SecretValue } from '../secret-value.js';

/**
 * pawaPay's provider code for each catalog operator it serves (its "Providers" page: Benin MTN and
 * Moov, Togo Moov (Flooz), Côte d'Ivoire MTN, Orange, Moov and Wave). T-Money and Celtiis are not
 * on pawaPay's list, so the family does not offer them; an entry may still name another code
 * (`provider`) should pawaPay rename one.
 */
export const pawapayProviders: Readonly<Record<string, string>> = {
  MTN_BJ: 'MTN_MOMO_BEN',
  MOOV_BJ: 'MOOV_BEN',
  FLOOZ_TG: 'MOOV_TGO',
  MTN_CI: 'MTN_MOMO_CIV',
  ORANGE_CI: 'ORANGE_CIV',
  MOOV_CI: 'MOOV_CIV',
  WAVE_CI: 'WAVE_CIV',
};

/** pawaPay names countries in ISO 3166-1 alpha-3. */
export const pawapayCountries: Readonly<Record<string, string>> = { BJ: 'BEN', TG: 'TGO', CI: 'CIV' };

/**
 * A pawaPay entry of the operators file: one catalog operator reached through pawaPay. One pawaPay
 * account (one API token) usually serves several operators, each its own entry naming the same
 * token. `callback_public_key` is pawaPay's public key for signed callbacks (Dashboard, "signed
 * callbacks" on): when given, a callback must carry a valid RFC 9421 signature by it.
 */
export const PawapayEntrySchema = Type.Object(
  {
    connector: Type.Literal('pawapay'),
    base_url: Type.String({ format: 'uri', description: 'https://api.pawapay.io (production) or https://api.sandbox.pawapay.io.' }),
    api_token: Type.String({ minLength: 1, description: 'The API token from pawaPay’s Dashboard, sent as a bearer token (inline or env:NAME).' }),
    provider: Type.Optional(Type.String({ pattern: '^[A-Z][A-Z0-9_]{2,40}$', description: 'pawaPay’s provider code; defaults to the one for the catalog operator.' })),
    callback_public_key: Type.Optional(Type.String({ minLength: 1, description: 'PEM public key pawaPay signs callbacks with (inline or env:NAME).' })),
    currency: Type.Optional(Type.String({ minLength: 3, maxLength: 3, description: 'Defaults to the country’s currency (XOF).' })),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 1000, maximum: 30_000, description: 'Per call; under half the idempotency lease.' })),
    availability_ttl_ms: Type.Optional(
      Type.Integer({ minimum: 5_000, maximum: 3_600_000, description: 'How long pawaPay’s provider availability is trusted before it is read again (default 60 s).' }),
    ),
  },
  { additionalProperties: false },
);

export type PawapayEntry = Static<typeof PawapayEntrySchema>;

/** A validated pawaPay entry with its secrets resolved. */
export interface PawapaySettings {
  slug: string;
  baseUrl: string;
  apiToken: SecretValue;
  /** pawaPay's provider code, e.g. MTN_MOMO_BEN. */
  provider: string;
  /** ISO 3166-1 alpha-3, as pawaPay writes it (BEN, TGO, CIV). */
  country: string;
  currency: string;
  timeoutMs: number;
  availabilityTtlMs: number;
  /** The provider is pre-authorised (Orange Côte d'Ivoire): the customer's code starts the deposit. */
  preAuthorised: boolean;
  callbackPublicKey?: SecretValue;
}

export const DEFAULT_PAWAPAY_TIMEOUT_MS = 10_000;
export const DEFAULT_PAWAPAY_AVAILABILITY_TTL_MS = 60_000;

/** Where pawaPay calls back (registered in its Dashboard): `<PUBLIC_URL>/api/v1/operators/pawapay/callbacks/<deposits|payouts|refunds>`. */
export const PAWAPAY_CALLBACK_PATH = '/api/v1/operators/pawapay/callbacks';
