/**
 * Everything pawaPay says, mapped to our terms in one place (docs/operators.md shows the tables):
 * its failure codes to our closed `failure_code` catalogue, and its transaction statuses to ours.
 * A code this table does not know is `operator_declined` (still a failure, never an exception).
 */
import type { FailureCode } from '../../core/shared/failure-codes.js';

/** pawaPay failure codes (initiation rejections and final failures, v2) -> our failure codes. */
export const pawapayFailureCodes: Readonly<Record<string, FailureCode>> = {
  // The wallet: who it is, what it holds, what it may do.
  PAYER_NOT_FOUND: 'payer_not_found',
  RECIPIENT_NOT_FOUND: 'payer_not_found',
  INVALID_PHONE_NUMBER: 'payer_not_found',
  INSUFFICIENT_BALANCE: 'insufficient_funds',
  PAYER_LIMIT_REACHED: 'payer_limit_reached',
  WALLET_LIMIT_REACHED: 'payer_limit_reached',
  RECIPIENT_NOT_ALLOWED_TO_RECEIVE: 'payer_limit_reached',
  // The customer said no (or let the prompt lapse).
  PAYMENT_NOT_APPROVED: 'payer_declined',
  // pawaPay or the provider could not take it now.
  PROVIDER_TEMPORARILY_UNAVAILABLE: 'operator_unavailable',
  UNABLE_TO_PROCESS: 'operator_unavailable',
  // Refusals of the request itself, and failures without a precise reason.
  PAYMENT_IN_PROGRESS: 'operator_declined',
  TRANSACTION_ALREADY_IN_PROCESS: 'operator_declined',
  MANUALLY_CANCELLED: 'operator_declined',
  UNSPECIFIED_FAILURE: 'operator_declined',
  UNKNOWN_ERROR: 'operator_declined',
  OTHER_ERROR: 'operator_declined',
  AMOUNT_OUT_OF_BOUNDS: 'operator_declined',
  INVALID_AMOUNT: 'operator_declined',
  INVALID_CURRENCY: 'operator_declined',
  INVALID_PROVIDER: 'operator_declined',
  DEPOSITS_NOT_ALLOWED: 'operator_declined',
  PAYOUTS_NOT_ALLOWED: 'operator_declined',
  REFUNDS_NOT_ALLOWED: 'operator_declined',
  DEPOSIT_NOT_FOUND: 'operator_declined',
  DEPOSIT_NOT_COMPLETED: 'operator_declined',
  ALREADY_REFUNDED: 'operator_declined',
  INVALID_INPUT: 'operator_declined',
  MISSING_PARAMETER: 'operator_declined',
  UNSUPPORTED_PARAMETER: 'operator_declined',
  INVALID_PARAMETER: 'operator_declined',
  DUPLICATE_METADATA_FIELD: 'operator_declined',
};

/**
 * A pre-authorised deposit (Orange Côte d'Ivoire) asks nothing on the phone: "not approved" there
 * means the customer's code was refused.
 */
export function failureFor(code: string | undefined, options: { preAuthorised?: boolean } = {}): FailureCode {
  if (options.preAuthorised && code === 'PAYMENT_NOT_APPROVED') return 'otp_failed';
  return (code !== undefined && pawapayFailureCodes[code]) || 'operator_declined';
}

/** What pawaPay's answer to a POST says happened to our id. */
export type InitiationStatus = 'ACCEPTED' | 'REJECTED' | 'DUPLICATE_IGNORED';

/**
 * A transaction's status in a status check or a callback, read as three: still moving (ACCEPTED,
 * SUBMITTED, ENQUEUED, PROCESSING, and IN_RECONCILIATION, which pawaPay settles itself), or final.
 */
export type TransactionState = 'moving' | 'completed' | 'failed';

export const pawapayTransactionStates: Readonly<Record<string, TransactionState>> = {
  ACCEPTED: 'moving',
  SUBMITTED: 'moving',
  ENQUEUED: 'moving',
  PROCESSING: 'moving',
  IN_RECONCILIATION: 'moving',
  COMPLETED: 'completed',
  FAILED: 'failed',
};
