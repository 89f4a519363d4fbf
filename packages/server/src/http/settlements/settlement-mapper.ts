import type { Settlement } from '../../core/settlements/settlement.js';

/** Domain -> the settlement object (centimes, `_minor` fields). */
export function settlementToWire(settlement: Settlement) {
  const { destination } = settlement;
  return {
    object: 'settlement' as const,
    id: settlement.id,
    reference: settlement.reference,
    status: settlement.status,
    origin: settlement.origin,
    amount_minor: settlement.amountMinor,
    fee_minor: settlement.feeMinor,
    net_amount_minor: settlement.amountMinor - settlement.feeMinor,
    currency: settlement.currency,
    settlement_account: settlement.accountId,
    destination:
      destination.kind === 'wallet'
        ? {
            kind: 'wallet' as const,
            country: destination.country,
            holder_name: destination.holderName,
            operator: destination.operator,
            phone: destination.phone,
            iban: null,
            bank_name: null,
          }
        : {
            kind: 'bank' as const,
            country: destination.country,
            holder_name: destination.holderName,
            operator: null,
            phone: null,
            iban: destination.iban,
            bank_name: destination.bankName,
          },
    payout_id: settlement.payoutId,
    bank_reference: settlement.bankReference,
    failure_code: settlement.failureCode,
    failure_message: settlement.failureMessage,
    statement: {
      opening_available_minor: settlement.openingAvailableMinor,
      closing_available_minor: settlement.closingAvailableMinor,
      opening_reserved_minor: settlement.openingReservedMinor,
      closing_reserved_minor: settlement.closingReservedMinor,
      url: `/api/v1/settlements/${settlement.id}/statement`,
      csv_url: `/api/v1/settlements/${settlement.id}/statement.csv`,
    },
    description: settlement.description,
    metadata: settlement.metadata,
    environment: settlement.environment,
    sandbox: settlement.environment === 'test',
    idempotent_replay: false,
    created_at: settlement.createdAt,
    updated_at: settlement.updatedAt,
    settled_at: settlement.settledAt,
  };
}
