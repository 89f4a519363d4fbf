import type { ConnectorFamily } from '../connector-family.js';
import { PawapayConnector } from './pawapay-connector.js';
import { DEFAULT_PAWAPAY_AVAILABILITY_TTL_MS, DEFAULT_PAWAPAY_TIMEOUT_MS, PawapayEntrySchema, pawapayCountries, pawapayProviders, type PawapayEntry } from './pawapay-settings.js';

/** How the operators file's `pawapay` entries become connectors: one per catalog operator, each its pawaPay provider. */
export const pawapayFamily: ConnectorFamily<PawapayEntry> = {
  name: 'pawapay',
  gatewayCodes: Object.keys(pawapayProviders),
  schema: PawapayEntrySchema,
  // At most a status check by our id, then the call.
  callBudget: (entry) => ({ timeoutMs: entry.timeout_ms ?? DEFAULT_PAWAPAY_TIMEOUT_MS, exchanges: 2 }),
  build(entry, { slug, country, secret, clock, fetchImpl }) {
    const operator = country.operators.find((o) => o.slug === slug)!;
    return new PawapayConnector(
      {
        slug,
        baseUrl: entry.base_url,
        apiToken: secret(entry.api_token, 'api_token'),
        provider: entry.provider ?? pawapayProviders[operator.gatewayCode]!,
        country: pawapayCountries[country.code] ?? country.code,
        currency: entry.currency ?? country.defaultCurrency,
        timeoutMs: entry.timeout_ms ?? DEFAULT_PAWAPAY_TIMEOUT_MS,
        availabilityTtlMs: entry.availability_ttl_ms ?? DEFAULT_PAWAPAY_AVAILABILITY_TTL_MS,
        // The catalog's OTP operators are pawaPay's pre-authorised ones (Orange Côte d'Ivoire).
        preAuthorised: operator.requiresOtp,
        ...(entry.callback_public_key ? { callbackPublicKey: secret(entry.callback_public_key, 'callback_public_key') } : {}),
      },
      clock,
      fetchImpl,
    );
  },
};
