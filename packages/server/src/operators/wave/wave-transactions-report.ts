/**
 * Wave's balance history (docs.wave.com "Balance & Reconciliation API", GET /v1/transactions):
 * each completed movement of the business wallet. Wave publishes it as JSON pages of `items`; the
 * CSV Akwe reads has one column per field of those items (`timestamp`, `transaction_id`,
 * `transaction_type`, `amount`, `fee`, `currency`, `client_reference`, ...): what the daily run
 * writes from Wave's pages (wave-statements.ts) and the mock's report renders (a format of ours,
 * docs/operations.md). Ours is `client_reference` (a checkout session's or a payout's; a refund names
 * the payment it refunds); `amount` is signed, negative for money out.
 */
import { csvLine, type Cell } from '../../core/exports/csv-cells.js';
import type { ProviderReportFormat } from '../../core/reconciliation/provider-report.js';
import { parseTabularReport, type TabularReportSpec } from '../../core/reconciliation/report-csv.js';

export const waveReportColumns = ['timestamp', 'transaction_id', 'transaction_type', 'amount', 'fee', 'currency', 'client_reference', 'counterparty_mobile'] as const;

/** One item of Wave's GET /v1/transactions, as far as the report reads it (amounts are decimal text). */
export type WaveTransactionItem = Partial<Record<(typeof waveReportColumns)[number], string | null>> & Record<string, unknown>;

/**
 * Wave's transaction types: checkout payments and their refunds and API payouts are ours; what the
 * business does by other means (QR payments, bulk and B2B payments, sweeps, reversals) is none of
 * ours and is skipped.
 */
const spec: TabularReportSpec = {
  provider: 'wave',
  columns: { date: 'timestamp', akweId: 'client_reference', providerReference: 'transaction_id', type: 'transaction_type', amount: 'amount', currency: 'currency' },
  types: {
    API_CHECKOUT: 'payment',
    API_CHECKOUT_REFUND: 'refund',
    API_PAYOUT: 'payout',
    MERCHANT_PAYMENT: 'payment',
    MERCHANT_PAYMENT_REFUND: 'refund',
    API_PAYOUT_REVERSAL: null,
    BULK_PAYMENT: null,
    BULK_PAYMENT_REVERSAL: null,
    B2B_PAYMENT: null,
    B2B_PAYMENT_REVERSAL: null,
    MERCHANT_SWEEP: null,
    FEE: null,
    DEPOSIT: null,
    WITHDRAWAL: null,
  },
};

/** Wave's items as the report's CSV: one line each, the columns above (fields Wave leaves out are empty). */
export function waveItemsCsv(items: readonly WaveTransactionItem[]): string {
  // Wave writes amounts as decimal text ("-2500"): written as numbers, never escaped as a formula.
  const cell = (value: unknown): Cell => (typeof value === 'number' ? value : typeof value === 'string' ? (/^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value) : null);
  return csvLine(waveReportColumns) + items.map((item) => csvLine(waveReportColumns.map((column) => cell(item[column])))).join('');
}

export const waveTransactionsReport: ProviderReportFormat = { provider: 'wave', parse: (text) => parseTabularReport(spec, text) };
