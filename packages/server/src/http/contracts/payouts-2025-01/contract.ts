import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bulkBatchToWire } from '../../bulk/bulk-mapper.js';
import { BulkBatchObject } from '../../bulk/bulk-schemas.js';
import type { ContractRouteDeps, ContractVersion } from '../contract-version.js';
import { payoutToWire } from './payout-mapper.js';
import { payoutRoutes } from './payout-routes.js';
import { PayoutObject } from './payout-schemas.js';

const routes: FastifyPluginAsyncTypebox<ContractRouteDeps> = async (api, { services }) => {
  await api.register(payoutRoutes, { catalog: services.catalog, payouts: services.payouts, operators: services.operators, approvals: services.approvals });
};

/**
 * Payouts, contract 2025-01. Its events (payouts, and bulk batches: the same centimes and family of
 * objects) carry `event_version: "2025-01"` and reach the current contract's webhook endpoints.
 */
export const payouts202501: ContractVersion = {
  name: 'payouts-2025-01',
  routes,
  events: {
    version: '2025-01',
    subjects: ['payout', 'bulk_batch'],
    families: [
      { prefix: 'payout.', object: PayoutObject, subject: 'payout' },
      { prefix: 'bulk_payment.', object: BulkBatchObject, subject: 'bulk payment batch' },
    ],
    object(subject) {
      if (subject.kind === 'payout') return payoutToWire(subject.payout);
      if (subject.kind === 'bulk_batch') return bulkBatchToWire({ batch: subject.batch, totals: subject.totals });
      throw new Error(`payouts-2025-01 renders payout and bulk events, not ${subject.kind}`);
    },
  },
};
