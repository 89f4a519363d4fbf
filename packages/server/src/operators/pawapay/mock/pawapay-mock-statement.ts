/**
 * The mock's wallet statement (what pawaPay's statement export holds): every completed deposit,
 * payout and refund the mock recorded on a UTC day, in the columns of pawapay-statement.ts. Tests
 * change its lines to make discrepancies; the mock serves it at GET /_mock/statement?date=.
 */
import { csvLine } from '../../../core/exports/csv-cells.js';
import { pawapayStatementColumns } from '../pawapay-statement.js';
import { providerOf, type PawapayMockState } from './pawapay-mock.js';

const typeOf = { deposits: 'DEPOSIT', payouts: 'PAYOUT', refunds: 'REFUND' } as const;
const idField = { deposits: 'depositId', payouts: 'payoutId', refunds: 'refundId' } as const;

/** The statement of a UTC day (YYYY-MM-DD), or of [from, to) given as ISO instants. */
export function pawapayMockStatement(state: PawapayMockState, period: string | { from: string; to: string }): string {
  const within = typeof period === 'string' ? (at: string) => at.startsWith(period) : (at: string) => at >= period.from && at < period.to;
  const lines = [...state.transactions.values()]
    .filter((tx) => tx.status === 'COMPLETED' && within(tx.created))
    .map((tx) => {
      const party = (tx.body['payer'] ?? tx.body['recipient']) as { accountDetails?: { phoneNumber?: string } } | undefined;
      const provider = providerOf(tx.body);
      return csvLine([
        tx.created,
        party?.accountDetails?.phoneNumber ?? null,
        String(tx.body[idField[tx.kind]] ?? tx.id),
        tx.providerTransactionId ?? null,
        Number(tx.body['amount']),
        String(tx.body['currency'] ?? provider?.currency ?? 'XOF'),
        provider?.country ?? null,
        provider?.provider ?? null,
        typeOf[tx.kind],
      ]);
    });
  return csvLine(pawapayStatementColumns) + lines.join('');
}
