import { errorCatalog, type ErrorCode } from '../../core/errors/index.js';
import { isLegacyPath, legacyStatuses } from '../contracts/collect-legacy/legacy-errors.js';
import type { RouteFacts } from './route-facts.js';

type Condition = (route: RouteFacts) => boolean;

const never: Condition = () => false;
const operations =
  (...ids: string[]): Condition =>
  (route) =>
    route.operationId !== undefined && ids.includes(route.operationId);
const withIdempotency: Condition = (route) => route.idempotency !== undefined;
const withBody: Condition = (route) => route.hasBody;
/** Dashboard routes sign in with a session, never an API key (http/dashboard). */
const behindKey: Condition = (route) => !route.public && route.dashboard === undefined;
const onDashboard: Condition = (route) => route.dashboard !== undefined;

// Operations grouped by the core work they do (core/payments/payment-service.ts).
const creation = ['createPayment', 'legacyCreatePayment'];
const confirmation = ['confirmPayment', 'legacyConfirmPayment'];
const checkoutPayment = ['simulateCheckoutPayment'];
const refunding = ['createPaymentRefund'];
const payoutCreation = ['createPayout'];
const transferCreation = ['createTransfer'];
/** A settlement to a wallet makes a payout with the payout checks (operator, phone, amount bounds). */
const settlementCreation = ['createSettlement'];
const settlementAccountChanges = ['createSettlementAccount', 'updateSettlementAccount'];
/** Settlement schedules: reading one checks the currency; setting one also checks the account it names. */
const scheduleRead = ['getSettlementSchedule'];
const scheduleChange = ['putSettlementSchedule'];
/** Bulk batch creation; its line problems are `details` of a `validation_error`, not codes of their own. */
const bulkCreation = ['createBulkPayment', 'importBulkPaymentCsv'];
const bulkExecution = ['validateBulkPayment'];
/** Routes whose body is not JSON (so not in the route's schema). */
const rawBody = ['importBulkPaymentCsv', 'dashboardSubmitKyc', 'adminImportReconciliationReport'];
/** Operations that reach an operator (a status query with sync=true included). */
const operatorCalls = [...creation, ...confirmation, ...checkoutPayment, ...refunding, 'getPayment', 'legacyGetPayment'];
/** Operations that change a payment under a version check. */
const paymentChanges = [...operatorCalls, 'cancelPayment'];
// Dashboard operations grouped by the core work they do (core/dashboard/dashboard-service.ts).
const passwordSignIn = ['dashboardSignIn'];
const totpSignIn = ['dashboardSignInTotp'];
/** The routes authenticated by the refresh cookie and its X-CSRF-Token rather than an access token. */
const refreshCookie = ['dashboardRefresh', 'dashboardSignOut'];
const emailedTokens = ['dashboardVerifyEmail', 'dashboardPasswordResetComplete', 'dashboardAcceptInvitation'];
const totpEnrolment = ['dashboardTotpEnroll', 'dashboardTotpConfirm'];
const totpWithCode = ['dashboardTotpConfirm', 'dashboardTotpDisable'];
/** Acting in a merchant (DashboardService.actingIn): member of it, with a role that allows the action. */
const memberChanges = ['dashboardChangeRole', 'dashboardRemoveMember'];
/** The developers section (http/dashboard/developer-routes.ts): writes need keys.manage or webhooks.manage, the audit log team.manage. */
const developerWrites = [
  'dashboardCreateApiKey',
  'dashboardRevokeApiKey',
  'dashboardCreateWebhookEndpoint',
  'dashboardUpdateWebhookEndpoint',
  'dashboardRotateWebhookEndpointSecret',
  'dashboardResendEvent',
  'dashboardSendTestEvent',
];
/** Maker-checker (http/dashboard/approval-routes.ts): an approval executes what was submitted, a payout or a batch's validation. */
const approvalDecisions = ['dashboardApproveApproval', 'dashboardRejectApproval'];
const approvalWrites = [
  'dashboardSetApprovalPolicy',
  'dashboardSubmitPayout',
  'dashboardSubmitBatch',
  'dashboardSubmitTransfer',
  'dashboardSubmitSettlement',
  'dashboardSubmitRefund',
  ...approvalDecisions,
];
/** Executed at submission when no approval is needed; an approval's execution refused is answered as the request `failed`, not as an error. */
const approvedPayouts = ['dashboardSubmitPayout'];
const approvedBatches = ['dashboardSubmitBatch'];
const approvedTransfers = ['dashboardSubmitTransfer'];
const approvedSettlements = ['dashboardSubmitSettlement'];
const approvedRefunds = ['dashboardSubmitRefund'];
/** A merchant's invitations (http/dashboard/invitation-routes.ts), beside dashboardInvite. */
const invitationRoutes = ['dashboardListInvitations', 'dashboardRevokeInvitation'];
const dashboardLists = ['dashboardListWebhookEndpoints', 'dashboardListWebhookDeliveries', 'dashboardListAuditLog', 'dashboardListApprovals'];
const kycSubmission = ['dashboardSubmitKyc'];
const inMerchant = [
  'dashboardListMembers',
  'dashboardInvite',
  ...memberChanges,
  ...developerWrites,
  'dashboardListAuditLog',
  ...kycSubmission,
  ...approvalWrites,
  ...invitationRoutes,
];
/** The back office (http/admin/admin-routes.ts). */
const adminRoutes = (route: RouteFacts) => route.url.startsWith('/api/v1/admin/');
const kycDecisions = ['adminApproveKycSubmission', 'adminRejectKycSubmission'];

/**
 * Which routes can answer a code. A code absent from this table is listed on every route that
 * declares its status: a new code shows up too often rather than not at all.
 */
const conditions: Partial<Record<ErrorCode, Condition>> = {
  // Answered before a route is found, or by the HTTP layer: listed once, in the document's info.
  // (internal_error is listed where a route declares 500, as the earlier contract does.)
  route_not_found: never,
  method_not_allowed: never,
  malformed_request: never,
  request_timeout: never,
  headers_too_large: never,
  service_unavailable: never,
  unauthenticated: behindKey,
  merchant_not_found: behindKey,
  // The dashboard's auth routes have a per-address budget (and sign-in its failure throttle).
  rate_limited: (route) => behindKey(route) || route.dashboardAuthBudget,
  insufficient_scope: (route) => route.scope !== undefined,
  validation_error: (route) => route.hasInput,
  invalid_json: withBody,
  unsupported_media_type: (route) => withBody(route) || operations(...rawBody)(route),
  payload_too_large: (route) => withBody(route) || operations(...rawBody)(route),
  missing_idempotency_key: (route) => route.idempotency?.required === true,
  invalid_idempotency_key: withIdempotency,
  idempotency_key_reused: withIdempotency,
  idempotency_request_in_progress: withIdempotency,
  // A settlement names its account in the body: an unknown one is 404 like a path's.
  // exportBatchLines: its batch_id names a batch (in the query, not the path).
  not_found: (route) => route.hasPathParameters || operations(...confirmation, ...settlementCreation, 'exportBatchLines', ...approvedSettlements, ...approvedRefunds)(route),
  kyc_required: operations(
    'dashboardCreateApiKey',
    ...refunding,
    ...payoutCreation,
    ...bulkCreation,
    ...bulkExecution,
    ...transferCreation,
    ...settlementCreation,
    ...approvedPayouts,
    ...approvedBatches,
    ...approvedTransfers,
    ...approvedSettlements,
  ),
  account_inactive: operations(
    ...creation,
    'createPaymentLink',
    ...refunding,
    ...payoutCreation,
    ...bulkCreation,
    ...bulkExecution,
    ...transferCreation,
    ...settlementCreation,
    ...approvedPayouts,
    ...approvedBatches,
    ...approvedTransfers,
    ...approvedSettlements,
  ),
  unsupported_currency: operations(...creation, 'createPaymentLink', ...transferCreation, ...scheduleRead, ...scheduleChange, 'dashboardSubmitPayout', ...approvedTransfers),
  invalid_operator: operations(
    ...creation,
    'createPaymentLink',
    ...checkoutPayment,
    ...payoutCreation,
    ...settlementCreation,
    ...settlementAccountChanges,
    'dashboardSubmitPayout',
    ...approvedSettlements,
  ),
  invalid_phone: operations(...creation, ...checkoutPayment, ...payoutCreation, ...settlementCreation, ...settlementAccountChanges, 'dashboardSubmitPayout'),
  amount_too_low: operations(...creation, 'createPaymentLink', ...checkoutPayment, ...payoutCreation, ...settlementCreation, 'dashboardSubmitPayout', ...approvedSettlements),
  amount_too_high: operations(...creation, 'createPaymentLink', ...checkoutPayment, ...payoutCreation, ...settlementCreation, 'dashboardSubmitPayout'),
  duplicate_reference: operations(
    ...creation,
    ...payoutCreation,
    ...transferCreation,
    ...settlementCreation,
    'dashboardSubmitPayout',
    ...approvedTransfers,
    ...approvedSettlements,
  ),
  insufficient_balance: operations(
    ...refunding,
    ...payoutCreation,
    ...bulkExecution,
    ...transferCreation,
    ...settlementCreation,
    ...approvedPayouts,
    ...approvedBatches,
    ...approvedTransfers,
    ...approvedSettlements,
    ...approvedRefunds,
  ),
  settlement_account_cooling: operations(...settlementCreation, ...approvedSettlements),
  settlement_account_removed: operations(...settlementCreation, 'updateSettlementAccount', ...scheduleChange, ...approvedSettlements),
  settlement_currency_mismatch: operations(...settlementCreation, ...scheduleChange, ...approvedSettlements),
  nothing_to_settle: operations(...settlementCreation, ...approvedSettlements),
  invalid_iban: operations(...settlementAccountChanges),
  transfer_to_self: operations(...transferCreation, ...approvedTransfers),
  unknown_receiver: operations(...transferCreation, ...approvedTransfers),
  receiver_inactive: operations(...transferCreation, ...approvedTransfers),
  transfer_limit_exceeded: operations(...transferCreation, ...approvedTransfers),
  daily_transfer_limit_exceeded: operations(...transferCreation, ...approvedTransfers),
  payout_failed: operations(...payoutCreation),
  too_many_event_streams: operations('streamEvents'),
  invalid_otp: operations(...confirmation),
  payment_not_confirmable: operations(...confirmation),
  payment_not_cancellable: operations('cancelPayment'),
  payment_link_inactive: operations('updatePaymentLink'),
  /** Only the public page /pay/<slug> pays through a link (hidden from the document). */
  payment_link_in_use: never,
  payment_not_payable: operations(...checkoutPayment),
  sandbox_only: operations(...checkoutPayment),
  payment_not_refundable: operations(...refunding, ...approvedRefunds),
  refund_exceeds_amount: operations(...refunding, ...approvedRefunds),
  refund_not_supported: operations(...refunding, ...approvedRefunds),
  invalid_cursor: (route) => route.operationId?.startsWith('list') === true || operations(...dashboardLists, 'adminListKycSubmissions')(route),
  // A live payout for an operator no connector serves is refused before it is stored.
  operator_unavailable: operations(...operatorCalls, ...payoutCreation, ...approvedPayouts, ...approvedRefunds, 'dashboardApproveApproval'),
  operator_outcome_unknown: operations(...operatorCalls, ...approvedRefunds),
  operator_call_in_progress: operations(...operatorCalls),
  invalid_state_transition: operations(...paymentChanges, ...bulkExecution, 'cancelBulkPayment', ...approvedBatches),
  endpoint_limit_reached: operations('createWebhookEndpoint', 'dashboardCreateWebhookEndpoint'),
  // A bulk line's own problem, reported in the details of a validation_error, never as the code.
  operator_required: never,
  // The dashboard (docs/dashboard.md): X-Service-Environment is read on each of its routes.
  // A dashboard session may call the merchant API too (docs/dashboard.md "The API from the dashboard").
  invalid_environment: (route) => onDashboard(route) || behindKey(route),
  invalid_credentials: operations(...passwordSignIn, ...totpSignIn),
  invalid_session: (route) => route.dashboard === 'session' || operations('dashboardRefresh')(route) || behindKey(route),
  email_not_verified: operations(...passwordSignIn),
  insufficient_role: (route) => operations(...inMerchant)(route) || (behindKey(route) && route.scope !== undefined),
  csrf_token_invalid: operations(...refreshCookie),
  invalid_email_token: operations(...emailedTokens),
  invalid_totp_code: operations(...totpWithCode),
  totp_already_enabled: operations(...totpEnrolment),
  totp_not_enabled: operations(...totpWithCode),
  last_owner: operations(...memberChanges),
  already_member: operations('dashboardInvite'),
  unsupported_document_type: operations(...kycSubmission),
  document_too_large: operations(...kycSubmission),
  too_many_documents: operations(...kycSubmission),
  kyc_under_review: operations(...kycSubmission),
  kyc_already_validated: operations(...kycSubmission),
  kyc_not_under_review: operations(...kycDecisions),
  admin_required: adminRoutes,
  unknown_provider: operations('adminImportReconciliationReport'),
  invalid_report: operations('adminImportReconciliationReport'),
  approval_required: operations(...payoutCreation, ...bulkExecution, ...transferCreation, ...settlementCreation, ...refunding),
  self_approval_forbidden: operations('dashboardApproveApproval'),
  approval_not_pending: operations(...approvalDecisions),
  approval_expired: operations(...approvalDecisions),
  invitation_revoked: operations('dashboardAcceptInvitation'),
  invitation_expired: operations('dashboardAcceptInvitation'),
  invitation_inviter_not_allowed: operations('dashboardAcceptInvitation'),
  invitation_not_pending: operations('dashboardRevokeInvitation'),
};

/** The status a route answers a code with: the catalog's, except where the earlier contract keeps its own. */
function statusOn(route: RouteFacts, code: ErrorCode): number {
  return (isLegacyPath(route.url) ? legacyStatuses[code] : undefined) ?? errorCatalog[code].status;
}

/** The catalog codes a route can answer with `status`, in catalog order. */
export function errorCodesFor(route: RouteFacts, status: number): ErrorCode[] {
  return (Object.keys(errorCatalog) as ErrorCode[]).filter((code) => statusOn(route, code) === status && (conditions[code]?.(route) ?? true));
}
