/**
 * Wave's balance history (docs.wave.com "Balance & Reconciliation API", GET /v1/transactions):
 * each completed movement of the business wallet. Wave publishes it as JSON; the CSV Akwe reads has
 * one column per field of its items (`timestamp`, `transaction_id`, `transaction_type`, `amount`,
 * `fee`, `currency`, `client_reference`, ...), which is what the mock's report renders (a format of
 * ours, docs/operations.md). Ours is `client_reference` (a payout's id; a refund names the payment
 * it refunds); `amount` is signed, negative for money out.
 */
import type { ProviderReportFormat } from '../../core/reconciliation/provider-report.js';
import { parseTabularReport, type TabularReportSpec } from '../../core/reconciliation/report-csv.js';

export const waveReportColumns = ['timestamp', 'transaction_id', 'transaction_type', 'amount', 'fee', 'currency', 'client_reference', 'counterparty_mobile'] as const;

const spec: TabularReportSpec = {
  provider: 'wave',
  columns: { date: 'timestamp', akweId: 'client_reference', providerReference: 'transaction_id', type: 'transaction_type', amount: 'amount', currency: 'currency' },
  types: { MERCHANT_PAYMENT: 'payment', API_PAYOUT: 'payout', MERCHANT_PAYMENT_REFUND: 'refund', FEE: null, DEPOSIT: null, WITHDRAWAL: null },
};

export const waveTransactionsReport: ProviderReportFormat = { provider: 'wave', parse: (text) => parseTabularReport(spec, text) };
