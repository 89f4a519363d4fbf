import type { CountryCode, Currency } from '../catalog/operator-catalog.js';
import type { Environment } from '../shared/environment.js';
import type { FailureCode } from '../shared/failure-codes.js';
import type { Metadata } from '../shared/metadata.js';

/** The payout contract's statuses (uppercase in the payout contract). */
export const payoutStatuses = ['PENDING', 'PROCESSING', 'COMPLETED', 'FAILED', 'CANCELLED'] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];

export const finalPayoutStatuses: readonly PayoutStatus[] = ['COMPLETED', 'FAILED', 'CANCELLED'];

export function isFinalPayout(status: PayoutStatus): boolean {
  return finalPayoutStatuses.includes(status);
}

/**
 * Money sent to a beneficiary's wallet. Amounts are centimes; `feeMinor` is reserved with the
 * amount and charged when the payout completes.
 */
export interface Payout {
  id: string;
  merchantId: string;
  environment: Environment;
  reference: string;
  status: PayoutStatus;
  amountMinor: number;
  feeMinor: number;
  currency: Currency;
  country: CountryCode;
  operator: string;
  /** E.164. */
  phone: string;
  recipientFirstName: string | null;
  recipientLastName: string | null;
  description: string | null;
  pspReference: string | null;
  message: string | null;
  failureCode: FailureCode | null;
  metadata: Metadata;
  /**
   * The recovery point of the hand-off: set in the transaction before the operator is called,
   * cleared with the answer. Still set after its lease means the worker that called is gone, and
   * the operator must be asked about our reference before anything is sent again.
   */
  handoffStartedAt: string | null;
  /** Whether the operator ever took it (a hand-off answered): only then is a status query meaningful. */
  handedOff: boolean;
  /** When the worker next asks the operator about a payout in PROCESSING. */
  nextCheckAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
  /**
   * The route of its operator chosen when the payout was accepted (OPERATORS_FILE, e.g. `mtn-momo`):
   * its hand-off and every status check go there. Null or absent: made before routes were recorded
   * (the operator's first route).
   */
  route?: string | null;
  /** Set on the payout that sends a wallet settlement (its id): its postings are booked as the settlement's. */
  settlementId?: string;
  /** When the last send to the operator began; null (or absent) before the first. */
  sentAt?: string | null;
}

/** What an operator answered about a payout. */
export interface PayoutAnswer {
  status: 'PROCESSING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
  pspReference?: string;
  message?: string;
  failureCode?: FailureCode;
  /** The operator reversed the payout after it completed: the money went back to the sender's wallet. */
  reversed?: boolean;
}
