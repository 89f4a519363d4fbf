import type { ConnectorFamily } from '../connector-family.js';
import { FedaPayConnector } from './fedapay-connector.js';
import { fedaPayGatewayCodes, fedaPayModes } from './fedapay-modes.js';
import { DEFAULT_FEDAPAY_TIMEOUT_MS, FedaPayEntrySchema, fedaPayReturnUrl, type FedaPayEntry } from './fedapay-settings.js';

/** How the operators file's `fedapay` entries become connectors, one per catalog operator. */
export const fedaPayFamily: ConnectorFamily<FedaPayEntry> = {
  name: 'fedapay',
  gatewayCodes: fedaPayGatewayCodes,
  schema: FedaPayEntrySchema,
  // A collection chains a look-up by our reference, the create, its token and the send.
  callBudget: (entry) => ({ timeoutMs: entry.timeout_ms ?? DEFAULT_FEDAPAY_TIMEOUT_MS, exchanges: 4 }),
  build(entry, { slug, country, secret, publicUrl, serverSecret, fetchImpl }) {
    const operator = country.operators.find((o) => o.slug === slug)!;
    return new FedaPayConnector(
      {
        slug,
        baseUrl: entry.base_url,
        apiKey: secret(entry.api_key, 'api_key'),
        webhookSecrets: entry.webhook_secrets.map((value, index) => secret(value, `webhook_secrets.${index}`)),
        mode: entry.mode ?? fedaPayModes[operator.gatewayCode]!,
        country: country.code.toLowerCase(),
        currency: entry.currency ?? country.defaultCurrency,
        timeoutMs: entry.timeout_ms ?? DEFAULT_FEDAPAY_TIMEOUT_MS,
        hostedPage: entry.hosted_page ?? false,
        returnUrlFor: fedaPayReturnUrl(publicUrl, serverSecret),
      },
      fetchImpl,
    );
  },
};
