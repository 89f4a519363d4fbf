import type { ConnectorFamily } from '../connector-family.js';
import { OrangeMoneyConnector } from './orange-money-connector.js';
import { DEFAULT_ORANGE_TIMEOUT_MS, DEFAULT_ORANGE_TOKEN_PATH, DEFAULT_ORANGE_WEBPAY_PATH, OrangeMoneyEntrySchema, orangeUrls, type OrangeMoneyEntry } from './orange-settings.js';

/** How the operators file's `orange-money` entries become connectors. */
export const orangeMoneyFamily: ConnectorFamily<OrangeMoneyEntry> = {
  name: 'orange-money',
  gatewayCodes: ['ORANGE_CI'],
  schema: OrangeMoneyEntrySchema,
  // A token, then the web payment or its status (and a fresh token and the call again after a 401).
  callBudget: (entry) => ({ timeoutMs: entry.timeout_ms ?? DEFAULT_ORANGE_TIMEOUT_MS, exchanges: 3 }),
  build(entry, { slug, country, secret, publicUrl, serverSecret, clock, fetchImpl }) {
    return new OrangeMoneyConnector(
      {
        slug,
        baseUrl: entry.base_url,
        authorizationHeader: secret(entry.authorization_header, 'authorization_header'),
        merchantKey: secret(entry.merchant_key, 'merchant_key'),
        webpayPath: entry.webpay_path ?? DEFAULT_ORANGE_WEBPAY_PATH,
        tokenPath: entry.token_path ?? DEFAULT_ORANGE_TOKEN_PATH,
        currency: entry.currency ?? country.defaultCurrency,
        lang: entry.lang ?? 'fr',
        reference: entry.reference ?? 'Akwe',
        timeoutMs: entry.timeout_ms ?? DEFAULT_ORANGE_TIMEOUT_MS,
        ...orangeUrls(publicUrl, serverSecret),
      },
      clock,
      fetchImpl,
    );
  },
};
