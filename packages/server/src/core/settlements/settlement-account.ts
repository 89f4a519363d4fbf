import type { CountryCode, Currency } from '../catalog/operator-catalog.js';
import type { Environment } from '../shared/environment.js';
import type { Metadata } from '../shared/metadata.js';

export const settlementAccountKinds = ['wallet', 'bank'] as const;
export type SettlementAccountKind = (typeof settlementAccountKinds)[number];

/**
 * Where a merchant's settlements go, in one environment (docs/settlements.md): a Mobile Money wallet
 * (paid by a payout) or a bank account (paid outside Akwe by an administrator). A new or changed
 * account is usable from `usableFrom` on (the cooling period); a removed one never again.
 */
export interface SettlementAccount {
  id: string;
  merchantId: string;
  environment: Environment;
  kind: SettlementAccountKind;
  currency: Currency;
  country: CountryCode;
  holderName: string;
  /** Wallet: the catalog operator's slug and the number (E.164). */
  operator: string | null;
  phone: string | null;
  /** Bank: the IBAN, compact and uppercase, and the bank's name. */
  iban: string | null;
  bankName: string | null;
  description: string | null;
  metadata: Metadata;
  usableFrom: string;
  removedAt: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** `cooling` until `usableFrom`, then `usable`; `removed` once removed. */
export type SettlementAccountStatus = 'cooling' | 'usable' | 'removed';

export function settlementAccountStatus(account: SettlementAccount, now: Date): SettlementAccountStatus {
  if (account.removedAt !== null) return 'removed';
  return Date.parse(account.usableFrom) <= now.getTime() ? 'usable' : 'cooling';
}
