import type { MockFamily } from '../../mocks/mock-family.js';
import { mountMockReport } from '../../mocks/mock-report-route.js';
import { PAWAPAY_CALLBACK_PATH } from '../pawapay-settings.js';
import { mountPawapayMockStatements, pawapayMockStatement } from './pawapay-mock-statement.js';
import { DEFAULT_PAWAPAY_MOCK_API_TOKEN, pawapayMockPlugin, pawapayMockState, type PawapayMockOptions } from './pawapay-mock.js';

/** Where a server receives pawaPay's callbacks: `<base>/deposits`, `/payouts`, `/refunds`. */
export function pawapayCallbackBaseUrl(serverUrl: string): string {
  return `${serverUrl.replace(/\/+$/, '')}${PAWAPAY_CALLBACK_PATH}`;
}

/** Every catalog operator pawaPay reaches (its Providers page lists neither Celtiis nor T-Money). */
export const pawapayMockSlugs = ['mtn_bj', 'moov_bj', 'flooz_tg', 'orange_ci', 'mtn_ci', 'moov_ci', 'wave_ci'] as const;

/** pawaPay, an aggregator: one account for every operator it reaches, under /pawapay. */
export const pawapayMockFamily: MockFamily = {
  name: 'pawapay',
  kind: 'aggregator',
  slugs: pawapayMockSlugs,
  async mount(app, { options, serverUrl }) {
    const own = options['pawapay'] as PawapayMockOptions | undefined;
    const pawapay = pawapayMockState({ ...own, ...(serverUrl ? { callbackBaseUrl: pawapayCallbackBaseUrl(serverUrl) } : {}) });
    await app.register(pawapayMockPlugin(pawapay), { prefix: '/pawapay' });
    // The day's wallet statement, as pawaPay's export holds it (docs/operations.md "Reconciliation").
    mountMockReport(app, '/pawapay', (day) => pawapayMockStatement(pawapay, day));
    mountPawapayMockStatements(app, pawapay, own?.apiToken ?? DEFAULT_PAWAPAY_MOCK_API_TOKEN);
    const entry = (url: string) => ({
      connector: 'pawapay',
      base_url: `${url}/pawapay`,
      api_token: own?.apiToken ?? DEFAULT_PAWAPAY_MOCK_API_TOKEN,
      ...(pawapay.signing ? { callback_public_key: pawapay.signing.publicKeyPem } : {}),
    });
    return {
      states: { pawapay },
      entries: (url) => Object.fromEntries(pawapayMockSlugs.map((slug) => [slug, entry(url)])),
      serveTo: (to) => {
        pawapay.callbackBaseUrl = pawapayCallbackBaseUrl(to);
      },
    };
  },
};
