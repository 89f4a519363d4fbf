// Whether dist/ holds a build at least as new as every file under src/ (a production image has no src/,
// so its build is always current). Shared by bin/akwe.js and the compiled test run.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const compiledEntry = new URL('../dist/main.js', import.meta.url);
const stamp = fileURLToPath(new URL('../dist/build.json', import.meta.url));
const sources = fileURLToPath(new URL('../src/', import.meta.url));

function newestFileTime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    newest = Math.max(newest, entry.isDirectory() ? newestFileTime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

export function haveBuild() {
  return existsSync(stamp) && existsSync(fileURLToPath(compiledEntry));
}

export function sourcesNewerThanBuild() {
  return existsSync(sources) && newestFileTime(sources) > statSync(stamp).mtimeMs;
}
