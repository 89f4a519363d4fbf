import { Type } from 'typebox';
import { paymentStatuses } from '../../core/payments/payment.js';
import { payoutStatuses } from '../../core/payouts/payout.js';
import { bulkItemStatuses } from '../../core/bulk/bulk-batch.js';

const bound = (description: string) =>
  Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: `${description} A date (\`2026-06-01\`: midnight UTC) or an RFC 3339 date-time with its offset (\`2026-06-01T09:30:00Z\`). Absent: no bound.`,
    }),
  );

/** Every CSV file's delimiter choice (exports and statements), as the bulk template names it. */
export const csvDelimiter = {
  delimiter: Type.Optional(
    Type.Enum(['comma', 'semicolon'], {
      description: '`comma` (default): RFC 4180. `semicolon`: the variant a French Excel opens as columns (semicolons, a UTF-8 byte order mark); the same columns and cells.',
    }),
  ),
};

const period = {
  from: bound('Rows created at or after this instant (inclusive).'),
  to: bound('Rows created before this instant (exclusive), later than `from`.'),
  ...csvDelimiter,
};

const statusFilter = (statuses: readonly string[]) => Type.Optional(Type.Enum(statuses as string[], { description: 'Only rows in this status, in any letter case.' }));

/** Query strings of the exports: any other parameter is refused (400). */
export const PaymentExportQuery = Type.Object({ ...period, status: statusFilter(paymentStatuses) }, { additionalProperties: false });
export const PayoutExportQuery = Type.Object({ ...period, status: statusFilter(payoutStatuses) }, { additionalProperties: false });
export const BalanceTransactionExportQuery = Type.Object(period, { additionalProperties: false });
export const BatchLineExportQuery = Type.Object(
  {
    ...period,
    status: statusFilter(bulkItemStatuses),
    batch_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'One batch’s lines, in row order; absent: the lines of every batch, newest first.' })),
  },
  { additionalProperties: false },
);
