import type { MockFamily } from '../../mocks/mock-family.js';
import { mountMockReport } from '../../mocks/mock-report-route.js';
import { fedaPayMockReport } from './fedapay-mock-report.js';
import { DEFAULT_FEDAPAY_MOCK_API_KEY, DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET, fedaPayMockPlugin, fedaPayMockState, type FedaPayMockOptions } from './fedapay-mock.js';

/** The catalog operators the FedaPay mock serves (MTN Bénin stays with the MTN mock and pawaPay). */
export const fedaPayOperators = ['moov_bj', 'celtiis_bj', 'tmoney_tg', 'flooz_tg'] as const;

/** Where a server receives FedaPay's webhooks, under its public URL. */
export function fedaPayWebhookUrl(serverUrl: string): string {
  return `${serverUrl.replace(/\/+$/, '')}/api/v1/operators/fedapay/webhooks`;
}

/** FedaPay, an aggregator (listed before pawaPay: the only one reaching Celtiis and T-Money), under /fedapay. */
export const fedaPayMockFamily: MockFamily = {
  name: 'fedapay',
  kind: 'aggregator',
  slugs: fedaPayOperators,
  async mount(app, { options, serverUrl }) {
    const fedapay = fedaPayMockState({ ...(options['fedapay'] as FedaPayMockOptions | undefined), ...(serverUrl ? { webhookUrl: fedaPayWebhookUrl(serverUrl) } : {}) });
    await app.register(fedaPayMockPlugin(fedapay), { prefix: '/fedapay' });
    mountMockReport(app, '/fedapay', (day) => fedaPayMockReport(fedapay, day));
    const entry = (url: string) => ({
      connector: 'fedapay',
      base_url: `${url}/fedapay`,
      api_key: DEFAULT_FEDAPAY_MOCK_API_KEY,
      webhook_secrets: [DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET],
    });
    return {
      states: { fedapay },
      entries: (url) => Object.fromEntries(fedaPayOperators.map((slug) => [slug, entry(url)])),
      serveTo: (to) => {
        fedapay.webhookUrl = fedaPayWebhookUrl(to);
      },
    };
  },
};
