import type { MockFamily } from '../../mocks/mock-family.js';
import { mountMockReport } from '../../mocks/mock-report-route.js';
import { waveMockReport } from './wave-mock-report.js';
import { DEFAULT_WAVE_MOCK_API_KEY, DEFAULT_WAVE_MOCK_WEBHOOK_SECRET, waveMockPlugin, waveMockState, type WaveMockOptions } from './wave-mock.js';

/** Where a server receives Wave's webhooks, under its public URL. */
export function waveWebhookUrl(serverUrl: string): string {
  return `${serverUrl.replace(/\/+$/, '')}/api/v1/operators/wave/webhooks`;
}

/** Wave, the direct route of Wave Côte d'Ivoire (hosted only), under /wave-ci. */
export const waveMockFamily: MockFamily = {
  name: 'wave',
  kind: 'direct',
  slugs: ['wave_ci'],
  async mount(app, { options, serverUrl }) {
    const wave = waveMockState({ ...(options['wave'] as WaveMockOptions | undefined), ...(serverUrl ? { webhookUrl: waveWebhookUrl(serverUrl) } : {}) });
    await app.register(waveMockPlugin(wave), { prefix: '/wave-ci' });
    mountMockReport(app, '/wave-ci', (day) => waveMockReport(wave, day));
    return {
      states: { wave_ci: wave },
      entries: (url) => ({ wave_ci: { connector: 'wave', base_url: `${url}/wave-ci`, api_key: DEFAULT_WAVE_MOCK_API_KEY, webhook_secret: DEFAULT_WAVE_MOCK_WEBHOOK_SECRET } }),
      serveTo: (to) => {
        wave.webhookUrl = waveWebhookUrl(to);
      },
    };
  },
};
