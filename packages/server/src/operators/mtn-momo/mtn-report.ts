/**
 * MTN MoMo's partner report. MTN sends its partners reports from its operations, in no format it
 * publishes, so Akwe defines one (docs/operations.md "Reconciliation"): one line per collection,
 * disbursement or refund with MTN's API words, `External ID` being our id (we send it as the
 * externalId and the X-Reference-Id), `Date` in UTC.
 */
import type { ProviderReportFormat } from '../../core/reconciliation/provider-report.js';
import { parseTabularReport, type TabularReportSpec } from '../../core/reconciliation/report-csv.js';

export const mtnReportColumns = ['Date', 'Financial Transaction ID', 'External ID', 'Type', 'Amount', 'Currency', 'Status'] as const;

const spec: TabularReportSpec = {
  provider: 'mtn-momo',
  columns: { date: 'Date', akweId: 'External ID', providerReference: 'Financial Transaction ID', type: 'Type', amount: 'Amount', currency: 'Currency', status: 'Status' },
  types: { REQUESTTOPAY: 'payment', TRANSFER: 'payout', REFUND: 'refund' },
  statuses: { SUCCESSFUL: 'completed', FAILED: 'failed', PENDING: 'pending' },
};

export const mtnReport: ProviderReportFormat = { provider: 'mtn-momo', parse: (text) => parseTabularReport(spec, text) };
