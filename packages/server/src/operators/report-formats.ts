/** Each connector family's report format, by the family's name (`akwe reconcile import <provider>`). */
import type { ProviderReportFormat } from '../core/reconciliation/provider-report.js';
import { fedaPayReport } from './fedapay/fedapay-report.js';
import { mtnReport } from './mtn-momo/mtn-report.js';
import { orangeReport } from './orange-money/orange-report.js';
import { pawapayStatement } from './pawapay/pawapay-statement.js';
import { waveTransactionsReport } from './wave/wave-transactions-report.js';

export const reportFormats: Readonly<Record<string, ProviderReportFormat>> = Object.freeze(
  Object.fromEntries([mtnReport, waveTransactionsReport, orangeReport, fedaPayReport, pawapayStatement].map((format) => [format.provider, format])),
);
