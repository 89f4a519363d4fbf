import type { Migration } from 'kysely';
import * as foundation from './0001-foundation.js';
import * as payments from './0002-payments.js';
import * as webhooks from './0003-webhooks.js';
import * as recordedPhases from './0004-recorded-phases.js';
import * as integratorConventions from './0005-integrator-conventions.js';
import * as webhooksAtScale from './0006-webhooks-at-scale.js';
import * as merchantHistory from './0007-merchant-history.js';
import * as ledger from './0008-ledger.js';
import * as payouts from './0009-payouts.js';
import * as deliveryClaimIndex from './0010-delivery-claim-index.js';
import * as bulkBatches from './0011-bulk-batches.js';
import * as bulkCancelled from './0012-bulk-cancelled.js';
import * as checkout from './0013-checkout.js';
import * as lighterWrites from './0014-lighter-writes.js';
import * as deliverySubject from './0015-delivery-subject.js';
import * as bulkFollowOrder from './0016-bulk-follow-order.js';
import * as paymentReconciliation from './0017-payment-reconciliation.js';
import * as operatorDiscrepancies from './0018-operator-discrepancies.js';
import * as operatorRedirect from './0019-operator-redirect.js';
import * as lighterCreationWrites from './0020-lighter-creation-writes.js';
import * as transfers from './0021-transfers.js';
import * as settlements from './0022-settlements.js';
import * as dashboardUsers from './0023-dashboard-users.js';
import * as kycAndAdmins from './0024-kyc-and-admins.js';
import * as approvals from './0025-approvals.js';
import * as apiKeyLastUsed from './0026-api-key-last-used.js';
import * as refundsScopeIndex from './0027-refunds-scope-index.js';
import * as phoneSearch from './0028-phone-search.js';
import * as apiKeyCreator from './0029-api-key-creator.js';
import * as approvalsEverywhere from './0030-approvals-everywhere.js';
import * as operatorFaults from './0032-operator-faults.js';
import * as operatorRoutes from './0033-operator-routes.js';
import * as paymentSentAt from './0034-payment-sent-at.js';
import * as userLanguage from './0035-user-language.js';
import * as paymentLinks from './0036-payment-links.js';
import * as routeFloats from './0037-route-floats.js';
import * as reconciliation from './0038-reconciliation.js';
import * as revenueIndex from './0039-revenue-index.js';
import * as paymentLinkIndexPartial from './0040-payment-link-index-partial.js';
import * as eventFanoutQueue from './0041-event-fanout-queue.js';
import * as eventPayloadBase from './0042-event-payload-base.js';
import * as totpOnce from './0031-totp-once.js';

/** Every migration, in order. Names sort lexicographically; never rename or edit a shipped one. */
export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-payments': payments,
  '0003-webhooks': webhooks,
  '0004-recorded-phases': recordedPhases,
  '0005-integrator-conventions': integratorConventions,
  '0006-webhooks-at-scale': webhooksAtScale,
  '0007-merchant-history': merchantHistory,
  '0008-ledger': ledger,
  '0009-payouts': payouts,
  '0010-delivery-claim-index': deliveryClaimIndex,
  '0011-bulk-batches': bulkBatches,
  '0012-bulk-cancelled': bulkCancelled,
  '0013-checkout': checkout,
  '0014-lighter-writes': lighterWrites,
  '0015-delivery-subject': deliverySubject,
  '0016-bulk-follow-order': bulkFollowOrder,
  '0017-payment-reconciliation': paymentReconciliation,
  '0018-operator-discrepancies': operatorDiscrepancies,
  '0019-operator-redirect': operatorRedirect,
  '0020-lighter-creation-writes': lighterCreationWrites,
  '0021-transfers': transfers,
  '0022-settlements': settlements,
  '0023-dashboard-users': dashboardUsers,
  '0024-kyc-and-admins': kycAndAdmins,
  '0025-approvals': approvals,
  '0026-api-key-last-used': apiKeyLastUsed,
  '0027-refunds-scope-index': refundsScopeIndex,
  '0028-phone-search': phoneSearch,
  '0029-api-key-creator': apiKeyCreator,
  '0030-approvals-everywhere': approvalsEverywhere,
  '0031-totp-once': totpOnce,
  '0032-operator-faults': operatorFaults,
  '0033-operator-routes': operatorRoutes,
  '0034-payment-sent-at': paymentSentAt,
  '0035-user-language': userLanguage,
  '0036-payment-links': paymentLinks,
  '0037-route-floats': routeFloats,
  '0038-reconciliation': reconciliation,
  '0039-revenue-index': revenueIndex,
  '0040-payment-link-index-partial': paymentLinkIndexPartial,
  '0041-event-fanout-queue': eventFanoutQueue,
  '0042-event-payload-base': eventPayloadBase,
};
