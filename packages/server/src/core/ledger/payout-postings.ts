import type { Payout } from '../payouts/payout.js';
import { posting, type LedgerPosting } from './ledger.js';
import { settlementPostings, type SettlementMoney } from './settlement-postings.js';

/**
 * A payout's three moments in the ledger (docs/ledger.md): its amount and fee are reserved at
 * creation; on success the operator is owed the amount and the fee is earned; on failure or
 * cancellation the reservation goes back to the available balance.
 */
export const payoutPostings = {
  reserved(payout: Payout): LedgerPosting {
    if (payout.settlementId) return settlementPostings.reserved(settlementMoney(payout, payout.settlementId));
    const total = payout.amountMinor + payout.feeMinor;
    return posting(fields(payout, 'payout_reservation', `Payout ${payout.reference} reserved`), [
      { kind: 'available', amountMinor: -total },
      { kind: 'reserved', amountMinor: total },
    ]);
  },

  completed(payout: Payout): LedgerPosting {
    if (payout.settlementId) return settlementPostings.paid(settlementMoney(payout, payout.settlementId));
    return posting(fields(payout, 'payout', `Payout ${payout.reference}`), [
      { kind: 'reserved', amountMinor: -(payout.amountMinor + payout.feeMinor) },
      { kind: 'operator_clearing', amountMinor: payout.amountMinor },
      { kind: 'fees', amountMinor: payout.feeMinor },
    ]);
  },

  released(payout: Payout): LedgerPosting {
    if (payout.settlementId) return settlementPostings.released(settlementMoney(payout, payout.settlementId));
    const total = payout.amountMinor + payout.feeMinor;
    return posting(fields(payout, 'payout_release', `Payout ${payout.reference} ${payout.status.toLowerCase()}; released`), [
      { kind: 'reserved', amountMinor: -total },
      { kind: 'available', amountMinor: total },
    ]);
  },
};

/** A wallet settlement's payout books the settlement's postings: the merchant sees one settlement, not a payout. */
function settlementMoney(payout: Payout, settlementId: string): SettlementMoney {
  const { merchantId, environment, currency, amountMinor: netMinor, feeMinor } = payout;
  // The payout's own metadata names the settlement's reference (see SettlementService).
  const reference = payout.metadata.settlement_reference ?? settlementId;
  return { merchantId, environment, currency, settlementId, reference, netMinor, feeMinor };
}

function fields(payout: Payout, type: LedgerPosting['type'], description: string) {
  return {
    merchantId: payout.merchantId,
    environment: payout.environment,
    currency: payout.currency,
    type,
    source: { type: 'payout' as const, id: payout.id, reference: payout.reference },
    description,
  };
}
