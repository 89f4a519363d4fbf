/**
 * CSV text for spreadsheets (docs/exports.md "File format"): RFC 4180 quoting, CRLF line ends, and
 * formula escaping so a merchant's own text (a reference, a description) can never run as a
 * formula when the file is opened in Excel, LibreOffice or Google Sheets, whichever delimiter the
 * spreadsheet splits on.
 */

/** A cell: text (escaped), an integer we wrote ourselves (never escaped), or nothing (empty). */
export type Cell = string | number | null;

/**
 * How a file separates its fields. The comma is RFC 4180's; the semicolon is what Excel splits on in
 * French (its list separator), and such a file starts with a UTF-8 byte order mark, without which
 * Excel reads it in the computer's legacy code page and garbles accented names.
 */
export interface CsvDialect {
  delimiter: ',' | ';';
  byteOrderMark: boolean;
}

export const csvDialects = {
  comma: { delimiter: ',', byteOrderMark: false },
  semicolon: { delimiter: ';', byteOrderMark: true },
} as const satisfies Record<string, CsvDialect>;

export type CsvDialectName = keyof typeof csvDialects;

/** What a spreadsheet reads as the start of a formula (tab and carriage return included, as OWASP advises). */
const formulaStart = /^[=+\-@\t\r]/;

/**
 * A formula start right after either delimiter (a quote may stand between): a spreadsheet that
 * splits on the other delimiter than the file's (French Excel opening a comma file, or the reverse)
 * would see a new cell there, starting a formula.
 */
const formulaAfterDelimiter = /([,;]"?)(?=[=+\-@\t\r])/g;

/**
 * A text cell that would start a formula, at its start or after any comma or semicolon in it, gets
 * an apostrophe there: spreadsheets then show that part as text.
 */
export function escapeFormula(text: string): string {
  const inside = text.replace(formulaAfterDelimiter, "$1'");
  return formulaStart.test(inside) ? `'${inside}` : inside;
}

/**
 * One field: quoted when it holds a comma, a semicolon, a double quote or a line break (quotes
 * doubled). Both delimiters are quoted whatever the file's, so a spreadsheet splitting on the other
 * one keeps the cell together where it honours quotes.
 */
export function csvField(cell: Cell): string {
  if (cell === null) return '';
  // Our amounts are integers: "-2537500" is a number, not a formula, so it is written as is.
  if (typeof cell === 'number') return String(cell);
  const text = escapeFormula(cell);
  return /[",;\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, ending in CRLF. */
export function csvLine(cells: readonly Cell[], dialect: CsvDialect = csvDialects.comma): string {
  return `${cells.map(csvField).join(dialect.delimiter)}\r\n`;
}

/** What a file starts with before its header line: the byte order mark where the dialect has one. */
export function csvPreamble(dialect: CsvDialect): string {
  return dialect.byteOrderMark ? '\ufeff' : '';
}
