import type { Payment, Refund } from '../payments/payment.js';
import { posting, type LedgerPosting } from './ledger.js';

/**
 * How each money event moves the merchant's accounts (docs/ledger.md "Postings"). Every posting
 * balances: what the merchant gains, an operator or the fees account gives, and the reverse.
 */
export const postingRules = {
  /** A completed collection: the operator owes the amount; the merchant gets it less the fee. */
  collection(payment: Payment, feeMinor: number): LedgerPosting {
    return posting(
      { ...scopeOf(payment), type: 'collection', source: { type: 'payment', id: payment.id, reference: payment.reference }, description: `Collection ${payment.reference}` },
      [
        { kind: 'operator_clearing', amountMinor: -payment.amountMinor },
        { kind: 'available', amountMinor: payment.amountMinor - feeMinor },
        { kind: 'fees', amountMinor: feeMinor },
      ],
    );
  },

  /** A refund asked for: its amount leaves the available balance and waits, reserved. */
  refundReserved(refund: Refund): LedgerPosting {
    return posting(refundFields(refund, 'refund_reservation', `Refund ${refund.id} of ${refund.paymentReference} reserved`), [
      { kind: 'available', amountMinor: -refund.amountMinor },
      { kind: 'reserved', amountMinor: refund.amountMinor },
    ]);
  },

  /** The operator paid the refund back to the customer. */
  refundCompleted(refund: Refund): LedgerPosting {
    return posting(refundFields(refund, 'refund', `Refund ${refund.id} of ${refund.paymentReference}`), [
      { kind: 'reserved', amountMinor: -refund.amountMinor },
      { kind: 'operator_clearing', amountMinor: refund.amountMinor },
    ]);
  },

  /** The operator refused the refund: the reservation goes back to the available balance. */
  refundReleased(refund: Refund): LedgerPosting {
    return posting(refundFields(refund, 'refund_release', `Refund ${refund.id} of ${refund.paymentReference} failed; released`), [
      { kind: 'reserved', amountMinor: -refund.amountMinor },
      { kind: 'available', amountMinor: refund.amountMinor },
    ]);
  },
};

function scopeOf(object: { merchantId: string; environment: Payment['environment']; currency: Payment['currency'] }) {
  return { merchantId: object.merchantId, environment: object.environment, currency: object.currency };
}

function refundFields(refund: Refund, type: LedgerPosting['type'], description: string) {
  return { ...scopeOf(refund), type, source: { type: 'refund' as const, id: refund.id, reference: refund.paymentReference }, description };
}
