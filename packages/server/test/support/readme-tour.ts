/**
 * The README's "A short tour" as a script a test can run against a real server: the ```sh block,
 * the placeholder key and port replaced, and every curl recording the status it got.
 */
import { readDoc, sectionOf } from './markdown-sections.js';

/**
 * Lines that cannot run without a person at a screen, skipped by pattern. Keep this list tiny:
 * every other line of the tour runs. Each pattern must match exactly one line.
 */
export const headlessSkips: readonly RegExp[] = [/^xdg-open /];

const placeholderKey = 'ak_test_...';
/** The tour's one base URL, set once and used as `$AKWE_URL` by every command. */
const documentedBaseUrl = 'http://localhost:${PORT:-8080}';
/** What each curl writes to stderr after its answer, for the test to read back. */
export const statusLinePattern = /^HTTP (\d{3}) (\S+) (\S+)$/gm;

/** The commands of the tour's first ```sh block, as written in README.md. */
export function tourCommands(): string {
  const section = sectionOf(readDoc('README.md'), '## A short tour');
  const block = section.match(/^```sh\n([\s\S]*?)^```$/m);
  if (!block) throw new Error('README.md "A short tour" has no ```sh block');
  return block[1]!;
}

/** The tour made runnable: its key, its base URL, curl wrapped to stop on and record any answer. */
export function runnableTour(commands: string, key: string, baseUrl: string): { script: string; curlCalls: number; skipped: string[] } {
  if (!commands.includes(placeholderKey)) throw new Error(`the tour no longer sets its key with ${placeholderKey}`);
  if (!commands.includes(documentedBaseUrl)) throw new Error(`the tour no longer uses ${documentedBaseUrl}`);
  const skipped: string[] = [];
  const kept = commands.split('\n').filter((line) => {
    const skip = headlessSkips.some((pattern) => pattern.test(line));
    if (skip) skipped.push(line);
    return !skip;
  });
  const body = kept.join('\n').replace(placeholderKey, key).replace(documentedBaseUrl, baseUrl);
  const curlCalls =
    kept
      .filter((line) => !line.trimStart().startsWith('#'))
      .join('\n')
      .match(/\bcurl\s/g)?.length ?? 0;
  const script = [
    'set -euo pipefail',
    // --fail-with-body: a 4xx or 5xx stops the tour there (set -e), its error body in the output.
    'curl() { command curl -sS --fail-with-body -w "%{stderr}HTTP %{http_code} %{method} %{url_effective}\\n" "$@"; }',
    body,
  ].join('\n');
  return { script, curlCalls, skipped };
}
