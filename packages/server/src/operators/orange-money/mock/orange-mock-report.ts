/**
 * The mock's web payment report (the format Akwe defines for Orange, orange-report.ts): every
 * payment the mock recorded on a UTC day. Tests change its lines to make discrepancies.
 */
import { csvLine } from '../../../core/exports/csv-cells.js';
import { orangeReportColumns } from '../orange-report.js';
import type { OrangeMockState } from './orange-money-mock.js';

export function orangeMockReport(state: OrangeMockState, day: string): string {
  const lines = [...state.payments.values()]
    .filter((payment) => payment.createdAt.startsWith(day))
    .map((payment) =>
      csvLine([payment.createdAt, payment.txnid ?? null, payment.orderId, 'WEBPAYMENT', Number(payment.body['amount']), String(payment.body['currency'] ?? 'XOF'), payment.status]),
    );
  return csvLine(orangeReportColumns) + lines.join('');
}
