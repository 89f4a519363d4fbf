/**
 * Every operator mock on one port, each under its own path (`/mtn-bj`, `/mtn-ci`, `/wave-ci`, `/pawapay`, `/fedapay`), and the
 * operators file that points a server at them: `akwe mocks` and the end-to-end tests run live mode
 * on one machine with it.
 */
import Fastify from 'fastify';
import {
  DEFAULT_FEDAPAY_MOCK_API_KEY,
  DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET,
  fedaPayMockPlugin,
  fedaPayMockState,
  type FedaPayMockOptions,
  type FedaPayMockState,
} from '../fedapay/mock/fedapay-mock.js';
import { DEFAULT_MTN_MOCK_CREDENTIALS, mtnMockState, mtnMomoMockPlugin, type MtnMockOptions, type MtnMockState } from '../mtn-momo/mock/mtn-momo-mock.js';
import { DEFAULT_PAWAPAY_MOCK_API_TOKEN, pawapayMockPlugin, pawapayMockState, type PawapayMockOptions, type PawapayMockState } from '../pawapay/mock/pawapay-mock.js';
import { PAWAPAY_CALLBACK_PATH } from '../pawapay/pawapay-settings.js';
import { DEFAULT_WAVE_MOCK_API_KEY, DEFAULT_WAVE_MOCK_WEBHOOK_SECRET, waveMockPlugin, waveMockState, type WaveMockOptions, type WaveMockState } from '../wave/mock/wave-mock.js';

export interface OperatorMocks {
  url: string;
  mtn: { mtn_bj: MtnMockState; mtn_ci: MtnMockState };
  wave: { wave_ci: WaveMockState };
  /** One pawaPay account, serving the operators no other mock serves (pawapayMockSlugs). */
  pawapay: PawapayMockState;
  /** One FedaPay account, serving every operator in `fedaPayOperators`. */
  fedapay: FedaPayMockState;
  /** Points Wave's and FedaPay's webhooks at a server (its public URL), as registering them in their dashboards does. */
  sendWaveWebhooksTo(serverUrl: string): void;
  /** Points pawaPay's callbacks at a server, as setting the callback URLs in pawaPay's Dashboard does. */
  sendPawapayCallbacksTo(serverUrl: string): void;
  /** The operators file (as data) that configures a server against these mocks. */
  operatorsFile: { operators: Record<string, unknown> };
  close(): Promise<void>;
}

const mtnCompanies = [
  { slug: 'mtn_bj', path: '/mtn-bj', targetEnvironment: 'mtnbenin' },
  { slug: 'mtn_ci', path: '/mtn-ci', targetEnvironment: 'mtnivorycoast' },
] as const;

function mtnEntry(baseUrl: string, targetEnvironment: string) {
  const product = (p: keyof typeof DEFAULT_MTN_MOCK_CREDENTIALS) => ({
    subscription_key: DEFAULT_MTN_MOCK_CREDENTIALS[p].subscriptionKey,
    api_user: DEFAULT_MTN_MOCK_CREDENTIALS[p].apiUser,
    api_key: DEFAULT_MTN_MOCK_CREDENTIALS[p].apiKey,
  });
  return { connector: 'mtn-momo', base_url: baseUrl, target_environment: targetEnvironment, collection: product('collection'), disbursement: product('disbursement') };
}

/** The catalog operators the FedaPay mock serves (MTN Bénin stays with the MTN mock). */
export const fedaPayOperators = ['moov_bj', 'celtiis_bj', 'tmoney_tg', 'flooz_tg'] as const;

/** Where a server receives FedaPay's webhooks, under its public URL. */
export function fedaPayWebhookUrl(serverUrl: string): string {
  return `${serverUrl.replace(/\/+$/, '')}/api/v1/operators/fedapay/webhooks`;
}

/** Where a server receives Wave's webhooks, under its public URL. */
export function waveWebhookUrl(serverUrl: string): string {
  return `${serverUrl.replace(/\/+$/, '')}/api/v1/operators/wave/webhooks`;
}

/** Where a server receives pawaPay's callbacks: `<base>/deposits`, `/payouts`, `/refunds`. */
export function pawapayCallbackBaseUrl(serverUrl: string): string {
  return `${serverUrl.replace(/\/+$/, '')}${PAWAPAY_CALLBACK_PATH}`;
}

/** The catalog operators pawaPay reaches that no other mock serves: the mock file routes them through pawaPay. */
export const pawapayMockSlugs = ['moov_bj', 'flooz_tg', 'orange_ci', 'moov_ci'] as const;

export async function startOperatorMocks(
  options: {
    port?: number;
    host?: string;
    mtn?: Omit<MtnMockOptions, 'targetEnvironment'>;
    wave?: WaveMockOptions;
    pawapay?: PawapayMockOptions;
    fedapay?: FedaPayMockOptions;
    serverUrl?: string;
  } = {},
): Promise<OperatorMocks> {
  const host = options.host ?? '127.0.0.1';
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const states = {} as OperatorMocks['mtn'];
  for (const company of mtnCompanies) {
    const state = mtnMockState({ ...options.mtn, targetEnvironment: company.targetEnvironment });
    states[company.slug] = state;
    await app.register(mtnMomoMockPlugin(state), { prefix: company.path });
  }
  const wave = waveMockState({ ...options.wave, ...(options.serverUrl ? { webhookUrl: waveWebhookUrl(options.serverUrl) } : {}) });
  await app.register(waveMockPlugin(wave), { prefix: '/wave-ci' });
  const pawapay = pawapayMockState({ ...options.pawapay, ...(options.serverUrl ? { callbackBaseUrl: pawapayCallbackBaseUrl(options.serverUrl) } : {}) });
  await app.register(pawapayMockPlugin(pawapay), { prefix: '/pawapay' });
  const fedapay = fedaPayMockState({ ...options.fedapay, ...(options.serverUrl ? { webhookUrl: fedaPayWebhookUrl(options.serverUrl) } : {}) });
  await app.register(fedaPayMockPlugin(fedapay), { prefix: '/fedapay' });
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${host}:${port}`;
  const operators = {
    ...Object.fromEntries(mtnCompanies.map((company) => [company.slug, mtnEntry(`${url}${company.path}`, company.targetEnvironment)])),
    wave_ci: { connector: 'wave', base_url: `${url}/wave-ci`, api_key: DEFAULT_WAVE_MOCK_API_KEY, webhook_secret: DEFAULT_WAVE_MOCK_WEBHOOK_SECRET },
    ...Object.fromEntries(
      pawapayMockSlugs.map((slug) => [
        slug,
        {
          connector: 'pawapay',
          base_url: `${url}/pawapay`,
          api_token: options.pawapay?.apiToken ?? DEFAULT_PAWAPAY_MOCK_API_TOKEN,
          ...(pawapay.signing ? { callback_public_key: pawapay.signing.publicKeyPem } : {}),
        },
      ]),
    ),
    // FedaPay after pawaPay: where both reach an operator, FedaPay's entry is the one kept.
    ...Object.fromEntries(
      fedaPayOperators.map((slug) => [
        slug,
        { connector: 'fedapay', base_url: `${url}/fedapay`, api_key: DEFAULT_FEDAPAY_MOCK_API_KEY, webhook_secrets: [DEFAULT_FEDAPAY_MOCK_WEBHOOK_SECRET] },
      ]),
    ),
  };
  return {
    url,
    mtn: states,
    wave: { wave_ci: wave },
    pawapay,
    fedapay,
    sendWaveWebhooksTo: (serverUrl) => {
      wave.webhookUrl = waveWebhookUrl(serverUrl);
      fedapay.webhookUrl = fedaPayWebhookUrl(serverUrl);
    },
    sendPawapayCallbacksTo: (serverUrl) => {
      pawapay.callbackBaseUrl = pawapayCallbackBaseUrl(serverUrl);
    },
    operatorsFile: { operators },
    close: async () => {
      for (const state of Object.values(states)) state.stopTimers();
      wave.stopTimers();
      pawapay.stopTimers();
      fedapay.stopTimers();
      await app.close();
    },
  };
}
