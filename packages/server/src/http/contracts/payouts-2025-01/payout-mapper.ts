import type { Payout } from '../../../core/payouts/payout.js';

/** Domain -> the payout object of contract 2025-01 (centimes). */
export function payoutToWire(payout: Payout) {
  return {
    object: 'payout' as const,
    id: payout.id,
    reference: payout.reference,
    status: payout.status,
    amount: payout.amountMinor,
    fee_minor: payout.feeMinor,
    currency: payout.currency,
    country: payout.country,
    operator: payout.operator,
    phone: payout.phone,
    recipient_first_name: payout.recipientFirstName,
    recipient_last_name: payout.recipientLastName,
    description: payout.description,
    psp_reference: payout.pspReference,
    message: payout.message,
    failure_code: payout.failureCode,
    metadata: payout.metadata,
    environment: payout.environment,
    sandbox: payout.environment === 'test',
    idempotent_replay: false,
    created_at: payout.createdAt,
    updated_at: payout.updatedAt,
  };
}
