/**
 * The one catalog of error codes. Every error the API returns comes from here,
 * so the docs and the OpenAPI document list exactly what the code can send.
 * `status` is the HTTP status the edge uses; the core only ever names the code. `message` is the
 * default message (what it means), `action` what the caller should do: both are shown by the error
 * reference page (GET /docs/errors) that every error body's `doc_url` points to.
 */
export const errorCatalog = {
  validation_error: {
    status: 400,
    message: 'The request is not valid.',
    action:
      "Fix the field named in `field` (every problem is in `details`) and send the request again. A body the schema refuses is not kept under its Idempotency-Key, so the corrected request may reuse the key; a bulk batch refused for its lines' problems needs a new key.",
  },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.', action: 'Send a JSON object as the body with `Content-Type: application/json`.' },
  invalid_operator: {
    status: 400,
    message: 'Country or operator not supported; consult the operator catalog.',
    action: 'Use an operator slug (or alias) that the catalog lists for the country: GET /api/v1/collect/payments/operators/ or /api/v1/payout/operators/.',
  },
  invalid_phone: {
    status: 400,
    message: 'Phone number is not valid for the country.',
    action: "Send the wallet number in the country's national format or in E.164 (+229…); Benin numbers have 10 digits starting with 01.",
  },
  unsupported_currency: {
    status: 400,
    message: 'Currency not supported in this country.',
    action: "Send the currency the country accepts (the message names it; BJ, TG and CI take XOF), or leave currency out to use the country's default.",
  },
  amount_too_low: {
    status: 400,
    message: 'Amount is below the minimum.',
    action:
      'Check the unit first: the current collect contract (and its refunds) speaks major units (FCFA), payouts, bulk lines and the earlier collect contract speak centimes (100 FCFA = 10000). Then send at least the minimum the message names.',
  },
  amount_too_high: {
    status: 400,
    message: 'Amount is above the operator’s maximum.',
    action:
      'Check the unit (major units for current collect, centimes for payouts, bulk and the earlier contract), then send at most the maximum the message names, or split the amount.',
  },
  missing_idempotency_key: {
    status: 400,
    message: 'The Idempotency-Key header is required.',
    action: 'Send an `Idempotency-Key` header (any unique string up to 255 printable ASCII characters, a UUID for instance) and reuse it when you retry the same request.',
  },
  invalid_idempotency_key: {
    status: 400,
    message: 'The Idempotency-Key header is too long or has characters outside printable ASCII.',
    action: 'Use 1 to 255 printable ASCII characters (128 on the earlier collect contract).',
  },
  operator_required: {
    status: 400,
    message: 'No operator was given, and none can be predicted from the phone number.',
    action: "Give the line's `operator`, or a phone number whose prefix tells the operator (POST /api/v1/operators/predict shows what is predicted).",
  },
  refund_not_supported: {
    status: 400,
    message: 'The payment’s operator takes no refunds through Akwe; refund the customer another way.',
    action: 'Refund the customer outside Akwe; nothing was charged or reserved.',
  },
  invalid_cursor: {
    status: 400,
    message: 'The cursor is not an object id this list can start from (starting_after / ending_before take the id of an object of the list).',
    action: 'Pass the id of an object of the same list in `starting_after` / `ending_before`, or start again without a cursor.',
  },
  invalid_otp: {
    status: 400,
    message: 'The one-time code is not valid.',
    action: 'Ask the customer for the code again; after three wrong codes the payment fails. In test, 123456 completes, 000000 fails, 111111 stays pending.',
  },
  malformed_request: { status: 400, message: 'The request is not valid HTTP.', action: 'Send a well-formed HTTP/1.1 request; this usually means a broken client or proxy.' },
  operator_unavailable: {
    status: 503,
    message: 'The operator cannot be reached for this payment; nothing was charged.',
    action: "Try again later or with another operator; the catalog's `status` shows each operator's availability. Nothing was written.",
  },
  operator_outcome_unknown: {
    status: 502,
    message: 'The operator did not answer; the outcome is not known yet. Retry with the same Idempotency-Key, or read the payment later.',
    action: 'Retry with the same Idempotency-Key, or read the payment later; never create a second payment for the same order.',
  },
  unauthenticated: {
    status: 401,
    message: 'API key missing, invalid or revoked.',
    action:
      'Send a valid API key as `Authorization: Bearer <key>` or `X-API-Key: <key>`; keys look like `ak_test_…` or `ak_live_…`. A revoked key must be replaced by a new one from the dashboard or `akwe keys create`.',
  },
  insufficient_scope: {
    status: 403,
    message: 'The API key lacks the scope this operation needs.',
    action: 'Use a key with the scope the message names, or create one with that scope (an empty scope list grants everything).',
  },
  merchant_not_found: { status: 403, message: 'No merchant found for this API key.', action: "The key's merchant no longer exists; use a key of an existing merchant." },
  kyc_required: {
    status: 403,
    message: 'This operation needs a merchant whose KYC is validated.',
    action: "Complete the merchant's KYC; in the meantime the test environment (an `ak_test_…` key) works without it.",
  },
  account_inactive: { status: 403, message: 'The merchant account is suspended.', action: 'Contact the platform administrator to reactivate the merchant account.' },
  not_found: {
    status: 404,
    message: 'Not found.',
    action:
      "Check the id or reference and the key's environment: a test key sees only test objects, a live key only live ones (the message says when the object exists in the other one).",
  },
  route_not_found: { status: 404, message: 'No such route.', action: 'Check the path against the API reference (/docs); paths start with /api/v1.' },
  method_not_allowed: { status: 405, message: 'Method not allowed on this route.', action: 'Use one of the methods listed in the `Allow` header.' },
  request_timeout: { status: 408, message: 'The request took too long to arrive.', action: "Send the whole request promptly; check the client's network." },
  duplicate_reference: {
    status: 409,
    message: 'A payment with this reference exists already.',
    action: 'Use a new reference for a new order, or read the existing object by its reference.',
  },
  idempotency_request_in_progress: {
    status: 409,
    message: 'A request with this Idempotency-Key is still being processed; retry shortly.',
    action: 'Wait for the time in `Retry-After`, then retry with the same key and body.',
  },
  operator_call_in_progress: {
    status: 409,
    message: 'An operator call for this payment is in progress; retry shortly.',
    action: "Wait a moment and retry; the first call's result will be on the payment.",
  },
  invalid_state_transition: {
    status: 409,
    message: 'The payment is not in a state that allows this operation.',
    action: "Read the payment's status; the operation is allowed only in the states the API reference names.",
  },
  payment_not_confirmable: { status: 409, message: 'The payment is not awaiting a one-time code.', action: 'Confirm only a payment whose status is `awaiting_otp`.' },
  payment_not_cancellable: {
    status: 409,
    message: 'The payment has a final status and cannot be cancelled.',
    action: 'Nothing to do: the payment is final. Refund it if it is `completed`.',
  },
  payment_not_refundable: { status: 409, message: 'Only a completed payment can be refunded.', action: 'Refund only a `completed` payment.' },
  payment_not_payable: {
    status: 409,
    message: 'The payment is not awaiting payment on its checkout page.',
    action: 'Pay only a hosted payment whose status is `awaiting_payment`.',
  },
  endpoint_limit_reached: {
    status: 409,
    message: 'The merchant has as many webhook endpoints in this environment as allowed.',
    action: 'Delete an endpoint you no longer use, or subscribe an existing one to more event types.',
  },
  refund_exceeds_amount: {
    status: 409,
    message: 'The refund is larger than what is left to refund.',
    action: "Refund at most what is left (the payment's amount minus `refunded_amount`).",
  },
  payload_too_large: { status: 413, message: 'The request body is too large.', action: 'Send a smaller body; split a bulk batch in several.' },
  unsupported_media_type: {
    status: 415,
    message: 'Unsupported Content-Type; send application/json.',
    action: 'Send `Content-Type: application/json` (bulk CSV imports: `text/csv` or `multipart/form-data`).',
  },
  insufficient_balance: {
    status: 422,
    message: 'The available balance cannot cover this operation and its fee.',
    action: 'Wait for collections or a transfer to raise the available balance, or pay less.',
  },
  transfer_to_self: {
    status: 422,
    message: 'A transfer cannot be sent to the merchant sending it.',
    action: "Name another merchant's id as `receiver`; your own money needs no transfer.",
  },
  unknown_receiver: {
    status: 422,
    message: 'No merchant has this id.',
    action: 'Ask the receiving merchant for the `merchant_id` that GET /api/v1/account shows it, and send it as `receiver`.',
  },
  receiver_inactive: {
    status: 422,
    message: 'The receiving merchant is suspended and cannot receive transfers.',
    action: 'Settle with the merchant another way, or wait until its account is reactivated.',
  },
  transfer_limit_exceeded: {
    status: 422,
    message: 'The transfer is above the largest amount one transfer may move.',
    action: 'Send at most the limit the message names (centimes), or split the amount over several transfers within the daily limit.',
  },
  daily_transfer_limit_exceeded: {
    status: 422,
    message: "The transfer would take today's transfers above the daily limit.",
    action: 'Send at most what the message says is left today, or wait for the next UTC day.',
  },
  payment_link_inactive: {
    status: 409,
    message: 'The payment link is deactivated, expired or used up, and takes no more payments or changes.',
    action: 'Read the link (its `status` says why); create a new payment link if you still want to be paid this way.',
  },
  payment_link_in_use: {
    status: 409,
    message: 'Every use of the payment link is held by a payment still under way; nothing was created.',
    action: 'Wait for that payment to finish: if it fails, expires or is cancelled, the link takes a payment again; if it completes, the link is used up.',
  },
  settlement_account_cooling: {
    status: 409,
    message: 'The settlement account was created or changed recently and is not usable yet.',
    action: 'Wait until the `usable_from` instant the message names (the cooling period protects you from a stolen key redirecting funds), then settle again.',
  },
  settlement_account_removed: {
    status: 409,
    message: 'The settlement account was removed and cannot receive settlements.',
    action: 'Register a settlement account and settle to it once its cooling period is over.',
  },
  settlement_currency_mismatch: {
    status: 422,
    message: "The settlement's currency is not the settlement account's.",
    action: 'Settle the currency of the account (its `currency`), or register an account in the currency to settle.',
  },
  nothing_to_settle: {
    status: 422,
    message: 'The available balance is zero: there is nothing to settle.',
    action: 'Wait for collections to raise the available balance.',
  },
  invalid_iban: {
    status: 400,
    message: 'The IBAN (or UEMOA RIB) is not valid.',
    action:
      'Send the IBAN as your bank writes it (spaces allowed): the country code, two check digits and the account number; a 24-character UEMOA RIB is accepted with `country`.',
  },
  idempotency_key_reused: {
    status: 422,
    message: 'This Idempotency-Key was used with a different request body.',
    action: 'Use a new Idempotency-Key for a different request; reuse a key only to retry the very same body.',
  },
  rate_limited: {
    status: 429,
    message: 'Too many requests; retry after the time in Retry-After.',
    action: 'Wait for the seconds in `Retry-After`, then retry; spread requests over time.',
  },
  too_many_event_streams: {
    status: 429,
    message: 'Too many event streams are open for this API key or its merchant.',
    action:
      'Close a stream you no longer read (each `akwe listen` holds one), then retry after the seconds in `Retry-After`; the caps are EVENT_STREAM_MAX_PER_KEY (20) and EVENT_STREAM_MAX_PER_MERCHANT (100) per server process.',
  },
  headers_too_large: { status: 431, message: 'The request headers are too large (16 KB in all at most).', action: 'Send fewer or shorter headers (16 KB in all).' },
  internal_error: { status: 500, message: 'Internal server error.', action: 'Retry later (with the same Idempotency-Key on a POST); if it persists, report the `request_id`.' },
  payout_failed: {
    status: 500,
    message: 'The payout request failed before it could be answered. Retry with the same Idempotency-Key: it answers the payout if it was recorded, and never sends one twice.',
    action: 'Retry with the same Idempotency-Key (never a new one): a payout that was recorded is answered as it is, one that was not is made once.',
  },
  service_unavailable: { status: 503, message: 'The service is not ready.', action: 'Retry later; the server is starting or stopping.' },
  sandbox_only: {
    status: 403,
    message: 'This operation exists only in the test environment.',
    action: 'Use a test key (`ak_test_…`); this operation simulates a customer and has no live counterpart.',
  },
  // The dashboard API (/api/v1/dashboard, docs/dashboard.md).
  invalid_environment: {
    status: 400,
    message: 'X-Service-Environment must be test or live.',
    action: 'Send `X-Service-Environment: test` or `live`, or leave the header out for test.',
  },
  invalid_credentials: {
    status: 401,
    message: 'The email address or the password (or the second-factor code) is not right.',
    action:
      'Check the address and the password and try again; after several failures sign-in is paused for a while (see `Retry-After`). Forgot the password? Ask for a reset link.',
  },
  invalid_session: {
    status: 401,
    message: 'The dashboard session is missing, expired or revoked.',
    action: 'Send the access token as `Authorization: Bearer <token>`; when it has expired, get a new one from POST /api/v1/dashboard/auth/refresh, or sign in again.',
  },
  email_not_verified: {
    status: 403,
    message: 'The email address is not verified yet.',
    action: 'Open the link of the verification email we sent at sign-up, then sign in.',
  },
  insufficient_role: {
    status: 403,
    message: 'Your role in this merchant does not allow this action.',
    action: 'Ask an owner or admin of the merchant for a role that allows it (the roles table is in the dashboard documentation).',
  },
  csrf_token_invalid: {
    status: 403,
    message: 'The CSRF token is missing or does not match the session.',
    action: 'Send the `csrf_token` of the last sign-in or refresh (also in the `akwe_csrf` cookie) as the `X-CSRF-Token` header.',
  },
  invalid_email_token: {
    status: 400,
    message: 'The link is invalid, expired or already used.',
    action: 'Ask for a new link (a new invitation, a new password reset, or sign up again for a verification email).',
  },
  invalid_totp_code: {
    status: 400,
    message: 'The authenticator code is not right.',
    action: 'Enter the current 6-digit code of your authenticator app; check that the device’s clock is right.',
  },
  totp_already_enabled: { status: 409, message: 'Two-factor sign-in is already on.', action: 'Turn it off first (with a current code) to enrol a new device.' },
  totp_not_enabled: { status: 409, message: 'Two-factor sign-in is not on.', action: 'Enrol first (POST /api/v1/dashboard/me/totp), then confirm with a code.' },
  last_owner: {
    status: 409,
    message: 'The merchant would have no owner left.',
    action: 'Make another member owner first, then change or remove this one.',
  },
  already_member: { status: 409, message: 'This person is already a member of the merchant.', action: 'Change their role instead of inviting them again.' },
  approval_required: {
    status: 403,
    message: "Live money-out above the merchant's approval threshold needs a second user's approval.",
    action:
      'From the dashboard, submit it through the approvals routes (POST /api/v1/dashboard/merchants/{merchantId}/approvals/payouts, …/batches, …/transfers, …/settlements or …/refunds); another member with the approver permission then approves it. API keys are not concerned.',
  },
  self_approval_forbidden: {
    status: 403,
    message: 'You cannot approve a request you submitted.',
    action: 'Ask another member of the merchant with the approver permission (owner, admin or finance) to approve it.',
  },
  approval_not_pending: {
    status: 409,
    message: 'This approval request is no longer pending.',
    action: 'Read the request again (GET …/approvals/{id}): it was approved, rejected or executed meanwhile, maybe by another approver.',
  },
  approval_expired: {
    status: 409,
    message: 'This approval request expired before anyone approved it.',
    action: 'Nothing was executed. Submit it again if it is still wanted; a request waits for its approval 72 hours unless the server sets another period.',
  },
  invitation_revoked: { status: 410, message: 'This invitation was revoked.', action: 'Ask a member of the merchant who manages its team for a new invitation.' },
  invitation_expired: {
    status: 410,
    message: 'This invitation expired.',
    action: 'An invitation works for 7 days: ask a member of the merchant who manages its team for a new one.',
  },
  invitation_inviter_not_allowed: {
    status: 410,
    message: 'Whoever sent this invitation is no longer a member of the merchant, or may no longer invite to this role.',
    action: 'Ask a current member of the merchant who manages its team for a new invitation.',
  },
  invitation_not_pending: {
    status: 409,
    message: 'This invitation is no longer pending.',
    action: 'List the invitations again: it was accepted, revoked or expired meanwhile.',
  },
  unsupported_document_type: {
    status: 415,
    message: 'A KYC document is not a PDF, PNG or JPEG file.',
    action: 'Send each document as a PDF, PNG or JPEG file; the type is read from the file’s content, not its name.',
  },
  document_too_large: {
    status: 413,
    message: 'A KYC document is larger than the server accepts.',
    action: 'Send a smaller file (a scan at a lower resolution, or a compressed PDF); the limit is KYC_MAX_DOCUMENT_BYTES, 5 MB by default.',
  },
  too_many_documents: { status: 400, message: 'The KYC submission holds too many documents.', action: 'Send at most 6 documents: one per kind, and a few others.' },
  kyc_under_review: {
    status: 409,
    message: 'A KYC submission of this merchant is under review.',
    action: 'Wait for the review; you may submit again if it is rejected.',
  },
  kyc_already_validated: { status: 409, message: 'The merchant’s KYC is validated already.', action: 'Nothing to submit: live API keys can be created.' },
  kyc_not_under_review: {
    status: 409,
    message: 'This KYC submission has been decided already.',
    action: 'Read the submission again: only a submission in status submitted can be approved or rejected.',
  },
  admin_required: {
    status: 403,
    message: 'This is for the platform’s administrators.',
    action: 'Ask whoever runs the server to grant you the role (`akwe admins grant <email>`).',
  },
  unknown_provider: {
    status: 400,
    message: 'No provider report format by this name.',
    action: 'Name a provider whose report Akwe reads: mtn-momo, wave, orange-money, fedapay or pawapay (docs/operations.md "Reconciliation").',
  },
  invalid_report: {
    status: 400,
    message: 'The provider report cannot be read.',
    action:
      'Send the provider’s report as exported, unchanged (docs/operations.md "Reconciliation" lists each provider’s columns); `details` names each line at fault. Nothing was recorded.',
  },
} as const satisfies Record<string, { status: number; message: string; action: string }>;

export type ErrorCode = keyof typeof errorCatalog;
