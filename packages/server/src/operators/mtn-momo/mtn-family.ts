import type { ConnectorFamily } from '../connector-family.js';
import { MtnMomoConnector } from './mtn-momo-connector.js';
import { DEFAULT_MTN_TIMEOUT_MS, MtnMomoEntrySchema, type MtnCredentials, type MtnMomoEntry, type MtnProduct } from './mtn-settings.js';

/** How the operators file's `mtn-momo` entries become connectors. */
export const mtnMomoFamily: ConnectorFamily<MtnMomoEntry> = {
  name: 'mtn-momo',
  gatewayCodes: ['MTN_BJ', 'MTN_CI'],
  schema: MtnMomoEntrySchema,
  // A token, the call, a fresh token and the call again after a 401, and a status query after a 409.
  callBudget: (entry) => ({ timeoutMs: entry.timeout_ms ?? DEFAULT_MTN_TIMEOUT_MS, exchanges: 5 }),
  build(entry, { slug, country, secret, publicUrl, clock, fetchImpl }) {
    const products: Partial<Record<MtnProduct, MtnCredentials>> = {};
    for (const product of ['collection', 'disbursement'] as const) {
      const credentials = entry[product];
      if (!credentials) continue;
      products[product] = {
        subscriptionKey: secret(credentials.subscription_key, `${product}.subscription_key`),
        apiUser: credentials.api_user,
        apiKey: secret(credentials.api_key, `${product}.api_key`),
      };
    }
    return new MtnMomoConnector(
      {
        slug,
        baseUrl: entry.base_url,
        targetEnvironment: entry.target_environment,
        currency: entry.currency ?? country.defaultCurrency,
        timeoutMs: entry.timeout_ms ?? DEFAULT_MTN_TIMEOUT_MS,
        callbackBaseUrl: `${publicUrl.replace(/\/+$/, '')}/api/v1/operators/mtn-momo/callbacks`,
        products,
      },
      clock,
      fetchImpl,
    );
  },
};
