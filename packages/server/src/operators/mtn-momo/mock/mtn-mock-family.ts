import type { MockFamily } from '../../mocks/mock-family.js';
import { mountMockReport } from '../../mocks/mock-report-route.js';
import { mtnMockReport } from './mtn-mock-report.js';
import { DEFAULT_MTN_MOCK_CREDENTIALS, mtnMockState, mtnMomoMockPlugin, type MtnMockOptions, type MtnMockState } from './mtn-momo-mock.js';

const companies = [
  { slug: 'mtn_bj', path: '/mtn-bj', targetEnvironment: 'mtnbenin' },
  { slug: 'mtn_ci', path: '/mtn-ci', targetEnvironment: 'mtnivorycoast' },
] as const;

function entry(baseUrl: string, targetEnvironment: string) {
  const product = (p: keyof typeof DEFAULT_MTN_MOCK_CREDENTIALS) => ({
    subscription_key: DEFAULT_MTN_MOCK_CREDENTIALS[p].subscriptionKey,
    api_user: DEFAULT_MTN_MOCK_CREDENTIALS[p].apiUser,
    api_key: DEFAULT_MTN_MOCK_CREDENTIALS[p].apiKey,
  });
  return { connector: 'mtn-momo', base_url: baseUrl, target_environment: targetEnvironment, collection: product('collection'), disbursement: product('disbursement') };
}

/** MTN MoMo, the direct route of MTN Bénin and MTN Côte d'Ivoire: one mock per company. */
export const mtnMockFamily: MockFamily = {
  name: 'mtn-momo',
  kind: 'direct',
  slugs: companies.map((c) => c.slug),
  async mount(app, { options }) {
    const states: Record<string, MtnMockState> = {};
    for (const company of companies) {
      const state = mtnMockState({ ...(options['mtn'] as Omit<MtnMockOptions, 'targetEnvironment'> | undefined), targetEnvironment: company.targetEnvironment });
      states[company.slug] = state;
      await app.register(mtnMomoMockPlugin(state), { prefix: company.path });
      mountMockReport(app, company.path, (day) => mtnMockReport(state, day));
    }
    return { states, entries: (url) => Object.fromEntries(companies.map((c) => [c.slug, entry(`${url}${c.path}`, c.targetEnvironment)])) };
  },
};
