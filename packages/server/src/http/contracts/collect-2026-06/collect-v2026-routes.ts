import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OperatorCatalog } from '../../../core/catalog/operator-catalog.js';
import type { OperatorConnectors } from '../../../core/operators/operator-connector.js';
import { principalOf } from '../../plugins/authentication.js';
import { errorResponses } from '../../shared/error-schemas.js';
import { currentCatalogBody } from './operator-catalog-mapper.js';
import { CurrentOperatorCatalog } from './schemas.js';

export interface CollectV2026Options {
  catalog: OperatorCatalog;
  operators: OperatorConnectors;
}

/** Collect, current contract (2026-06): the operator catalog. The payment routes are in payment-routes.ts. */
export const collectV2026Routes: FastifyPluginAsyncTypebox<CollectV2026Options> = async (app, { catalog, operators }) => {
  app.get(
    '/collect/payments/operators/',
    {
      config: { scope: 'collect:read', rateLimitBucket: 'read' },
      schema: {
        tags: ['collect'],
        operationId: 'getOperatorCatalog',
        summary: 'Operator catalog',
        description: 'Countries, currencies and collect operators, with limits in major units, and each operator’s status and flows in the key’s environment.',
        response: { 200: CurrentOperatorCatalog, ...errorResponses(401, 403, 429) },
      },
    },
    async (request) => currentCatalogBody(catalog, operators, principalOf(request).environment),
  );
};
