/**
 * Everything FedaPay says about a transaction or a payout, mapped in one place: its statuses to
 * ours, and its error codes to our closed failure_code catalogue. A status this table does not
 * know is not guessed at: the answer is unreadable and the outcome stays unknown (asked again).
 */
import type { PaymentStatus } from '../../core/payments/payment.js';
import type { PayoutAnswer } from '../../core/payouts/payout.js';
import type { FailureCode } from '../../core/shared/failure-codes.js';

export interface TransactionMeaning {
  /** The statuses our payment goes through, in order. */
  path: PaymentStatus[];
  /** For a failed path without a more precise error code. */
  failureCode?: FailureCode;
  describe: string;
}

/** FedaPay transaction status -> our payment. Every paid status (even refunded since) is completed: the money moved. */
export const transactionStatuses: Readonly<Record<string, TransactionMeaning>> = {
  pending: { path: ['processing'], describe: 'waiting for the customer to approve' },
  approved: { path: ['processing', 'completed'], describe: 'the customer paid' },
  transferred: { path: ['processing', 'completed'], describe: 'paid, and transferred to the account' },
  refunded: { path: ['processing', 'completed'], describe: 'paid, then refunded in FedaPay' },
  approved_partially_refunded: { path: ['processing', 'completed'], describe: 'paid, then partly refunded in FedaPay' },
  transferred_partially_refunded: { path: ['processing', 'completed'], describe: 'paid, then partly refunded in FedaPay' },
  declined: { path: ['processing', 'failed'], failureCode: 'operator_declined', describe: 'declined' },
  canceled: { path: ['processing', 'failed'], failureCode: 'payer_declined', describe: 'canceled' },
  expired: { path: ['processing', 'failed'], failureCode: 'expired', describe: 'expired before it was paid' },
};

/** FedaPay payout status -> our payout status. */
export const payoutStatuses: Readonly<Record<string, { status: PayoutAnswer['status']; failureCode?: FailureCode; describe: string }>> = {
  pending: { status: 'PROCESSING', describe: 'created, not started yet' },
  scheduled: { status: 'PROCESSING', describe: 'scheduled' },
  started: { status: 'PROCESSING', describe: 'started' },
  processing: { status: 'PROCESSING', describe: 'in progress' },
  sent: { status: 'COMPLETED', describe: 'the money reached the wallet' },
  failed: { status: 'FAILED', failureCode: 'operator_declined', describe: 'failed' },
  canceled: { status: 'FAILED', failureCode: 'operator_declined', describe: 'canceled' },
};

/**
 * FedaPay's `last_error_code` -> our failure codes (a declined transaction or failed payout names
 * why). Codes without a closer match, and codes FedaPay adds later, keep the status's own code.
 */
export const fedaPayErrorCodes: Readonly<Record<string, FailureCode>> = {
  insufficient_funds: 'insufficient_funds',
  insufficient_balance: 'insufficient_funds',
  invalid_phone_number: 'payer_not_found',
  account_not_found: 'payer_not_found',
  limit_exceeded: 'payer_limit_reached',
  rejected_by_customer: 'payer_declined',
  timeout: 'timeout',
  operator_unavailable: 'operator_unavailable',
  service_unavailable: 'operator_unavailable',
};

export function failureFor(errorCode: string | null | undefined, fallback: FailureCode): FailureCode {
  return (errorCode && Object.hasOwn(fedaPayErrorCodes, errorCode) && fedaPayErrorCodes[errorCode]) || fallback;
}
