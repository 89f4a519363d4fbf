#!/usr/bin/env node
// Runs the compiled build (dist/, made by `npm install` or `npm run build`). Where the sources are
// newer than the build, or AKWE_FROM_SOURCE=1, and tsx is installed (a development checkout), it
// runs the TypeScript sources through tsx instead, so an edit is never served stale.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = new URL('../dist/main.js', import.meta.url);
const stamp = fileURLToPath(new URL('../dist/build.json', import.meta.url));
const sources = fileURLToPath(new URL('../src/', import.meta.url));

function newestSourceTime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    newest = Math.max(newest, entry.isDirectory() ? newestSourceTime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

async function tsxRegister() {
  try {
    return (await import('tsx/esm/api')).register;
  } catch {
    return undefined;
  }
}

const haveBuild = existsSync(stamp) && existsSync(fileURLToPath(compiled));
const wantSource = process.env.AKWE_FROM_SOURCE === '1' || !haveBuild || (existsSync(sources) && newestSourceTime(sources) > statSync(stamp).mtimeMs);
const register = wantSource ? await tsxRegister() : undefined;
if (register) {
  process.env.AKWE_RUNNING_FROM = 'source';
  register();
  await import('../src/main.ts');
} else if (haveBuild) {
  process.env.AKWE_RUNNING_FROM = 'compiled';
  await import(compiled.href);
} else {
  process.stderr.write('akwe: no compiled build (dist/) and no tsx to run the sources: run `npm run build`.\n');
  process.exit(1);
}
