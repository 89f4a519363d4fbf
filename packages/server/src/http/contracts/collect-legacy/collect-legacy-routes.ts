import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OperatorCatalog } from '../../../core/catalog/operator-catalog.js';
import type { PaymentService } from '../../../core/payments/payment-service.js';
import { installLegacyErrorHandling } from './legacy-errors.js';
import { legacyPaymentRoutes } from './payment-routes.js';
import { legacyCatalogBody } from './operator-catalog-mapper.js';
import { LegacyError, LegacyOperatorCatalog } from './schemas.js';

export interface CollectLegacyOptions {
  catalog: OperatorCatalog;
  payments: PaymentService;
  clock: { now(): Date };
}

/** Collect, earlier contract: paths end with a slash, amounts in centimes, its own error shapes (for its payment routes too). */
export const collectLegacyRoutes: FastifyPluginAsyncTypebox<CollectLegacyOptions> = async (app, { catalog, payments, clock }) => {
  installLegacyErrorHandling(app);
  const body = legacyCatalogBody(catalog);
  app.get(
    '/collect/operators/',
    {
      config: { scope: 'collect:read', rateLimitBucket: 'read' },
      schema: {
        tags: ['collect (earlier contract)'],
        operationId: 'legacyGetOperatorCatalog',
        summary: 'Operator catalog (earlier contract)',
        deprecated: true,
        response: { 200: LegacyOperatorCatalog, 401: LegacyError, 403: LegacyError, 429: LegacyError },
      },
    },
    async () => body,
  );
  await app.register(legacyPaymentRoutes, { payments, clock });
};
