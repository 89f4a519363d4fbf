// The runnable tour both collections share (generate-postman.mjs, generate-bruno.mjs): which
// operations a runner sends, in which order, what each is expected to answer, and which values it
// keeps for the requests after it. Everything the tour leaves out goes in a folder the run skips.
//
// A step: `op` (the operationId), `name` (when one operation is sent twice), `expect` (the status
// the assertion requires), `path` and `query` (values, `{{variables}}` welcome), `body` (replaces
// the document's example; a `{{variable}}` string stands for a value kept earlier), `save`
// (variable -> a JavaScript expression over `body`, the parsed JSON answer).
// The variables a run starts with: baseUrl, apiKey (an ak_test_… key of a merchant whose KYC is
// validated), dashboardEmail and dashboardPassword (a dashboard user whose address is verified).

/** A reference no earlier run used: the runner’s clock, in seconds. */
const unique = (prefix) => `${prefix}-{{$timestamp}}`;

export const TOUR_FOLDER = 'Tour';
export const SKIPPED_FOLDER = 'Not in the run';

/** Why the operations left out of the tour are left out (examples/README.md says the same). */
export const SKIPPED_DESCRIPTION =
  'Requests the tour does not send: the event stream (it never ends), what needs a mailed link or a one-time code (e-mail ' +
  'verification, completing a password reset, accepting an invitation, TOTP), refresh and sign-out (the refresh cookie of a ' +
  'browser session), what needs a second member, a KYC file upload, the approvals (live money-out held for a second person) ' +
  'and the back office (a platform administrator). Send them by hand, filling their path variables.';

export const TOUR = [
  // The dashboard session first: its merchant also receives the transfer further down.
  { op: 'dashboardSignIn', expect: 200, body: { email: '{{dashboardEmail}}', password: '{{dashboardPassword}}' }, save: { dashboardToken: 'body.access_token' } },
  { op: 'dashboardMe', expect: 200, save: { merchantId: 'body.memberships[0].merchant_id' } },

  { op: 'getAccount', expect: 200 },
  { op: 'getCallbackSecret', expect: 200 },
  { op: 'predictOperator', expect: 200 },

  { op: 'getOperatorCatalog', expect: 200 },
  {
    op: 'createPayment',
    expect: 201,
    body: {
      reference: unique('order'),
      amount: 5000,
      currency: 'XOF',
      country: 'BJ',
      mode: 'direct',
      customer: { phone: '+2290197000000' },
      operator: 'mtn_bj',
      description: 'Order 1001',
    },
    save: { paymentId: 'body.id' },
  },
  { op: 'listPayments', expect: 200 },
  { op: 'getPayment', expect: 200, path: { reference_or_id: '{{paymentId}}' } },
  { op: 'createPaymentRefund', expect: 201, path: { reference_or_id: '{{paymentId}}' }, save: { refundId: 'body.id' } },
  { op: 'listPaymentRefunds', expect: 200, path: { reference_or_id: '{{paymentId}}' } },
  { op: 'getPaymentRefund', expect: 200, path: { reference_or_id: '{{paymentId}}', refund_id: '{{refundId}}' } },
  { op: 'listRefunds', expect: 200 },
  {
    op: 'createPayment',
    name: 'Create a payment that waits for an OTP',
    expect: 201,
    body: { reference: unique('order-otp'), amount: 5000, currency: 'XOF', country: 'CI', mode: 'direct', customer: { phone: '+2250707000000' }, operator: 'orange_ci' },
    save: { otpPaymentId: 'body.id' },
  },
  { op: 'confirmPayment', expect: 200, path: { reference_or_id: '{{otpPaymentId}}' } },
  {
    op: 'createPayment',
    name: 'Create a payment that stays pending',
    expect: 201,
    body: { reference: unique('order-PENDING'), amount: 5000, currency: 'XOF', country: 'BJ', mode: 'direct', customer: { phone: '+2290197000000' }, operator: 'mtn_bj' },
    save: { pendingPaymentId: 'body.id' },
  },
  { op: 'cancelPayment', expect: 200, path: { reference_or_id: '{{pendingPaymentId}}' } },
  {
    op: 'createPayment',
    name: 'Create a hosted payment',
    expect: 201,
    body: { reference: unique('order-hosted'), amount: 5000, currency: 'XOF', country: 'BJ', mode: 'hosted', description: 'Order paid on the checkout page' },
    save: { hostedPaymentId: 'body.id' },
  },
  { op: 'simulateCheckoutPayment', expect: 200, path: { reference_or_id: '{{hostedPaymentId}}' } },

  { op: 'legacyGetOperatorCatalog', expect: 200 },
  {
    op: 'legacyCreatePayment',
    expect: 201,
    body: { amount: 500000, phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: unique('order-earlier'), currency: 'XOF', description: 'Order 2001' },
    save: { legacyReference: 'body.reference' },
  },
  { op: 'legacyGetPayment', expect: 200, path: { reference: '{{legacyReference}}' } },
  {
    op: 'legacyCreatePayment',
    name: 'Create a payment that waits for an OTP (earlier contract)',
    expect: 201,
    body: { amount: 500000, phone: '0707000000', country: 'CI', operator: 'orange_ci', reference: unique('order-earlier-otp'), currency: 'XOF' },
    save: { legacyOtpReference: 'body.reference' },
  },
  { op: 'legacyConfirmPayment', expect: 200, body: { reference: '{{legacyOtpReference}}', otp: '123456' } },

  { op: 'getPayoutOperatorCatalog', expect: 200 },
  {
    op: 'createPayout',
    expect: 201,
    body: {
      amount: 2500000,
      phone: '+22890112233',
      country: 'TG',
      operator: 'tmoney_tg',
      reference: unique('salary'),
      recipient_first_name: 'Afi',
      recipient_last_name: 'Mensah',
      description: 'June salary',
    },
    save: { payoutReference: 'body.reference' },
  },
  { op: 'listPayouts', expect: 200 },
  { op: 'getPayout', expect: 200, path: { reference: '{{payoutReference}}' } },

  { op: 'getBulkPaymentTemplate', expect: 200 },
  { op: 'createBulkPayment', expect: 201, save: { batchId: 'body.id' } },
  { op: 'listBulkPayments', expect: 200 },
  { op: 'getBulkPayment', expect: 200, path: { id: '{{batchId}}' } },
  { op: 'listBulkPaymentItems', expect: 200, path: { id: '{{batchId}}' } },
  { op: 'validateBulkPayment', expect: 200, path: { id: '{{batchId}}' } },
  { op: 'importBulkPaymentCsv', expect: 201, query: { name: 'June salaries (CSV)' }, save: { importedBatchId: 'body.id' } },
  { op: 'cancelBulkPayment', expect: 200, path: { id: '{{importedBatchId}}' } },

  { op: 'createPaymentLink', expect: 201, save: { paymentLinkId: 'body.id' } },
  { op: 'listPaymentLinks', expect: 200 },
  { op: 'getPaymentLink', expect: 200, path: { id: '{{paymentLinkId}}' } },
  { op: 'updatePaymentLink', expect: 200, path: { id: '{{paymentLinkId}}' } },
  { op: 'getPaymentLinkQrSvg', expect: 200, path: { id: '{{paymentLinkId}}' } },
  { op: 'getPaymentLinkQrPng', expect: 200, path: { id: '{{paymentLinkId}}' } },
  { op: 'deactivatePaymentLink', expect: 200, path: { id: '{{paymentLinkId}}' } },

  { op: 'getBalances', expect: 200 },
  { op: 'listBalanceTransactions', expect: 200 },
  {
    op: 'createTransfer',
    expect: 201,
    body: { receiver: '{{merchantId}}', amount_minor: 100000, currency: 'XOF', reference: unique('supplier'), description: 'June delivery' },
    save: { transferId: 'body.id' },
  },
  { op: 'listTransfers', expect: 200 },
  { op: 'getTransfer', expect: 200, path: { id: '{{transferId}}' } },

  { op: 'createSettlementAccount', expect: 201, save: { settlementAccountId: 'body.id' } },
  { op: 'listSettlementAccounts', expect: 200 },
  { op: 'getSettlementAccount', expect: 200, path: { id: '{{settlementAccountId}}' } },
  { op: 'updateSettlementAccount', expect: 200, path: { id: '{{settlementAccountId}}' }, body: { description: 'Main MTN wallet (renamed)' } },
  { op: 'listSettlementSchedules', expect: 200 },
  { op: 'getSettlementSchedule', expect: 200, path: { currency: 'XOF' } },
  {
    op: 'putSettlementSchedule',
    expect: 200,
    path: { currency: 'XOF' },
    body: { interval: 'weekly', anchor: 5, settlement_account: '{{settlementAccountId}}', minimum_minor: 500000, reserve_minor: 0 },
  },
  {
    op: 'createSettlement',
    expect: 201,
    body: { settlement_account: '{{settlementAccountId}}', currency: 'XOF', amount_minor: 100000, reference: unique('settle') },
    save: { settlementId: 'body.id' },
  },
  { op: 'listSettlements', expect: 200 },
  { op: 'getSettlement', expect: 200, path: { id: '{{settlementId}}' } },
  { op: 'getSettlementStatement', expect: 200, path: { id: '{{settlementId}}' } },
  { op: 'getSettlementStatementCsv', expect: 200, path: { id: '{{settlementId}}' } },

  { op: 'exportPayments', expect: 200 },
  { op: 'exportPayouts', expect: 200 },
  { op: 'exportBalanceTransactions', expect: 200 },
  { op: 'exportBatchLines', expect: 200 },

  { op: 'createWebhookEndpoint', expect: 201, save: { webhookEndpointId: 'body.id' } },
  { op: 'listWebhookEndpoints', expect: 200 },
  { op: 'getWebhookEndpoint', expect: 200, path: { id: '{{webhookEndpointId}}' } },
  { op: 'updateWebhookEndpoint', expect: 200, path: { id: '{{webhookEndpointId}}' } },
  { op: 'getWebhookEndpointSecret', expect: 200, path: { id: '{{webhookEndpointId}}' } },
  { op: 'rotateWebhookEndpointSecret', expect: 200, path: { id: '{{webhookEndpointId}}' } },
  { op: 'listWebhookEndpointDeliveries', expect: 200, path: { id: '{{webhookEndpointId}}' } },

  { op: 'listEvents', expect: 200, save: { eventId: 'body.data[0].id' } },
  { op: 'getEvent', expect: 200, path: { id: '{{eventId}}' } },
  { op: 'resendEvent', expect: 202, path: { id: '{{eventId}}' } },
  { op: 'deleteWebhookEndpoint', expect: 200, path: { id: '{{webhookEndpointId}}' } },
  { op: 'removeSettlementAccount', expect: 200, path: { id: '{{settlementAccountId}}' } },

  // The dashboard, on the signed-in user's own merchant.
  { op: 'dashboardOverview', expect: 200, path: { merchantId: '{{merchantId}}' } },
  { op: 'dashboardListMembers', expect: 200, path: { merchantId: '{{merchantId}}' } },
  {
    op: 'dashboardInvite',
    expect: 202,
    path: { merchantId: '{{merchantId}}' },
    body: { email: 'invited-{{$timestamp}}@example.com', role: 'finance' },
  },
  { op: 'dashboardListInvitations', expect: 200, path: { merchantId: '{{merchantId}}' }, query: { status: 'pending' }, save: { invitationId: 'body.data[0].id' } },
  { op: 'dashboardRevokeInvitation', expect: 200, path: { merchantId: '{{merchantId}}', invitationId: '{{invitationId}}' } },
  { op: 'dashboardListApiKeys', expect: 200, path: { merchantId: '{{merchantId}}' } },
  { op: 'dashboardCreateApiKey', expect: 201, path: { merchantId: '{{merchantId}}' }, save: { keyId: 'body.id' } },
  { op: 'dashboardRevokeApiKey', expect: 200, path: { merchantId: '{{merchantId}}', keyId: '{{keyId}}' } },
  { op: 'dashboardListWebhookEndpoints', expect: 200, path: { merchantId: '{{merchantId}}' } },
  { op: 'dashboardCreateWebhookEndpoint', expect: 201, path: { merchantId: '{{merchantId}}' }, save: { dashboardEndpointId: 'body.id' } },
  // Before the update below, which disables the endpoint (a disabled endpoint takes no sample event).
  { op: 'dashboardSendTestEvent', expect: 202, path: { merchantId: '{{merchantId}}', id: '{{dashboardEndpointId}}' }, save: { dashboardEventId: 'body.event_id' } },
  { op: 'dashboardListEventDeliveries', expect: 200, path: { merchantId: '{{merchantId}}', eventId: '{{dashboardEventId}}' } },
  { op: 'dashboardResendEvent', expect: 202, path: { merchantId: '{{merchantId}}', eventId: '{{dashboardEventId}}' }, body: { endpoint_id: '{{dashboardEndpointId}}' } },
  { op: 'dashboardUpdateWebhookEndpoint', expect: 200, path: { merchantId: '{{merchantId}}', id: '{{dashboardEndpointId}}' } },
  { op: 'dashboardRotateWebhookEndpointSecret', expect: 200, path: { merchantId: '{{merchantId}}', id: '{{dashboardEndpointId}}' } },
  { op: 'dashboardListWebhookDeliveries', expect: 200, path: { merchantId: '{{merchantId}}', id: '{{dashboardEndpointId}}' } },
  { op: 'dashboardListAuditLog', expect: 200, path: { merchantId: '{{merchantId}}' } },
  { op: 'dashboardGetApprovalPolicy', expect: 200, path: { merchantId: '{{merchantId}}' } },
  // No thresholds: approvals stay off (they only ever hold live money-out).
  { op: 'dashboardSetApprovalPolicy', expect: 200, path: { merchantId: '{{merchantId}}' }, body: { thresholds: [] } },
  { op: 'dashboardListApprovals', expect: 200, path: { merchantId: '{{merchantId}}' } },
  { op: 'dashboardGetKyc', expect: 200, path: { merchantId: '{{merchantId}}' } },
  // Public: a new account (its verification link is mailed) and a reset link for the tour's user.
  {
    op: 'dashboardSignUp',
    expect: 202,
    body: { email: 'new-owner-{{$timestamp}}@example.com', password: 'correct horse battery staple', name: 'Awa Koffi', merchant_name: 'Boulangerie Sainte-Rita' },
  },
  { op: 'dashboardPasswordResetRequest', expect: 202, body: { email: '{{dashboardEmail}}' } },
  // Last: every session of the tour's user ends, this one included.
  { op: 'dashboardSignOutEverywhere', expect: 204 },
];
