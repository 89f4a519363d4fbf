import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { OperatorCatalog } from '../../core/catalog/operator-catalog.js';
import { installLegacyErrorHandling } from './legacy-errors.js';
import { legacyCatalogBody } from './operator-catalog-mapper.js';
import { LegacyError, LegacyOperatorCatalog } from './schemas.js';

export interface CollectLegacyOptions {
  catalog: OperatorCatalog;
}

/** Collect, earlier contract: paths end with a slash, amounts in centimes, its own error shapes. */
export const collectLegacyRoutes: FastifyPluginAsyncTypebox<CollectLegacyOptions> = async (app, { catalog }) => {
  installLegacyErrorHandling(app);
  const body = legacyCatalogBody(catalog);
  app.get(
    '/collect/operators/',
    {
      config: { scope: 'collect:read' },
      schema: {
        tags: ['collect (earlier contract)'],
        summary: 'Operator catalog (earlier contract)',
        deprecated: true,
        response: { 200: LegacyOperatorCatalog, 401: LegacyError, 403: LegacyError },
      },
    },
    async () => body,
  );
};
