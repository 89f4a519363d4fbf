import type { FastifySchemaValidationError } from 'fastify';
import type { BatchLineProblem } from '../../core/bulk/batch-problems.js';
import { amountUnitHint } from '../../core/shared/amount-units.js';
import { validationDetails } from '../shared/validation-details.js';

const itemField = /^items\.(\d+)\.([^.]+)/;

/**
 * The schema's complaints about `items` (a number for `amount` sent as text, an unknown field) as
 * line problems with their row, so they join the line checks' report and every line's problems
 * come at once (docs/bulk.md). Undefined when any complaint is about something else (the batch's
 * name, `items` itself): that is an ordinary 400.
 */
export function itemSchemaProblems(errors: FastifySchemaValidationError[]): Map<number, BatchLineProblem[]> | undefined {
  const problems = new Map<number, BatchLineProblem[]>();
  for (const detail of validationDetails(errors, 'body')) {
    const match = itemField.exec(detail.field);
    if (!match) return undefined;
    const row = Number(match[1]) + 1;
    const field = match[2]!;
    const lineProblems = problems.get(row) ?? [];
    // One problem per field: Ajv may say more than one thing about the same value.
    const message = field === 'amount' ? `${detail.message} (${amountUnitHint('minor')})` : detail.message;
    if (!lineProblems.some((problem) => problem.field === field)) lineProblems.push({ row, field, code: 'validation_error', message });
    problems.set(row, lineProblems);
  }
  return problems;
}

/** A line without the fields the schema refused, so the line checks look only at the others. */
export function withoutRefusedFields<T extends object>(item: T, problems: readonly BatchLineProblem[] | undefined): T {
  if (!problems || problems.length === 0) return item;
  const refused = new Set(problems.map((problem) => problem.field));
  return Object.fromEntries(Object.entries(item).filter(([field]) => !refused.has(field))) as T;
}
