import type { MockFamily } from '../../mocks/mock-family.js';
import { mountMockReport } from '../../mocks/mock-report-route.js';
import { orangeMockReport } from './orange-mock-report.js';
import { orangeAuthorizationHeader, orangeMockState, orangeMoneyMockPlugin, type OrangeMockOptions } from './orange-money-mock.js';

/** Orange Money Web Payment, the direct (hosted) route of Orange Côte d'Ivoire, under /orange-ci. */
export const orangeMockFamily: MockFamily = {
  name: 'orange-money',
  kind: 'direct',
  slugs: ['orange_ci'],
  async mount(app, { options }) {
    const given = (options['orange'] ?? {}) as OrangeMockOptions;
    const state = orangeMockState(given);
    await app.register(orangeMoneyMockPlugin(state), { prefix: '/orange-ci' });
    mountMockReport(app, '/orange-ci', (day) => orangeMockReport(state, day));
    const { clientId, clientSecret, merchantKey, currency, webpayPath } = state.options;
    return {
      states: { orange_ci: state },
      entries: (url) => ({
        orange_ci: {
          connector: 'orange-money',
          base_url: `${url}/orange-ci`,
          authorization_header: orangeAuthorizationHeader(clientId, clientSecret),
          merchant_key: merchantKey,
          webpay_path: webpayPath,
          currency,
        },
      }),
    };
  },
};
