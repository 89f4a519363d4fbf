/**
 * The mock's balance history (Wave's GET /v1/transactions items): each paid checkout session, its
 * refund, and each payout that went out, on a UTC day. The mock's API serves them as Wave does
 * (wave-mock.ts) and its report renders them as the CSV Akwe imports (wave-transactions-report.ts);
 * tests change its lines to make discrepancies.
 */
import { waveItemsCsv, type WaveTransactionItem } from '../wave-transactions-report.js';
import type { WaveMockState } from './wave-mock.js';

export function waveMockTransactions(state: WaveMockState, day: string): WaveTransactionItem[] {
  const items: WaveTransactionItem[] = [];
  for (const session of state.sessions.values()) {
    const at = session.whenCompleted ?? session.whenCreated;
    if (session.paymentStatus !== 'succeeded' || !at.startsWith(day)) continue;
    const transactionId = session.transactionId ?? session.id;
    const reference = session.clientReference ?? null;
    items.push({
      timestamp: at,
      transaction_id: transactionId,
      transaction_type: 'api_checkout',
      amount: session.amount,
      fee: '0',
      currency: session.currency,
      client_reference: reference,
      counterparty_mobile: session.restrictPayerMobile ?? null,
      checkout_api_session_id: session.id,
    });
    if (session.refunded)
      items.push({
        timestamp: at,
        transaction_id: `${transactionId}-R`,
        transaction_type: 'api_checkout_refund',
        amount: `-${session.amount}`,
        fee: '0',
        currency: session.currency,
        client_reference: reference,
        counterparty_mobile: null,
      });
  }
  for (const payout of state.payouts.values()) {
    if (payout.status !== 'succeeded' || !payout.timestamp.startsWith(day)) continue;
    items.push({
      timestamp: payout.timestamp,
      transaction_id: payout.id,
      transaction_type: 'api_payout',
      amount: `-${payout.receiveAmount}`,
      fee: payout.fee,
      currency: payout.currency,
      client_reference: payout.clientReference ?? null,
      counterparty_mobile: payout.mobile,
    });
  }
  return items.sort((a, b) => String(a.timestamp).localeCompare(String(b.timestamp)));
}

export function waveMockReport(state: WaveMockState, day: string): string {
  return waveItemsCsv(waveMockTransactions(state, day));
}
