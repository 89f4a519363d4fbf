// Bundles the dashboard (src/main.tsx and its stylesheet) into dist/ under content-hashed names, and
// writes dist/manifest.json naming them: the server reads the manifest to build its page shell, and
// serves the files for a year (a new build has new names).
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
rmSync(dist, { recursive: true, force: true });
const result = await build({
  entryPoints: { dashboard: join(root, 'src/main.tsx') },
  outdir: dist,
  entryNames: '[name].[hash]',
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2020',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});
const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
const manifest = { js: outputs.find((name) => name.endsWith('.js')), css: outputs.find((name) => name.endsWith('.css')) };
if (!manifest.js || !manifest.css) throw new Error(`dashboard build: expected one .js and one .css, got ${outputs.join(', ')}`);
writeFileSync(join(dist, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
console.log(`dashboard: ${manifest.js}, ${manifest.css}`);
