import type { ConnectorFamily } from '../connector-family.js';
import { WaveConnector } from './wave-connector.js';
import { waveReturnUrls } from './wave-return.js';
import { DEFAULT_WAVE_TIMEOUT_MS, WaveEntrySchema, type WaveEntry } from './wave-settings.js';

/** How the operators file's `wave` entries become connectors. */
export const waveFamily: ConnectorFamily<WaveEntry> = {
  name: 'wave',
  gatewayCodes: ['WAVE_CI'],
  schema: WaveEntrySchema,
  // At most a search by our reference, then the call (a refund).
  callBudget: (entry) => ({ timeoutMs: entry.timeout_ms ?? DEFAULT_WAVE_TIMEOUT_MS, exchanges: 2 }),
  build(entry, { slug, country, secret, publicUrl, serverSecret, fetchImpl }) {
    return new WaveConnector(
      {
        slug,
        baseUrl: entry.base_url,
        apiKey: secret(entry.api_key, 'api_key'),
        webhookSecret: secret(entry.webhook_secret, 'webhook_secret'),
        currency: entry.currency ?? country.defaultCurrency,
        timeoutMs: entry.timeout_ms ?? DEFAULT_WAVE_TIMEOUT_MS,
        ...waveReturnUrls(publicUrl, serverSecret),
      },
      fetchImpl,
    );
  },
};
