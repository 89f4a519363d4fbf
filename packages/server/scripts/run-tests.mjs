// Runs every *.test.ts under test/ with Node's own test runner (TypeScript through tsx).
// PostgreSQL suites run only when AKWE_TEST_POSTGRES_URL is set; otherwise they report as skipped,
// and skip-summary-reporter.mjs ends the output with how many were skipped and why.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { availableParallelism } from 'node:os';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const only = process.argv.slice(2);
const files = only.length > 0 ? only : findTests('test').sort();
const skipSummary = join(dirname(fileURLToPath(import.meta.url)), 'skip-summary-reporter.mjs');
const concurrency = Math.max(2, availableParallelism());
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${concurrency}`,
    ...['--test-reporter=spec', '--test-reporter-destination=stdout'],
    ...[`--test-reporter=${skipSummary}`, '--test-reporter-destination=stdout'],
    ...files,
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
