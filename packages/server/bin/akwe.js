#!/usr/bin/env node
// Runs the compiled build (dist/, made by `npm install` or `npm run build`). Where the sources are
// newer than the build, or AKWE_FROM_SOURCE=1, and tsx is installed (a development checkout), it
// runs the TypeScript sources through tsx instead, so an edit is never served stale.
import { compiledEntry, haveBuild, sourcesNewerThanBuild } from './build-freshness.js';

async function tsxRegister() {
  try {
    return (await import('tsx/esm/api')).register;
  } catch {
    return undefined;
  }
}

const built = haveBuild();
const wantSource = process.env.AKWE_FROM_SOURCE === '1' || !built || sourcesNewerThanBuild();
const register = wantSource ? await tsxRegister() : undefined;
if (register) {
  process.env.AKWE_RUNNING_FROM = 'source';
  register();
  await import('../src/main.ts');
} else if (built) {
  process.env.AKWE_RUNNING_FROM = 'compiled';
  await import(compiledEntry.href);
} else {
  process.stderr.write('akwe: no compiled build (dist/) and no tsx to run the sources: run `npm run build`.\n');
  process.exit(1);
}
