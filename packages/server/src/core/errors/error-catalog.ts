/**
 * The one catalog of error codes (PRODUCT.md "Errors"). Every error the API returns comes from here,
 * so the docs and the OpenAPI document list exactly what the code can send.
 * `status` is the HTTP status the edge uses; the core only ever names the code.
 */
export const errorCatalog = {
  validation_error: { status: 400, message: 'The request is not valid.' },
  invalid_json: { status: 400, message: 'The request body is not valid JSON.' },
  invalid_operator: { status: 400, message: 'Country or operator not supported; consult the operator catalog.' },
  invalid_phone: { status: 400, message: 'Phone number is not valid for the country.' },
  unsupported_currency: { status: 400, message: 'Currency not supported in this country.' },
  amount_too_low: { status: 400, message: 'Amount is below the minimum.' },
  amount_too_high: { status: 400, message: 'Amount is above the operator’s maximum.' },
  missing_idempotency_key: { status: 400, message: 'The Idempotency-Key header is required.' },
  invalid_idempotency_key: { status: 400, message: 'The Idempotency-Key header is too long or has characters outside printable ASCII.' },
  invalid_otp: { status: 400, message: 'The one-time code is not valid.' },
  operator_unavailable: { status: 502, message: 'The operator cannot be reached for this payment; nothing was charged.' },
  unauthenticated: { status: 401, message: 'API key missing, invalid or revoked.' },
  insufficient_scope: { status: 403, message: 'The API key lacks the scope this operation needs.' },
  merchant_not_found: { status: 403, message: 'No merchant found for this API key.' },
  kyc_required: { status: 403, message: 'This operation needs a merchant whose KYC is validated.' },
  account_inactive: { status: 403, message: 'The merchant account is suspended.' },
  not_found: { status: 404, message: 'Not found.' },
  route_not_found: { status: 404, message: 'No such route.' },
  method_not_allowed: { status: 405, message: 'Method not allowed on this route.' },
  duplicate_reference: { status: 409, message: 'A payment with this reference exists already.' },
  idempotency_request_in_progress: { status: 409, message: 'A request with this Idempotency-Key is still being processed; retry shortly.' },
  invalid_state_transition: { status: 409, message: 'The payment is not in a state that allows this operation.' },
  payment_not_confirmable: { status: 409, message: 'The payment is not awaiting a one-time code.' },
  payment_not_cancellable: { status: 409, message: 'The payment has a final status and cannot be cancelled.' },
  payment_not_refundable: { status: 409, message: 'Only a completed payment can be refunded.' },
  payment_not_payable: { status: 409, message: 'The payment is not awaiting payment on its checkout page.' },
  refund_exceeds_amount: { status: 409, message: 'The refund is larger than what is left to refund.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'Unsupported Content-Type; send application/json.' },
  idempotency_key_reused: { status: 422, message: 'This Idempotency-Key was used with a different request body.' },
  rate_limited: { status: 429, message: 'Too many requests; retry after the time in Retry-After.' },
  internal_error: { status: 500, message: 'Internal server error.' },
  service_unavailable: { status: 503, message: 'The service is not ready.' },
  sandbox_only: { status: 403, message: 'This operation exists only in the test environment.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalog;
