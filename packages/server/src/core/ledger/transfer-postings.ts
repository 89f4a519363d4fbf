import type { Transfer } from '../transfers/transfer.js';
import { posting, type LedgerPosting } from './ledger.js';

/**
 * A transfer in the ledger (docs/ledger.md): the sender's available balance gives the amount to its
 * `transfer_clearing` account, the receiver's `transfer_clearing` gives it to its available balance.
 * Each posting balances; the two clearing lines cancel out across the pair.
 */
export function transferPostings(sent: Transfer): LedgerPosting[] {
  const common = { environment: sent.environment, currency: sent.currency, source: { type: 'transfer' as const, id: sent.id, reference: sent.reference } };
  return [
    posting({ ...common, merchantId: sent.senderId, type: 'transfer_out', description: `Transfer ${sent.reference ?? sent.id} to merchant ${sent.receiverId}` }, [
      { kind: 'available', amountMinor: -sent.amountMinor },
      { kind: 'transfer_clearing', amountMinor: sent.amountMinor },
    ]),
    posting(
      {
        ...common,
        merchantId: sent.receiverId,
        type: 'transfer_in',
        source: { ...common.source, reference: null },
        description: `Transfer ${sent.id} from merchant ${sent.senderId}`,
      },
      [
        { kind: 'transfer_clearing', amountMinor: -sent.amountMinor },
        { kind: 'available', amountMinor: sent.amountMinor },
      ],
    ),
  ];
}
