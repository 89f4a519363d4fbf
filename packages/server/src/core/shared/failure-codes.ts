/**
 * Why a payment (and, later, a payout) did not complete: one machine-readable code beside the
 * human `message` (docs/failure-codes.md). The list is closed; a new code is an API change.
 */
export const failureCodes = {
  payer_not_found: 'The phone number has no wallet with this operator.',
  insufficient_funds: 'The wallet does not hold enough money.',
  payer_declined: 'The customer refused or cancelled the request on the phone.',
  payer_limit_reached: 'The wallet reached a daily, monthly or balance limit.',
  operator_declined: 'The operator refused the transaction without a more precise reason.',
  timeout: 'The operator or the customer did not answer in time.',
  operator_unavailable: 'The operator could not be reached or is in maintenance.',
  otp_failed: 'The one-time code was wrong too many times, or refused.',
  expired: 'The payment expired before it was paid.',
  cancelled_by_merchant: 'The merchant cancelled the payment.',
  bank_rejected: 'The bank refused or returned the transfer of a bank settlement.',
} as const;

export type FailureCode = keyof typeof failureCodes;

export const failureCodeList = Object.keys(failureCodes) as FailureCode[];

export function isFailureCode(value: string): value is FailureCode {
  return Object.hasOwn(failureCodes, value);
}
