/**
 * Reading our own docs in tests, so a test can hold a page to what the code does: a section's text
 * by its heading, and the first column of its tables.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));

export function readDoc(relativePath: string): string {
  return readFileSync(new URL(relativePath, `file://${repositoryRoot}`), 'utf8');
}

/** The text under `heading` (e.g. `## Event types`) up to the next heading of the same or a higher level. */
export function sectionOf(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) throw new Error(`no heading "${heading}"`);
  const level = heading.match(/^#+/)![0].length;
  const rest = lines.slice(start + 1);
  let inFence = false; // a `# comment` inside a ```sh block is not a heading
  const end = rest.findIndex((line) => {
    if (line.startsWith('```')) inFence = !inFence;
    return !inFence && /^#+ /.test(line) && line.match(/^#+/)![0].length <= level;
  });
  return (end < 0 ? rest : rest.slice(0, end)).join('\n');
}

/** The code-formatted value of the first cell of every table row (header and separator rows skipped). */
export function firstColumnCodes(section: string): string[] {
  return section.split('\n').flatMap((line) => {
    const cell = line.match(/^\|\s*`([^`]+)`\s*\|/);
    return cell ? [cell[1]!] : [];
  });
}
