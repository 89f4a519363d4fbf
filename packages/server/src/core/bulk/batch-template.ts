// The CSV template merchants download, fill in and import (docs/bulk.md "Template").
import { batchColumns } from './batch-columns.js';

/**
 * Semicolons by default: Excel splits a CSV file on the list separator of the computer's
 * language, which is the semicolon in French, so a comma template would open as one column for
 * the merchants Akwe serves. The reader takes either, so `','` is offered too.
 */
export type TemplateDelimiter = ';' | ',';

// One filled-in line showing each column's form, for the docs and the OpenAPI example only: the
// downloaded template holds the header alone, so that a merchant who appends rows never pays the
// sample person too. The phone number is written with spaces so that spreadsheets keep it as
// text (typed as a number, it would lose its leading 0); it is the sandbox's success number.
const exampleLine: Record<(typeof batchColumns)[number], string> = {
  beneficiary_name: 'Afi Mensah',
  phone: '01 97 00 00 00',
  amount: '2500000',
  currency: 'XOF',
  reference: 'paie-2026-06-0001',
  country: 'BJ',
  operator: 'mtn_bj',
  description: 'Salaire juin 2026 (25 000 FCFA)',
};

/**
 * The template file: a UTF-8 byte order mark (without it Excel reads the file in the computer's
 * legacy code page and garbles accented names) and the header row with every column's English
 * name, CRLF line ends. No sample line: rows appended to it are the whole batch.
 */
export function batchTemplateCsv(delimiter: TemplateDelimiter = ';'): string {
  return `\ufeff${csvRow(batchColumns, delimiter)}\r\n`;
}

/** The template with one filled-in line: the example the docs and the OpenAPI document show. */
export function batchExampleCsv(delimiter: TemplateDelimiter = ';'): string {
  return `${batchTemplateCsv(delimiter)}${csvRow(
    batchColumns.map((column) => exampleLine[column]),
    delimiter,
  )}\r\n`;
}

function csvRow(cells: readonly string[], delimiter: TemplateDelimiter): string {
  return cells.map((cell) => quoteIfNeeded(cell, delimiter)).join(delimiter);
}

export const batchTemplateFileName = 'akwe-bulk-payments-template.csv';

function quoteIfNeeded(cell: string, delimiter: TemplateDelimiter): string {
  return /["\r\n]/.test(cell) || cell.includes(delimiter) ? `"${cell.replaceAll('"', '""')}"` : cell;
}
