// Module resolution hook for running the test suite against the compiled build: every import that
// resolves to a TypeScript source under src/ loads its compiled twin under dist/ instead, so the
// tests exercise exactly the JavaScript that production runs. Test files themselves stay TypeScript.
const sources = new URL('../src/', import.meta.url).href;
const compiled = new URL('../dist/', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  if (!resolved.url.startsWith(sources) || !resolved.url.endsWith('.ts')) return resolved;
  return { ...resolved, url: `${compiled}${resolved.url.slice(sources.length, -'.ts'.length)}.js`, format: 'module' };
}
