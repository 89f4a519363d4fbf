import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OperatorCatalog } from '../../core/catalog/operator-catalog.js';
import { errorResponses } from '../shared/error-schemas.js';
import { PayoutOperatorCatalog, payoutCatalogBody } from './payout-catalog.js';

export interface PayoutRoutesOptions {
  catalog: OperatorCatalog;
}

/** Payouts. Later issues add creation and status; the catalog is served from the start. */
export const payoutRoutes: FastifyPluginAsyncTypebox<PayoutRoutesOptions> = async (app, { catalog }) => {
  const body = payoutCatalogBody(catalog);
  app.get(
    '/payout/operators/',
    {
      config: { scope: 'payout:read', rateLimitBucket: 'read' },
      schema: {
        tags: ['payouts'],
        operationId: 'getPayoutOperatorCatalog',
        summary: 'Payout operator catalog',
        response: { 200: PayoutOperatorCatalog, ...errorResponses(401, 403, 429) },
      },
    },
    async () => body,
  );
};
