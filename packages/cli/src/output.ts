/** What the commands print: short lines and tables for people, colour only on a terminal. */

/** Colour only for a terminal, and never when NO_COLOR is set (https://no-color.org). */
function paint(code: number, text: string): string {
  return process.stdout.isTTY && !process.env.NO_COLOR ? `\u001b[${code}m${text}\u001b[0m` : text;
}
export const green = (text: string) => paint(32, text);
export const red = (text: string) => paint(31, text);
export const dim = (text: string) => paint(2, text);

export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Rows as aligned columns, named by the first row's keys; `(none)` for no rows. */
export function table(rows: Record<string, string>[]): string {
  if (rows.length === 0) return '(none)';
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => r[c] ?? '')))].join('\n');
}

/** One object as `field  value` lines, or as JSON with --json. */
export function printObject(json: boolean | undefined, value: object): void {
  if (json) return say(JSON.stringify(value, null, 2));
  const entries = Object.entries(value);
  const width = Math.max(0, ...entries.map(([key]) => key.length));
  for (const [key, field] of entries) say(`${key.padEnd(width)}  ${typeof field === 'object' && field !== null ? JSON.stringify(field) : String(field)}`);
}

/** A list's rows as a table of `columns`, or the whole list as JSON with --json. */
export function printList(json: boolean | undefined, list: { data: readonly object[] }, columns: string[]): void {
  if (json) return say(JSON.stringify(list, null, 2));
  const cell = (value: unknown) => (value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value));
  say(table(list.data.map((row) => Object.fromEntries(columns.map((column) => [column, cell((row as Record<string, unknown>)[column])])))));
}
