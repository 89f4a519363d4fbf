/**
 * Orange Money's web payment report. Orange publishes no report format for its web payment API,
 * so Akwe defines one (docs/operations.md "Reconciliation"): one line per payment with the
 * notification's words, `Order ID` being our id, `Date` in UTC. Orange's web payment only collects.
 */
import type { ProviderReportFormat } from '../../core/reconciliation/provider-report.js';
import { parseTabularReport, type TabularReportSpec } from '../../core/reconciliation/report-csv.js';

export const orangeReportColumns = ['Date', 'Txnid', 'Order ID', 'Type', 'Amount', 'Currency', 'Status'] as const;

const spec: TabularReportSpec = {
  provider: 'orange-money',
  columns: { date: 'Date', akweId: 'Order ID', providerReference: 'Txnid', type: 'Type', amount: 'Amount', currency: 'Currency', status: 'Status' },
  types: { WEBPAYMENT: 'payment' },
  statuses: { SUCCESS: 'completed', FAILED: 'failed', EXPIRED: 'failed', INITIATED: 'pending', PENDING: 'pending' },
};

export const orangeReport: ProviderReportFormat = { provider: 'orange-money', parse: (text) => parseTabularReport(spec, text) };
