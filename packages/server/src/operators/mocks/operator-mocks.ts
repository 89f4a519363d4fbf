/**
 * Every operator mock on one port, each under its own path (`/mtn-bj`, `/mtn-ci`, `/wave-ci`), and the
 * operators file that points a server at them: `akwe mocks` and the end-to-end tests run live mode
 * on one machine with it.
 */
import Fastify from 'fastify';
import { DEFAULT_MTN_MOCK_CREDENTIALS, mtnMockState, mtnMomoMockPlugin, type MtnMockOptions, type MtnMockState } from '../mtn-momo/mock/mtn-momo-mock.js';
import { DEFAULT_WAVE_MOCK_API_KEY, DEFAULT_WAVE_MOCK_WEBHOOK_SECRET, waveMockPlugin, waveMockState, type WaveMockOptions, type WaveMockState } from '../wave/mock/wave-mock.js';

export interface OperatorMocks {
  url: string;
  mtn: { mtn_bj: MtnMockState; mtn_ci: MtnMockState };
  wave: { wave_ci: WaveMockState };
  /** Points Wave's webhooks at a server (its public URL), as registering the webhook in Wave's portal does. */
  sendWaveWebhooksTo(serverUrl: string): void;
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

/** Where a server receives Wave's webhooks, under its public URL. */
export function waveWebhookUrl(serverUrl: string): string {
  return `${serverUrl.replace(/\/+$/, '')}/api/v1/operators/wave/webhooks`;
}

export async function startOperatorMocks(
  options: { port?: number; host?: string; mtn?: Omit<MtnMockOptions, 'targetEnvironment'>; wave?: WaveMockOptions; serverUrl?: string } = {},
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
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${host}:${port}`;
  const operators = {
    ...Object.fromEntries(mtnCompanies.map((company) => [company.slug, mtnEntry(`${url}${company.path}`, company.targetEnvironment)])),
    wave_ci: { connector: 'wave', base_url: `${url}/wave-ci`, api_key: DEFAULT_WAVE_MOCK_API_KEY, webhook_secret: DEFAULT_WAVE_MOCK_WEBHOOK_SECRET },
  };
  return {
    url,
    mtn: states,
    wave: { wave_ci: wave },
    sendWaveWebhooksTo: (serverUrl) => {
      wave.webhookUrl = waveWebhookUrl(serverUrl);
    },
    operatorsFile: { operators },
    close: async () => {
      for (const state of Object.values(states)) state.stopTimers();
      wave.stopTimers();
      await app.close();
    },
  };
}
