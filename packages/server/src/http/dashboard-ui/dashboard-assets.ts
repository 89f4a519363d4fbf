/**
 * The dashboard's built files (packages/dashboard/dist: `npm run build -w @akwe/dashboard`, which
 * the server's build runs too), read once at start. Missing (a source checkout never built): the
 * pages answer 503 with how to build them, and the API keeps working.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface DashboardAsset {
  name: string;
  contentType: string;
  body: Buffer;
}

export interface DashboardAssets {
  js: DashboardAsset;
  css: DashboardAsset;
  /** The chunks the script imports at once (the shell preloads them). */
  preload: string[];
  byName: Map<string, DashboardAsset>;
}

/** packages/dashboard/dist, from src/http/dashboard-ui or dist/http/dashboard-ui alike. */
export const DEFAULT_DASHBOARD_DIST = fileURLToPath(new URL('../../../../dashboard/dist/', import.meta.url));

export function loadDashboardAssets(dist = DEFAULT_DASHBOARD_DIST): DashboardAssets | undefined {
  const manifestPath = `${dist}/manifest.json`;
  if (!existsSync(manifestPath)) return undefined;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { js: string; css: string; preload?: string[]; chunks?: string[] };
  const read = (name: string, contentType: string): DashboardAsset => ({ name, contentType, body: readFileSync(`${dist}/${name}`) });
  const script = 'text/javascript; charset=utf-8';
  const js = read(manifest.js, script);
  const css = read(manifest.css, 'text/css; charset=utf-8');
  // Chunks: the pages loaded with import() and the code they share with the script.
  const chunks = (manifest.chunks ?? []).map((name) => read(name, script));
  return { js, css, preload: manifest.preload ?? [], byName: new Map([js, css, ...chunks].map((asset) => [asset.name, asset])) };
}
