// A batch file read and checked in one pass: the rows stream from batch-csv.ts into the line
// checks of batch-lines.ts, so only the checked items (bounded by the line limit) are kept.
import type { OperatorCatalog } from '../catalog/operator-catalog.js';
import { readBatchCsv, type BatchCsvLimits, type BatchCsvSource } from './batch-csv.js';
import { BatchLineChecker, type BatchCurrencyTotal, type BatchItem } from './batch-lines.js';
import type { BatchLineProblem } from './batch-problems.js';

export interface CheckedBatchFile {
  /** The valid lines, in file order. */
  items: BatchItem[];
  /** Every problem of every invalid line, in file order. */
  problems: BatchLineProblem[];
  /** Payment lines read (valid and invalid; blank rows not counted). */
  lineCount: number;
  /** Amount and fee of the valid lines, per currency. */
  totals: BatchCurrencyTotal[];
}

/** Throws what readBatchCsv throws for the file as a whole; line problems are in the answer. */
export async function checkBatchCsv(
  source: BatchCsvSource,
  catalog: OperatorCatalog,
  limits: Partial<BatchCsvLimits> = {},
  options: { defaultCountry?: string } = {},
): Promise<CheckedBatchFile> {
  const checker = new BatchLineChecker(catalog, options);
  const items: BatchItem[] = [];
  const problems: BatchLineProblem[] = [];
  let lineCount = 0;
  for await (const { row, line, problems: rowProblems } of readBatchCsv(source, limits)) {
    lineCount += 1;
    const check = checker.check(row, line, rowProblems);
    if (check.ok) items.push(check.item);
    else problems.push(...check.problems);
  }
  return { items, problems, lineCount, totals: checker.totals() };
}
