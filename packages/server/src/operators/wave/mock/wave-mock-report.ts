/**
 * The mock's balance history (Wave's GET /v1/transactions items, as CSV: wave-transactions-report.ts):
 * each paid checkout session, its refund, and each payout that went out, on a UTC day. Tests change
 * its lines to make discrepancies.
 */
import { csvLine, type Cell } from '../../../core/exports/csv-cells.js';
import { waveReportColumns } from '../wave-transactions-report.js';
import type { WaveMockState } from './wave-mock.js';

export function waveMockReport(state: WaveMockState, day: string): string {
  const rows: Cell[][] = [];
  for (const session of state.sessions.values()) {
    const at = session.whenCompleted ?? session.whenCreated;
    if (session.paymentStatus !== 'succeeded' || !at.startsWith(day)) continue;
    rows.push([
      at,
      session.transactionId ?? session.id,
      'merchant_payment',
      Number(session.amount),
      0,
      session.currency,
      session.clientReference ?? null,
      session.restrictPayerMobile ?? null,
    ]);
    if (session.refunded)
      rows.push([at, `${session.transactionId ?? session.id}-R`, 'merchant_payment_refund', -Number(session.amount), 0, session.currency, session.clientReference ?? null, null]);
  }
  for (const payout of state.payouts.values()) {
    if (payout.status !== 'succeeded' || !payout.timestamp.startsWith(day)) continue;
    rows.push([payout.timestamp, payout.id, 'api_payout', -Number(payout.receiveAmount), Number(payout.fee), payout.currency, payout.clientReference ?? null, payout.mobile]);
  }
  return csvLine(waveReportColumns) + rows.map((cells) => csvLine(cells)).join('');
}
