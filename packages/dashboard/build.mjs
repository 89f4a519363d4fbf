// Bundles the dashboard (src/main.tsx and its stylesheet) into dist/ under content-hashed names, and
// writes dist/manifest.json naming them: the server reads the manifest to build its page shell, and
// serves the files for a year (a new build has new names). Pages loaded with import() (the back
// office's) become chunks of their own, listed in the manifest as `chunks`.
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
  chunkNames: 'chunk.[hash]',
  splitting: true,
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
const outputs = Object.entries(result.metafile.outputs).filter(([path]) => !path.endsWith('.map'));
// import() targets are entry points too: the dashboard's own is the one of src/main.tsx.
const entry = outputs.find(([, output]) => output.entryPoint?.endsWith('src/main.tsx'));
const manifest = {
  js: entry && basename(entry[0]),
  /** The chunks the entry imports at once: the page shell preloads them beside it. */
  preload: (entry?.[1].imports ?? []).filter((imported) => imported.kind === 'import-statement').map((imported) => basename(imported.path)),
  css: outputs.map(([path]) => basename(path)).find((name) => name.endsWith('.css')),
  chunks: outputs.map(([path]) => basename(path)).filter((name) => name.startsWith('chunk.') && name.endsWith('.js')),
};
if (!manifest.js || !manifest.css) throw new Error(`dashboard build: expected one entry .js and one .css, got ${outputs.map(([path]) => path).join(', ')}`);
writeFileSync(join(dist, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
console.log(`dashboard: ${manifest.js}, ${manifest.css}`);
