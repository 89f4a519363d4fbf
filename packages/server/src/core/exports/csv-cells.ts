/**
 * CSV text for spreadsheets (docs/exports.md "File format"): RFC 4180 quoting, CRLF line ends, and
 * formula escaping so a merchant's own text (a reference, a description) can never run as a
 * formula when the file is opened in Excel, LibreOffice or Google Sheets.
 */

/** A cell: text (escaped), an integer we wrote ourselves (never escaped), or nothing (empty). */
export type Cell = string | number | null;

/** What a spreadsheet reads as the start of a formula (tab and carriage return included, as OWASP advises). */
const formulaStart = /^[=+\-@\t\r]/;

/** A text cell starting like a formula gets a leading apostrophe: spreadsheets then show it as text. */
export function escapeFormula(text: string): string {
  return formulaStart.test(text) ? `'${text}` : text;
}

/** One field: quoted when it holds a comma, a double quote or a line break (quotes doubled). */
export function csvField(cell: Cell): string {
  if (cell === null) return '';
  // Our amounts are integers: "-2537500" is a number, not a formula, so it is written as is.
  if (typeof cell === 'number') return String(cell);
  const text = escapeFormula(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, ending in CRLF. */
export function csvLine(cells: readonly Cell[]): string {
  return `${cells.map(csvField).join(',')}\r\n`;
}
