import type { Currency, FeeSchedule } from '../catalog/operator-catalog.js';
import { AkweError } from '../errors/index.js';
import type { Environment, TenantScope } from '../shared/environment.js';
import type { Page, PageRequest } from '../shared/pagination.js';

/**
 * The merchant's accounts, per environment and currency (docs/ledger.md). `available` and
 * `reserved` are the merchant's money; the others are the counterparts that make every
 * transaction balance: what operators owe or are owed (`operator_clearing`), what Akwe charged
 * (`fees`), where a test balance's starting float comes from (`sandbox_float`), and the other side
 * of wallet transfers between merchants (`transfer_clearing`: a sender's rises, its receiver's falls).
 */
export const accountKinds = ['available', 'reserved', 'operator_clearing', 'fees', 'sandbox_float', 'transfer_clearing'] as const;
export type AccountKind = (typeof accountKinds)[number];

/** Accounts that can never go below zero (the database holds the line too). */
export const nonNegativeKinds: readonly AccountKind[] = ['available', 'reserved'];

export const balanceTransactionTypes = [
  'sandbox_float',
  'collection',
  'refund_reservation',
  'refund',
  'refund_release',
  'payout_reservation',
  'payout',
  'payout_release',
  'transfer_out',
  'transfer_in',
  'settlement_reservation',
  'settlement',
  'settlement_release',
] as const;
export type BalanceTransactionType = (typeof balanceTransactionTypes)[number];

export interface LedgerLine {
  kind: AccountKind;
  /** Signed centimes: positive raises the account's balance, negative lowers it. */
  amountMinor: number;
}

/** What a state change writes to the ledger: lines that sum to zero, in one currency. */
export interface LedgerPosting {
  merchantId: string;
  environment: Environment;
  currency: Currency;
  type: BalanceTransactionType;
  /** What caused it: a payment, a refund, a payout, a transfer. */
  source: { type: 'payment' | 'refund' | 'payout' | 'transfer' | 'settlement' | 'account'; id: string; reference: string | null };
  description: string;
  lines: LedgerLine[];
}

/** Builds a posting, refusing one whose lines do not sum to zero (money created or lost). */
export function posting(fields: Omit<LedgerPosting, 'lines'>, lines: LedgerLine[]): LedgerPosting {
  const kept = lines.filter((line) => line.amountMinor !== 0);
  const sum = kept.reduce((total, line) => total + line.amountMinor, 0);
  if (sum !== 0 || kept.some((line) => !Number.isSafeInteger(line.amountMinor))) {
    throw new Error(`unbalanced ledger posting ${fields.type}: lines sum to ${sum}`);
  }
  return { ...fields, lines: kept };
}

/** The fee on an amount: the percentage rounded up to the centime, plus the fixed part. */
export function feeFor(schedule: FeeSchedule, amountMinor: number): number {
  return Math.ceil((amountMinor * schedule.percentBps) / 10_000) + schedule.fixedMinor;
}

export interface Balance {
  currency: Currency;
  availableMinor: number;
  reservedMinor: number;
}

/** One ledger transaction as the merchant sees it: what it did to the available and reserved balances. */
export interface BalanceTransaction {
  id: string;
  type: BalanceTransactionType;
  currency: Currency;
  environment: Environment;
  availableChangeMinor: number;
  reservedChangeMinor: number;
  feeMinor: number;
  source: LedgerPosting['source'];
  description: string;
  createdAt: string;
  /** The settlement whose statement covers it; null until the next settlement of its currency. */
  settlementId: string | null;
}

/** What the API reads of the ledger. */
export interface LedgerReader {
  /** Available and reserved per currency; a test balance is opened (with its float) on first sight. */
  balances(scope: TenantScope): Promise<Balance[]>;
  transactions(scope: TenantScope, filters: { type?: BalanceTransactionType; settlementId?: string; createdGte?: string; createdLte?: string }, page: PageRequest): Promise<Page<BalanceTransaction>>;
}

export const DEFAULT_SANDBOX_FLOAT_MINOR = 100_000_000 * 100;

export function insufficientBalance(needMinor: number, currency: Currency): AkweError {
  return new AkweError('insufficient_balance', `The available balance cannot cover ${needMinor / 100} ${currency}.`);
}
