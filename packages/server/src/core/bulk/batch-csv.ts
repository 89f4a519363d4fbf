// Reads a batch CSV file row by row, as a stream: whatever the file's size, only the current
// chunk and row are in memory, and reading stops at the first limit passed. Parsing is
// csv-parse's (quotes, quoted delimiters and newlines, doubled quotes, CRLF or LF); this module
// adds what a spreadsheet export needs: the delimiter picked from the header row (French
// spreadsheets write semicolons), the encodings spreadsheets save in (batch-file-encoding.ts),
// headings by name in any order (batch-columns.ts), blank rows skipped, control characters in a
// cell reported as that line's problem, and the limits. docs/bulk.md describes the format.
import { Readable, pipeline } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { columnLetter, resolveBatchHeader, type BatchColumn, type ColumnTarget } from './batch-columns.js';
import { batchFileError as fileError, decodeBatchFile, saveAsCsvUtf8 } from './batch-file-encoding.js';
import type { BatchLineInput } from './batch-lines.js';
import type { BatchLineProblem } from './batch-problems.js';

export interface BatchCsvLimits {
  /** Payment lines per file (blank rows and the header do not count). */
  maxLines: number;
  /** Bytes of the file, BOM included. */
  maxBytes: number;
}

export const defaultBatchCsvLimits: Readonly<BatchCsvLimits> = Object.freeze({ maxLines: 10_000, maxBytes: 5 * 1024 * 1024 });

// No sensible header or row comes near these; past them the file is broken (an unclosed quote
// swallowing the rest of the file), and saying so early beats reading on to the byte limit.
const maxHeaderChars = 16 * 1024;
const maxRowBytes = 64 * 1024;

export interface BatchCsvRow {
  /** The row number a spreadsheet shows: the header is row 1, the first payment line row 2. */
  row: number;
  line: BatchLineInput;
  /** What was wrong with the row itself (a value in a column without heading). */
  problems: BatchLineProblem[];
}

export type BatchCsvSource = AsyncIterable<Buffer | Uint8Array | string> | Iterable<Buffer | Uint8Array | string>;

// Control characters have no place in a name, a number or a reference (tab, CR and LF excepted:
// a quoted cell may span lines). NUL also cannot be stored in PostgreSQL text.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const controlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * The rows of a batch file, one at a time. A problem with the file as a whole (encoding, CSV
 * syntax, header, no lines, too many lines) throws `validation_error`; a file over the byte limit
 * throws `payload_too_large`. Both carry `details` naming what is wrong. Problems with a line's
 * values are not this reader's business: batch-lines.ts checks them.
 */
export async function* readBatchCsv(source: BatchCsvSource, limits: Partial<BatchCsvLimits> = {}): AsyncGenerator<BatchCsvRow> {
  const { maxLines, maxBytes } = { ...defaultBatchCsvLimits, ...limits };
  const text = decodeBatchFile(source, maxBytes)[Symbol.asyncIterator]();
  let head: string;
  try {
    head = await readHeaderLine(text);
    const headerRow = head.split(/[\r\n]/, 1)[0] ?? '';
    if (controlCharacter.test(headerRow)) {
      throw fileError(`The first row holds control characters: this is not a CSV text file (or it is UTF-16 without a byte order mark). ${saveAsCsvUtf8}`);
    }
  } catch (error) {
    await text.return?.(undefined);
    throw error;
  }

  const parser = parse({
    delimiter: delimiterOf(head.split(/[\r\n]/, 1)[0] ?? ''),
    record_delimiter: ['\r\n', '\n', '\r'],
    bom: true,
    relax_column_count: true, // missing cells are empty ones; toRow reports values past the header
    relax_quotes: true, // a quote inside an unquoted cell (Kossi "Papa" Mensah) is text
    max_record_size: maxRowBytes,
    info: true,
  });
  // Errors reach the loop below through the parser, which pipeline destroys with them.
  pipeline(Readable.from(prepend(head, text)), parser, () => {});

  let columns: Array<ColumnTarget | undefined> | undefined;
  let lines = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { records: number } }>) {
      if (columns === undefined) {
        columns = resolveBatchHeader(record);
        continue;
      }
      // Spreadsheets leave blank rows (`;;;;`) behind; they still count in the row numbers.
      if (record.every((cell) => cell.trim() === '')) continue;
      lines += 1;
      if (lines > maxLines) throw fileError(`The file holds more than ${maxLines} payment lines, the limit of one batch; split it into several files.`);
      yield toRow(info.records, record, columns);
    }
  } catch (error) {
    throw error instanceof CsvError ? fileError(csvSyntaxMessage(error)) : error;
  } finally {
    parser.destroy();
  }
  if (columns === undefined) throw fileError('The file is empty: it needs a header row naming the columns, then one row per payment.');
  if (lines === 0) throw fileError('The file has no payment lines: after the header row, write one row per payment.');
}

/** The same reader over a file already in memory (a raw text/csv body). */
export function readBatchCsvText(content: string | Buffer, limits: Partial<BatchCsvLimits> = {}): AsyncGenerator<BatchCsvRow> {
  return readBatchCsv([typeof content === 'string' ? Buffer.from(content, 'utf8') : content], limits);
}

/** Semicolon when the header row holds more semicolons than commas (outside quotes), else comma. */
export function delimiterOf(headerLine: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of headerLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && char === ',') commas += 1;
    else if (!quoted && char === ';') semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
}

/** Reads text until the first line break (or the end), so the delimiter is known before parsing. */
async function readHeaderLine(text: AsyncIterator<string>): Promise<string> {
  let head = '';
  while (!/[\r\n]/.test(head)) {
    const next = await text.next();
    if (next.done) break;
    head += next.value;
    if (head.length > maxHeaderChars && !/[\r\n]/.test(head)) throw fileError(`The header row is longer than ${maxHeaderChars} characters; is this a CSV file?`);
  }
  return head;
}

async function* prepend(first: string, rest: AsyncIterator<string>): AsyncGenerator<string> {
  try {
    yield first;
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
  } finally {
    await rest.return?.(undefined); // stops reading the source when the reader stops early
  }
}

function toRow(row: number, record: readonly string[], columns: ReadonlyArray<ColumnTarget | undefined>): BatchCsvRow {
  const line: BatchLineInput = {};
  const metadata: Array<[string, string]> = [];
  const problems: BatchLineProblem[] = [];
  record.forEach((raw, index) => {
    const cell = raw.trim();
    if (cell === '') return; // an empty cell is an absent value
    const target = columns[index];
    const control = controlCharacter.exec(cell);
    if (control !== null) {
      const name = target === undefined ? undefined : target.kind === 'metadata' ? `metadata.${target.key}` : target.column;
      const code = `U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
      problems.push({
        row,
        field: name ?? `column ${columnLetter(index)}`,
        code: 'validation_error',
        message: `Column ${columnLetter(index)}${name ? ` (${name})` : ''} holds a control character (${code}); retype the cell.`,
      });
      return; // the value is unreadable: not checked further, nor reported as missing
    }
    if (target === undefined) {
      problems.push({
        row,
        field: `column ${columnLetter(index)}`,
        code: 'validation_error',
        message: `Column ${columnLetter(index)} holds "${cell.slice(0, 40)}" but has no heading.`,
      });
    } else if (target.kind === 'metadata') {
      metadata.push([target.key, cell]);
    } else {
      line[fieldOfColumn[target.column]] = cell;
    }
  });
  // fromEntries makes every key an own property, even one named __proto__.
  if (metadata.length > 0) line.metadata = Object.fromEntries(metadata);
  return { row, line, problems };
}

const fieldOfColumn = {
  beneficiary_name: 'beneficiaryName',
  phone: 'phone',
  amount: 'amount',
  currency: 'currency',
  reference: 'reference',
  country: 'country',
  operator: 'operator',
  description: 'description',
} as const satisfies Record<BatchColumn, keyof Omit<BatchLineInput, 'metadata'>>;

function csvSyntaxMessage(error: CsvError): string {
  if (error.code === 'CSV_MAX_RECORD_SIZE') return `A row is larger than ${maxRowBytes} bytes (a quote opened and never closed?); ${error.message}.`;
  return `The file is not valid CSV: ${error.message}.`;
}
