/**
 * The SDK's sources use only what every runtime has (fetch, WebCrypto, TextEncoder, atob/btoa,
 * AbortController, setTimeout): no `node:` import, no Node global, no runtime dependency.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const sdkRoot = fileURLToPath(new URL('..', import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Node-only APIs, as they would appear in code. */
const nodeOnly: Array<[string, RegExp]> = [
  ['a node: import', /from\s+['"]node:|import\(\s*['"]node:|require\(/],
  ['a Node built-in imported by its bare name', /from\s+['"](fs|path|crypto|http|https|url|util|stream|buffer|events|os|net|child_process)['"]/],
  ['Buffer', /\bBuffer\b/],
  ['process', /\bprocess\./],
  ['__dirname or __filename', /\b__(dirname|filename)\b/],
  ['setImmediate', /\bsetImmediate\b/],
];

describe('runtime-neutral sources', () => {
  const files = sourceFiles(join(sdkRoot, 'src'));

  it('finds the sources it checks', () => {
    assert.ok(files.some((file) => file.endsWith('transport.ts')) && files.some((file) => file.endsWith('webhooks.ts')), files.join('\n'));
  });

  it('use no Node-only API in src/', () => {
    const found: string[] = [];
    for (const file of files) {
      const lines = readFileSync(file, 'utf8').split('\n');
      lines.forEach((line, index) => {
        for (const [what, pattern] of nodeOnly) if (pattern.test(line)) found.push(`${file.slice(sdkRoot.length)}:${index + 1}: ${what}: ${line.trim()}`);
      });
    }
    assert.deepEqual(found, []);
  });

  it('has no runtime dependency', () => {
    const manifest = JSON.parse(readFileSync(join(sdkRoot, 'package.json'), 'utf8'));
    assert.deepEqual(manifest.dependencies ?? {}, {});
    assert.deepEqual(manifest.peerDependencies ?? {}, {});
  });
});
