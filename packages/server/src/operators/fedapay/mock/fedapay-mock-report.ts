/**
 * The mock's transactions and payouts of a UTC day, in the format Akwe defines for FedaPay
 * (fedapay-report.ts). Tests change its lines to make discrepancies.
 */
import { csvLine, type Cell } from '../../../core/exports/csv-cells.js';
import { fedaPayReportColumns } from '../fedapay-report.js';
import type { FedaPayMockState } from './fedapay-mock.js';

export function fedaPayMockReport(state: FedaPayMockState, day: string, currency = 'XOF'): string {
  const rows: Cell[][] = [];
  for (const tx of state.transactions.values()) {
    if (tx.createdAt.startsWith(day)) rows.push([tx.createdAt, tx.id, tx.reference, tx.merchantReference, 'transaction', tx.amount, currency, tx.status]);
  }
  for (const payout of state.payouts.values()) {
    if (payout.createdAt.startsWith(day)) rows.push([payout.createdAt, payout.id, payout.reference, payout.merchantReference, 'payout', payout.amount, currency, payout.status]);
  }
  return csvLine(fedaPayReportColumns) + rows.map((cells) => csvLine(cells)).join('');
}
