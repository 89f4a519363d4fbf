/**
 * pawaPay's wallet statement (docs.pawapay.io "Statements": the dashboard's export and the
 * statements API's CSV): every movement of a wallet's balance, so every line moved money. Columns
 * by name, as its glossary lists them; ours is the `Transaction ID` (the depositId, payoutId or
 * refundId we chose), `Creation Date` is UTC. Types other than deposits, payouts and refunds (a
 * top-up, an adjustment) are movements of the wallet that are no payment of ours: skipped.
 */
import type { ProviderReportFormat } from '../../core/reconciliation/provider-report.js';
import { parseTabularReport, type TabularReportSpec } from '../../core/reconciliation/report-csv.js';

export const pawapayStatementColumns = ['Creation Date', 'MSISDN', 'Transaction ID', 'Provider Transaction ID', 'Amount', 'Currency', 'Country', 'MNO', 'Type'] as const;

const spec: TabularReportSpec = {
  provider: 'pawapay',
  columns: { date: 'Creation Date', akweId: 'Transaction ID', providerReference: 'Provider Transaction ID', type: 'Type', amount: 'Amount', currency: 'Currency' },
  types: { DEPOSIT: 'payment', PAYOUT: 'payout', REFUND: 'refund', TOP_UP: null, WITHDRAWAL: null, ADJUSTMENT: null, FEE: null },
};

export const pawapayStatement: ProviderReportFormat = { provider: 'pawapay', parse: (text) => parseTabularReport(spec, text) };
