/**
 * Every operator mock on one port, each under its own path (`/mtn-bj`, `/mtn-ci`, `/wave-ci`,
 * `/orange-ci`, `/fedapay`, `/pawapay`), and the operators file that points a server at them: `akwe mocks` and the
 * end-to-end tests run live mode on one machine with it. Which mocks exist, which slugs each
 * serves and whether it is a direct route or an aggregator is data (`mockFamilies`): each operator
 * gets its direct route first, then the aggregators', in this list's order.
 */
import Fastify from 'fastify';
import type { MtnMockOptions, MtnMockState } from '../mtn-momo/mock/mtn-momo-mock.js';
import type { OrangeMockOptions, OrangeMockState } from '../orange-money/mock/orange-money-mock.js';
import type { WaveMockOptions, WaveMockState } from '../wave/mock/wave-mock.js';
import type { FedaPayMockOptions, FedaPayMockState } from '../fedapay/mock/fedapay-mock.js';
import type { PawapayMockOptions, PawapayMockState } from '../pawapay/mock/pawapay-mock.js';
import { fedaPayMockFamily } from '../fedapay/mock/fedapay-mock-family.js';
import { pawapayMockFamily } from '../pawapay/mock/pawapay-mock-family.js';
import type { MockFamily, MountedMock } from './mock-family.js';
import { mtnMockFamily } from '../mtn-momo/mock/mtn-mock-family.js';
import { orangeMockFamily } from '../orange-money/mock/orange-mock-family.js';
import { waveMockFamily } from '../wave/mock/wave-mock-family.js';

/** The mocks `akwe mocks` runs; direct routes and aggregators alike, one line each. */
export const mockFamilies: readonly MockFamily[] = [mtnMockFamily, waveMockFamily, orangeMockFamily, fedaPayMockFamily, pawapayMockFamily];

export interface OperatorMocks {
  url: string;
  mtn: { mtn_bj: MtnMockState; mtn_ci: MtnMockState };
  wave: { wave_ci: WaveMockState };
  orange: { orange_ci: OrangeMockState };
  /** One pawaPay account, serving every operator pawaPay reaches (pawapayMockSlugs). */
  pawapay: PawapayMockState;
  /** One FedaPay account, serving every operator in `fedaPayOperators`. */
  fedapay: FedaPayMockState;
  /** Each family's mock states by slug (`states['mtn-momo']['mtn_bj']`). */
  states: Record<string, Record<string, unknown>>;
  /** Points the mocks that call a fixed URL (Wave's and FedaPay's webhooks, pawaPay's callbacks) at a server (its public URL). */
  sendCallbacksTo(serverUrl: string): void;
  /** The operators file (as data) that configures a server against these mocks. */
  operatorsFile: { operators: Record<string, unknown> };
  close(): Promise<void>;
}

export { waveWebhookUrl } from '../wave/mock/wave-mock-family.js';
export { fedaPayOperators, fedaPayWebhookUrl } from '../fedapay/mock/fedapay-mock-family.js';
export { pawapayCallbackBaseUrl, pawapayMockSlugs } from '../pawapay/mock/pawapay-mock-family.js';

/**
 * Each slug's routes: the direct ones first, then the aggregators', in the families' order; one
 * route is written as an object (the single-route form), several as a list.
 */
export function composeOperatorsFile(families: ReadonlyArray<{ family: MockFamily; entries: Record<string, Record<string, unknown>> }>): Record<string, unknown> {
  const routes = new Map<string, Array<Record<string, unknown>>>();
  for (const kind of ['direct', 'aggregator'] as const) {
    for (const { family, entries } of families) {
      if (family.kind !== kind) continue;
      for (const slug of family.slugs) {
        const entry = entries[slug];
        if (entry) routes.set(slug, [...(routes.get(slug) ?? []), entry]);
      }
    }
  }
  return Object.fromEntries([...routes].map(([slug, list]) => [slug, list.length === 1 ? list[0] : list]));
}

export async function startOperatorMocks(
  options: {
    port?: number;
    host?: string;
    mtn?: Omit<MtnMockOptions, 'targetEnvironment'>;
    wave?: WaveMockOptions;
    orange?: OrangeMockOptions;
    pawapay?: PawapayMockOptions;
    fedapay?: FedaPayMockOptions;
    serverUrl?: string;
    [family: string]: unknown;
  } = {},
  families: readonly MockFamily[] = mockFamilies,
): Promise<OperatorMocks> {
  const host = options.host ?? '127.0.0.1';
  const app = Fastify({ logger: false, forceCloseConnections: true });
  const mounted: Array<{ family: MockFamily; mock: MountedMock }> = [];
  for (const family of families) mounted.push({ family, mock: await family.mount(app, { options, ...(options.serverUrl ? { serverUrl: options.serverUrl } : {}) }) });
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const url = `http://${host}:${port}`;
  const states = Object.fromEntries(mounted.map(({ family, mock }) => [family.name, mock.states]));
  const operators = composeOperatorsFile(mounted.map(({ family, mock }) => ({ family, entries: mock.entries(url) })));
  return {
    url,
    mtn: states['mtn-momo'] as OperatorMocks['mtn'],
    wave: states['wave'] as OperatorMocks['wave'],
    orange: states['orange-money'] as OperatorMocks['orange'],
    pawapay: (states['pawapay'] as { pawapay: PawapayMockState }).pawapay,
    fedapay: (states['fedapay'] as { fedapay: FedaPayMockState }).fedapay,
    states,
    sendCallbacksTo: (serverUrl) => {
      for (const { mock } of mounted) mock.serveTo?.(serverUrl);
    },
    operatorsFile: { operators },
    close: async () => {
      for (const { mock } of mounted) for (const state of Object.values(mock.states)) state.stopTimers();
      await app.close();
    },
  };
}
