/**
 * What an install brings. A production install (`npm ci --omit=dev`) holds no development tool and
 * runs no install script but better-sqlite3's build; no package of the lockfile, development ones
 * included, asks for a Node version we support but it does not (npm would warn on a fresh install).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import semver from 'semver';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));

interface PackageJson {
  name: string;
  version: string;
  scripts?: Record<string, string>;
  gypfile?: boolean;
  engines?: { node?: string };
}

/** Names no production install should hold: compilers, test and lint tools, pretty printers, types. */
const developmentTools = [
  /^typescript$/,
  /^tsx$/,
  /^esbuild$/,
  /^@esbuild\//,
  /^eslint/,
  /^@eslint\//,
  /^typescript-eslint$/,
  /^@typescript-eslint\//,
  /^@types\//,
  /^@stoplight\//,
  /^@redocly\//,
  /^@apidevtools\//,
  /^playwright/,
  /^fast-check$/,
  /^autocannon$/,
  /^openapi-typescript$/,
  /^pino-pretty$/,
  /^@scarf\/scarf$/,
];

/** The one production package allowed to run a script at install: it builds its native module. */
const allowedInstallScripts = new Set(['better-sqlite3']);

async function productionPackages(): Promise<PackageJson[]> {
  const { stdout } = await promisify(execFile)('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: repositoryRoot, maxBuffer: 16 * 1024 * 1024 });
  const dirs = [...new Set(stdout.split('\n').filter((line) => line.includes('node_modules')))];
  return dirs.map((dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson);
}

describe('dependencies', () => {
  it('a production install holds no development tool', async () => {
    const names = (await productionPackages()).map((pkg) => pkg.name);
    assert.ok(names.includes('fastify') && names.includes('better-sqlite3'), `the production tree looks wrong: ${names.length} packages`);
    assert.deepEqual(
      names.filter((name) => developmentTools.some((tool) => tool.test(name))),
      [],
    );
  });

  it('a production install runs no install script but better-sqlite3’s', async () => {
    const withScripts = (await productionPackages()).filter(
      (pkg) => pkg.gypfile === true || ['preinstall', 'install', 'postinstall'].some((script) => pkg.scripts?.[script] !== undefined),
    );
    assert.deepEqual(
      withScripts.map((pkg) => pkg.name).filter((name) => !allowedInstallScripts.has(name)),
      [],
    );
  });

  it('no package of the lockfile refuses a Node version the project supports (no engine warning on install)', () => {
    const lock = JSON.parse(readFileSync(join(repositoryRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, PackageJson & { engines?: { node?: string } }> };
    const { engines } = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as PackageJson;
    // The oldest release of each line we support (20.19.0 of ">=20.19 <21 || >=22.13"), and this one.
    const oldest = engines!.node!.split('||').map((part) => semver.minVersion(part)!.version);
    const supported = [...oldest, process.version];
    assert.ok(oldest.length >= 2, `the project's own engines: ${engines!.node}`);
    const refusing = Object.entries(lock.packages).flatMap(([path, pkg]) => {
      const range = pkg.engines?.node;
      if (!path || range === undefined) return [];
      const refused = supported.filter((version) => !semver.satisfies(version, range, { includePrerelease: true }));
      return refused.length > 0 ? [`${path} (node ${range}) refuses ${refused.join(', ')}`] : [];
    });
    assert.deepEqual(refusing, []);
  });
});
