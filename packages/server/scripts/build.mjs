// Builds the two packages the server runs on first, each to its own dist/: the SDK (packages/sdk),
// then the developer CLI (packages/cli, whose commands the server's `akwe` offers; it runs on the
// SDK). Then compiles src/ to dist/ (tsc with tsconfig.build.json) and copies the files the code
// reads at run time beside it (the catalog, the checkout page's assets, the checkpoint thread),
// bundles the dashboard's pages (packages/dashboard/build.mjs), then stamps the build so
// bin/akwe.js can tell a build older than the sources.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');

function filesUnder(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

if (process.argv.includes('--clean')) rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// Incremental, as the server's own compile: with nothing changed, no file of their dist/ is written
// again (a test run rebuilds while other test processes import those files).
for (const workspace of ['sdk', 'cli']) {
  const folder = join(root, '..', workspace);
  const options = ['-p', join(folder, 'tsconfig.build.json'), '--incremental', '--tsBuildInfoFile', join(folder, 'dist', '.tsbuildinfo')];
  const built = spawnSync(process.execPath, [tsc, ...options], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

for (const file of filesUnder(src).filter((path) => !path.endsWith('.ts'))) {
  const target = join(dist, relative(src, file));
  mkdirSync(dirname(target), { recursive: true });
  cpSync(file, target);
}
// The dashboard's pages (packages/dashboard), which the server serves at /dashboard and /admin.
const dashboard = spawnSync(process.execPath, [join(root, '..', 'dashboard', 'build.mjs')], { stdio: 'inherit' });
if (dashboard.status !== 0) process.exit(dashboard.status ?? 1);
writeFileSync(join(dist, 'build.json'), `${JSON.stringify({ builtAt: new Date().toISOString() })}\n`);
