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
  missing_idempotency_key: { status: 400, message: 'The Idempotency-Key header is required.' },
  unauthenticated: { status: 401, message: 'API key missing, invalid or revoked.' },
  insufficient_scope: { status: 403, message: 'The API key lacks the scope this operation needs.' },
  merchant_not_found: { status: 403, message: 'No merchant found for this API key.' },
  not_found: { status: 404, message: 'Not found.' },
  route_not_found: { status: 404, message: 'No such route.' },
  method_not_allowed: { status: 405, message: 'Method not allowed on this route.' },
  payload_too_large: { status: 413, message: 'The request body is too large.' },
  unsupported_media_type: { status: 415, message: 'Unsupported Content-Type; send application/json.' },
  rate_limited: { status: 429, message: 'Too many requests; retry after the time in Retry-After.' },
  internal_error: { status: 500, message: 'Internal server error.' },
  service_unavailable: { status: 503, message: 'The service is not ready.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalog;
