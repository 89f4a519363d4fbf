import type { Transfer } from '../../core/transfers/transfer.js';

/** Domain -> the transfer object, from the reading party's side (centimes). */
export function transferToWire(transfer: Transfer) {
  return {
    object: 'transfer' as const,
    id: transfer.id,
    direction: transfer.direction,
    sender: transfer.senderId,
    receiver: transfer.receiverId,
    reference: transfer.reference,
    amount_minor: transfer.amountMinor,
    currency: transfer.currency,
    description: transfer.description,
    metadata: transfer.metadata,
    environment: transfer.environment,
    sandbox: transfer.environment === 'test',
    idempotent_replay: false,
    created_at: transfer.createdAt,
  };
}
