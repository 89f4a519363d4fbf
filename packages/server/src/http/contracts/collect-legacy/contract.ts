import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ContractRouteDeps, ContractVersion } from '../contract-version.js';
import { collectLegacyRoutes } from './collect-legacy-routes.js';
import { renderLegacyDelivery } from './webhook-rendering.js';

const routes: FastifyPluginAsyncTypebox<ContractRouteDeps> = async (api, { services }) => {
  await api.register(collectLegacyRoutes, { catalog: services.catalog, payments: services.payments, clock: services.clock });
};

/** Collect, earlier contract: its routes, and `legacy` webhook endpoints that receive its payment events only. */
export const collectLegacy: ContractVersion = {
  name: 'collect-legacy',
  routes,
  webhook: {
    apiVersion: 'legacy',
    description: '`legacy` receives the earlier contract’s events (collect.completed, …).',
    limit: { subjects: ['payment'], family: 'collect.payment.*', receives: 'payment events', others: 'refund, payout, bulk, transfer and settlement events' },
    render: (event, options) => renderLegacyDelivery(event, options),
  },
};
