/**
 * The mock's partner report (the format Akwe defines for MTN, mtn-report.ts): every transaction
 * the mock recorded on a UTC day, with MTN's words. Tests change its lines to make discrepancies.
 */
import { csvLine } from '../../../core/exports/csv-cells.js';
import { mtnReportColumns } from '../mtn-report.js';
import type { MtnMockState } from './mtn-momo-mock.js';

const typeOf = { requesttopay: 'REQUESTTOPAY', transfer: 'TRANSFER', refund: 'REFUND' } as const;

export function mtnMockReport(state: MtnMockState, day: string): string {
  const lines = [...state.transactions.values()]
    .filter((tx) => tx.createdAt.startsWith(day))
    .map((tx) =>
      csvLine([
        tx.createdAt,
        tx.financialTransactionId ?? null,
        String(tx.body['externalId'] ?? tx.referenceId),
        typeOf[tx.kind],
        Number(tx.body['amount']),
        String(tx.body['currency']),
        tx.status,
      ]),
    );
  return csvLine(mtnReportColumns) + lines.join('');
}
