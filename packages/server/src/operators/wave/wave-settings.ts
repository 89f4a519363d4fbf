import { Type, type Static } from 'typebox';
import type { SecretValue } from '../secret-value.js';

/**
 * A Wave entry of the operators file (one per catalog slug, e.g. wave_ci). Wave binds an API key to
 * one business wallet, and that key reaches every API it was granted in the Business Portal
 * (checkout, payout, balance), so one key serves collection, refunds and payouts alike. The
 * webhook secret is the one Wave shows once when the webhook is registered with the "signing
 * secret" strategy: it checks the `Wave-Signature` header of what Wave posts to us.
 */
export const WaveEntrySchema = Type.Object(
  {
    connector: Type.Literal('wave'),
    base_url: Type.String({ format: 'uri', description: 'https://api.wave.com (or a mock).' }),
    api_key: Type.String({ minLength: 1, description: 'The business wallet’s API key, sent as a bearer token (inline or env:NAME).' }),
    webhook_secret: Type.String({ minLength: 1, description: 'The webhook’s signing secret from the Business Portal (inline or env:NAME).' }),
    currency: Type.Optional(Type.String({ minLength: 3, maxLength: 3, description: 'Defaults to the country’s currency (XOF).' })),
    timeout_ms: Type.Optional(
      Type.Integer({ minimum: 1000, maximum: 30_000, description: 'Per call; two chained calls must fit in half the request lease (IDEMPOTENCY_LEASE_SECONDS).' }),
    ),
  },
  { additionalProperties: false },
);

export type WaveEntry = Static<typeof WaveEntrySchema>;

/**
 * A validated Wave entry with its secrets resolved.
 *
 * Wave sends the customer's browser back to `success_url` or `error_url` when the checkout ends, so
 * every session needs both. They are functions of our payment id (not fixed strings) so that the
 * page the customer lands on can tell which payment it is about; `waveReturnUrls` (wave-return.ts)
 * builds the usual pair under the server's public URL, each with the payment's proof. The redirect
 * says nothing of the outcome (success or error alike): the page must ask Wave (or wait for the
 * signed webhook) before showing one.
 */
export interface WaveSettings {
  slug: string;
  baseUrl: string;
  apiKey: SecretValue;
  webhookSecret: SecretValue;
  currency: string;
  timeoutMs: number;
  successUrlFor(paymentId: string): string;
  errorUrlFor(paymentId: string): string;
}

export const DEFAULT_WAVE_TIMEOUT_MS = 10_000;
