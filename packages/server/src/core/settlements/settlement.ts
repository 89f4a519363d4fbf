import type { Currency } from '../catalog/operator-catalog.js';
import type { Environment } from '../shared/environment.js';
import type { FailureCode } from '../shared/failure-codes.js';
import type { Metadata } from '../shared/metadata.js';
import type { SettlementAccountKind } from './settlement-account.js';

/**
 * `pending`: made, its amount reserved (a wallet one waits for its payout's hand-off, a bank one for
 * an administrator); `in_transit`: the operator took the wallet payout; then `paid` or `failed`
 * (the reservation goes back to the available balance). Final statuses never change.
 */
export const settlementStatuses = ['pending', 'in_transit', 'paid', 'failed'] as const;
export type SettlementStatus = (typeof settlementStatuses)[number];

export function isFinalSettlement(status: SettlementStatus): boolean {
  return status === 'paid' || status === 'failed';
}

export type SettlementOrigin = 'api' | 'schedule';

/** Where the money went, as the settlement account was when the settlement was made. */
export type SettlementDestination =
  | { kind: 'wallet'; country: string; operator: string; phone: string; holderName: string }
  | { kind: 'bank'; country: string; iban: string; bankName: string | null; holderName: string };

/**
 * Money moved from a merchant's available balance to its own settlement account (docs/settlements.md).
 * `amountMinor` leaves the balance; the destination receives `amountMinor - feeMinor`.
 */
export interface Settlement {
  id: string;
  merchantId: string;
  environment: Environment;
  reference: string;
  accountId: string;
  kind: SettlementAccountKind;
  status: SettlementStatus;
  origin: SettlementOrigin;
  amountMinor: number;
  feeMinor: number;
  currency: Currency;
  /** 1, 2, 3… per merchant, environment and currency, in commit order. */
  sequence: number;
  destination: SettlementDestination;
  /** The payout sending a wallet settlement (the same id as the settlement). */
  payoutId: string | null;
  /** The bank's reference of a bank settlement's transfer, recorded when it is marked paid. */
  bankReference: string | null;
  failureCode: FailureCode | null;
  failureMessage: string | null;
  /** The statement's frame: balances before its first covered transaction and after its own reservation. */
  openingAvailableMinor: number;
  closingAvailableMinor: number;
  openingReservedMinor: number;
  closingReservedMinor: number;
  description: string | null;
  metadata: Metadata;
  createdAt: string;
  updatedAt: string;
  /** When it became paid or failed. */
  settledAt: string | null;
  version: number;
}
