// The columns of a batch file: their English names (the item fields of the contract's bulk
// item), the French headings accepted for them, and the reading of a header row.
import { AkweError, type ErrorDetail } from '../errors/index.js';
import { metadataLimits } from '../shared/metadata.js';

export const batchColumns = ['beneficiary_name', 'phone', 'amount', 'currency', 'reference', 'country', 'operator', 'description'] as const;
export type BatchColumn = (typeof batchColumns)[number];

/**
 * A file must name these, the contract's line fields. `country` and `operator` may be left out:
 * an international number (+229…) gives the country, and the regulator's numbering plan the
 * operator (docs/bulk.md).
 */
export const requiredBatchColumns: readonly BatchColumn[] = ['beneficiary_name', 'phone', 'amount', 'currency', 'reference'];

/** Every accepted heading, in the compared form (see `comparableHeading`); the English name first. */
export const batchColumnHeadings: Readonly<Record<BatchColumn, readonly string[]>> = Object.freeze({
  beneficiary_name: ['beneficiary_name', 'beneficiary', 'nom_beneficiaire', 'nom_du_beneficiaire', 'beneficiaire', 'nom'],
  phone: ['phone', 'telephone', 'tel'],
  amount: ['amount', 'montant'],
  currency: ['currency', 'devise', 'monnaie'],
  reference: ['reference', 'ref'],
  country: ['country', 'pays'],
  operator: ['operator', 'operateur'],
  description: ['description', 'libelle', 'motif'],
});

/** A heading `metadata.<key>` (or `metadonnees.<key>`) carries the line's metadata value for <key>. */
const metadataPrefixes = ['metadata.', 'metadonnees.'];

/** Letter case, accents, surrounding spaces and inner spaces or dashes (`Nom bénéficiaire`) do not matter. */
export function comparableHeading(heading: string): string {
  return heading
    .trim()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

const columnOfHeading: ReadonlyMap<string, BatchColumn> = new Map(
  batchColumns.flatMap((column) => batchColumnHeadings[column].map((heading): [string, BatchColumn] => [heading, column])),
);

/** What one column of the file holds; undefined for a column with an empty heading (ignored). */
export type ColumnTarget = { kind: 'field'; column: BatchColumn } | { kind: 'metadata'; key: string };

/** The spreadsheet letter of a 0-based column index (0 -> A, 26 -> AA), so messages point at cells. */
export function columnLetter(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  return letters;
}

function metadataKey(heading: string): string | undefined {
  const trimmed = heading.trim();
  const dot = trimmed.indexOf('.');
  if (dot < 0 || !metadataPrefixes.includes(comparableHeading(trimmed.slice(0, dot + 1)))) return undefined;
  // The key keeps its letter case: metadata keys are the merchant's own data.
  return trimmed.slice(dot + 1).trim();
}

/**
 * Reads the header row. Every problem is collected (unknown, duplicated and missing columns,
 * metadata keys out of limits) and thrown as one `validation_error` whose details name them all.
 */
export function resolveBatchHeader(headings: readonly string[]): Array<ColumnTarget | undefined> {
  const problems: ErrorDetail[] = [];
  const seen = new Map<string, string>();
  const targets = headings.map((heading, index): ColumnTarget | undefined => {
    if (heading.trim() === '') return undefined;
    const where = `column ${columnLetter(index)}`;
    const key = metadataKey(heading);
    const column = key === undefined ? columnOfHeading.get(comparableHeading(heading)) : undefined;
    if (key === undefined && column === undefined) {
      problems.push({
        field: heading.trim(),
        message: `Unknown column "${heading.trim()}" (${where}); the columns are ${batchColumns.join(', ')} and metadata.<key> (docs/bulk.md lists the French headings).`,
      });
      return undefined;
    }
    if (key !== undefined && (key.length === 0 || key.length > metadataLimits.keyLength)) {
      problems.push({ field: heading.trim(), message: `Column "${heading.trim()}" (${where}): a metadata key has 1 to ${metadataLimits.keyLength} characters.` });
      return undefined;
    }
    const name = column ?? `metadata.${key}`;
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      problems.push({ field: name, message: `Column ${name} appears twice: "${earlier}" and "${heading.trim()}" (${where}).` });
      return undefined;
    }
    seen.set(name, heading.trim());
    return column !== undefined ? { kind: 'field', column } : { kind: 'metadata', key: key as string };
  });

  for (const column of requiredBatchColumns) {
    if (!seen.has(column)) {
      problems.push({ field: column, message: `Required column ${column} is missing (accepted headings: ${batchColumnHeadings[column].join(', ')}).` });
    }
  }
  const metadataColumns = targets.filter((target) => target?.kind === 'metadata').length;
  if (metadataColumns > metadataLimits.keys) {
    problems.push({ field: 'metadata', message: `At most ${metadataLimits.keys} metadata columns; the file has ${metadataColumns}.` });
  }
  if (problems.length > 0) {
    throw new AkweError('validation_error', `The header row has ${problems.length} problem(s): ${problems[0]!.message}`, { field: problems[0]!.field, details: problems });
  }
  return targets;
}
