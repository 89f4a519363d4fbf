/** Spectral's CLI from node_modules, run on a document with the repository's ruleset (no network). */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const RULESET = fileURLToPath(new URL('../../.spectral.yaml', import.meta.url));

function spectralBin(): string {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve('@stoplight/spectral-cli/package.json');
  const { bin } = JSON.parse(readFileSync(packageJson, 'utf8')) as { bin: Record<string, string> };
  return join(dirname(packageJson), bin.spectral!);
}

export interface SpectralResult {
  code: string;
  message: string;
  path: string[];
  /** 0 error, 1 warning, 2 information, 3 hint. */
  severity: number;
}

export async function spectralLint(document: object): Promise<SpectralResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'akwe-spectral-'));
  try {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(document, null, 2));
    const args = [spectralBin(), 'lint', file, '--ruleset', RULESET, '--format', 'json', '--quiet', '--fail-severity', 'error'];
    // Exit status 1 means errors were found: the JSON on stdout still says which.
    const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }).catch((error: { stdout?: string; stderr?: string }) => {
      if (!error.stdout) throw new Error(`spectral failed: ${error.stderr ?? String(error)}`);
      return { stdout: error.stdout };
    });
    return JSON.parse(stdout) as SpectralResult[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
