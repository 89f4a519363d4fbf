// `node --import ./scripts/use-compiled-build.mjs`: refuses a missing or stale build (one older than a
// source file), then points src/ imports at dist/ (compiled-hooks.mjs).
import { register } from 'node:module';
import { haveBuild, sourcesNewerThanBuild } from '../bin/build-freshness.js';

if (!haveBuild() || sourcesNewerThanBuild()) {
  process.stderr.write('The compiled build (dist/) is missing or older than src/: run `npm run build` first.\n');
  process.exit(1);
}
register('./compiled-hooks.mjs', import.meta.url);
