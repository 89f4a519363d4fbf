import type { Currency } from '../catalog/operator-catalog.js';
import type { Environment } from '../shared/environment.js';
import { posting, type LedgerPosting } from './ledger.js';

/** What a settlement's postings need: who, where, how much reaches the destination and the fee. */
export interface SettlementMoney {
  merchantId: string;
  environment: Environment;
  currency: Currency;
  settlementId: string;
  reference: string;
  /** What the destination receives (the settlement's amount less its fee). */
  netMinor: number;
  feeMinor: number;
}

/**
 * A settlement's three moments in the ledger (docs/ledger.md), as a payout's: its whole amount is
 * reserved when it is made; once paid, the paying side (operator or bank) is owed the net amount and
 * the fee is earned; a failed one goes back to the available balance. A wallet settlement's payout
 * books these (payout-postings.ts), so the merchant's balance transactions name the settlement.
 */
export const settlementPostings = {
  reserved(money: SettlementMoney): LedgerPosting {
    const total = money.netMinor + money.feeMinor;
    return posting(fields(money, 'settlement_reservation', `Settlement ${money.reference} reserved`), [
      { kind: 'available', amountMinor: -total },
      { kind: 'reserved', amountMinor: total },
    ]);
  },

  paid(money: SettlementMoney): LedgerPosting {
    return posting(fields(money, 'settlement', `Settlement ${money.reference}`), [
      { kind: 'reserved', amountMinor: -(money.netMinor + money.feeMinor) },
      { kind: 'operator_clearing', amountMinor: money.netMinor },
      { kind: 'fees', amountMinor: money.feeMinor },
    ]);
  },

  released(money: SettlementMoney): LedgerPosting {
    const total = money.netMinor + money.feeMinor;
    return posting(fields(money, 'settlement_release', `Settlement ${money.reference} failed; released`), [
      { kind: 'reserved', amountMinor: -total },
      { kind: 'available', amountMinor: total },
    ]);
  },
};

function fields(money: SettlementMoney, type: LedgerPosting['type'], description: string) {
  return {
    merchantId: money.merchantId,
    environment: money.environment,
    currency: money.currency,
    type,
    source: { type: 'settlement' as const, id: money.settlementId, reference: money.reference },
    description,
  };
}
