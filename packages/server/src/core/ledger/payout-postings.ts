import type { Payout } from '../payouts/payout.js';
import { posting, type LedgerPosting } from './ledger.js';

/**
 * A payout's three moments in the ledger (docs/ledger.md): its amount and fee are reserved at
 * creation; on success the operator is owed the amount and the fee is earned; on failure or
 * cancellation the reservation goes back to the available balance.
 */
export const payoutPostings = {
  reserved(payout: Payout): LedgerPosting {
    const total = payout.amountMinor + payout.feeMinor;
    return posting(fields(payout, 'payout_reservation', `Payout ${payout.reference} reserved`), [
      { kind: 'available', amountMinor: -total },
      { kind: 'reserved', amountMinor: total },
    ]);
  },

  completed(payout: Payout): LedgerPosting {
    return posting(fields(payout, 'payout', `Payout ${payout.reference}`), [
      { kind: 'reserved', amountMinor: -(payout.amountMinor + payout.feeMinor) },
      { kind: 'operator_clearing', amountMinor: payout.amountMinor },
      { kind: 'fees', amountMinor: payout.feeMinor },
    ]);
  },

  released(payout: Payout): LedgerPosting {
    const total = payout.amountMinor + payout.feeMinor;
    return posting(fields(payout, 'payout_release', `Payout ${payout.reference} ${payout.status.toLowerCase()}; released`), [
      { kind: 'reserved', amountMinor: -total },
      { kind: 'available', amountMinor: total },
    ]);
  },
};

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
