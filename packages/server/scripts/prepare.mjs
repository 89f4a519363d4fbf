// `npm install` / `npm ci` at the repository root: build dist/ when TypeScript is installed (a
// development install). A production install (`--omit=dev`) has no compiler and builds nothing;
// it runs a dist/ built beforehand (the container's build stage, docs/deployment.md).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

try {
  createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  console.log('akwe: TypeScript is not installed (a production install): no build; dist/ must come from a build.');
  process.exit(0);
}
const build = spawnSync(process.execPath, [new URL('./build.mjs', import.meta.url).pathname], { stdio: 'inherit' });
process.exit(build.status ?? 1);
