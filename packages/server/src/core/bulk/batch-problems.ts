import type { ErrorCode } from '../errors/index.js';

/** The catalog codes a batch line can be refused with (the same ones a single payout answers). */
export type BatchProblemCode = Extract<
  ErrorCode,
  'validation_error' | 'invalid_phone' | 'invalid_operator' | 'operator_required' | 'unsupported_currency' | 'amount_too_low' | 'amount_too_high' | 'duplicate_reference'
>;

/**
 * One thing wrong with one line of a batch. `row` is the line's row number as a spreadsheet shows
 * it for a CSV file (the header is row 1, the first payment line row 2); `field` is the item
 * field's English name (`phone`, `metadata.team`), so a merchant can find the cell.
 */
export interface BatchLineProblem {
  row: number;
  field: string;
  code: BatchProblemCode;
  message: string;
}
