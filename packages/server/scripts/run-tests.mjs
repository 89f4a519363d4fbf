// Runs every *.test.ts under test/ with Node's own test runner (TypeScript through tsx).
// With AKWE_TEST_COMPILED=1 (what `npm test` sets, after building), every import of src/ loads the
// compiled dist/ instead (use-compiled-build.mjs), and `akwe` child processes run dist/ too: the suite
// then tests the JavaScript production runs.
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
const compiled = process.env.AKWE_TEST_COMPILED === '1' ? ['--import', join(dirname(fileURLToPath(import.meta.url)), 'use-compiled-build.mjs')] : [];
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    ...compiled,
    '--test',
    `--test-concurrency=${concurrency}`,
    ...['--test-reporter=spec', '--test-reporter-destination=stdout'],
    ...[`--test-reporter=${skipSummary}`, '--test-reporter-destination=stdout'],
    ...files,
  ],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
