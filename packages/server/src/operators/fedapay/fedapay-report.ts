/**
 * FedaPay's transactions and payouts for a period. FedaPay publishes no export format we could
 * read, so Akwe defines one (docs/operations.md "Reconciliation"): one line per transaction or
 * payout with FedaPay's own words, `merchant_reference` being our id, `created_at` in UTC.
 */
import type { ProviderReportFormat } from '../../core/reconciliation/provider-report.js';
import { parseTabularReport, type TabularReportSpec } from '../../core/reconciliation/report-csv.js';

export const fedaPayReportColumns = ['created_at', 'id', 'reference', 'merchant_reference', 'type', 'amount', 'currency', 'status'] as const;

const spec: TabularReportSpec = {
  provider: 'fedapay',
  columns: { date: 'created_at', akweId: 'merchant_reference', providerReference: 'reference', type: 'type', amount: 'amount', currency: 'currency', status: 'status' },
  types: { TRANSACTION: 'payment', PAYOUT: 'payout', REFUND: 'refund' },
  // A transaction refunded later was collected first: its line stands for the collection.
  statuses: {
    APPROVED: 'completed',
    TRANSFERRED: 'completed',
    REFUNDED: 'completed',
    SENT: 'completed',
    DECLINED: 'failed',
    CANCELED: 'failed',
    FAILED: 'failed',
    PENDING: 'pending',
    STARTED: 'pending',
    SCHEDULED: 'pending',
  },
};

export const fedaPayReport: ProviderReportFormat = { provider: 'fedapay', parse: (text) => parseTabularReport(spec, text) };
