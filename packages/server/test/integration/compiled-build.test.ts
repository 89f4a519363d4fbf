/**
 * The compiled build (dist/, what `npm start` and `npx akwe` run once `npm install` has built it):
 * the command says it runs the build, and a server started from it answers with its data files
 * (the operators' catalog, the checkout page's assets) in place. `npm test` runs every other file on
 * the build as well (AKWE_TEST_COMPILED=1); `npm run test:no-coverage` runs them on the sources.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freePort, runAkwe, startAkwe, waitForUrl, type AkweProcess } from '../support/child-process.js';

const buildScript = fileURLToPath(new URL('../../scripts/build.mjs', import.meta.url));
const fromBuild = { AKWE_FROM_SOURCE: '0' };

describe('the compiled build', () => {
  before(() => {
    // A compiled run (`npm test`) built it before starting, and the other files are loading it now.
    if (process.env.AKWE_TEST_COMPILED === '1') return;
    // Incremental: quick when `npm install` built it and nothing changed since.
    const build = spawnSync(process.execPath, [buildScript], { encoding: 'utf8' });
    assert.equal(build.status, 0, `the build failed:\n${build.stdout}\n${build.stderr}`);
  });

  it('is what this run imports for src/ when the run is a compiled one', () => {
    const where = process.env.AKWE_TEST_COMPILED === '1' ? '/dist/app.js' : '/src/app.ts';
    assert.ok(import.meta.resolve('../../src/app.js').endsWith(where), import.meta.resolve('../../src/app.js'));
  });

  it('is what the akwe command runs', async () => {
    const version = await runAkwe(['--version'], { env: fromBuild });
    assert.equal(version.code, 0, version.stderr);
    assert.match(version.stdout, /^\d+\.\d+\.\d+ \(compiled\)$/m);
    const help = await runAkwe(['--help'], { env: fromBuild });
    assert.match(help.stdout, /serve/);
  });

  describe('a server started from it', () => {
    let dataDir: string;
    let server: AkweProcess;
    let base: string;
    let key: string;

    before(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-compiled-'));
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      server = startAkwe(['serve'], { env: { ...fromBuild, AKWE_DEV: 'true', AKWE_DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: base }, cwd: dataDir });
      await waitForUrl(`${base}/ready`, { process: server });
      key = (await server.waitForStdout(/ak_test_[A-Za-z0-9_-]{43}/)).match(/ak_test_[A-Za-z0-9_-]{43}/)![0];
    });
    after(async () => {
      server.child.kill('SIGTERM');
      await server.exited;
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('collects a hosted payment whose checkout page loads its own assets', async () => {
      const created = await fetch(`${base}/api/v1/collect/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'compiled-1', 'content-type': 'application/json' },
        body: JSON.stringify({ reference: 'COMPILED-1', amount: 2500, currency: 'XOF', country: 'TG', mode: 'hosted', description: 'Abonnement' }),
      });
      assert.equal(created.status, 201, await created.clone().text());
      const payment = (await created.json()) as { checkout_url: string; status: string };
      assert.equal(payment.status, 'awaiting_payment');
      const page = await fetch(payment.checkout_url);
      assert.equal(page.status, 200);
      const stylesheet = (await page.text()).match(/href="([^"]+\.css[^"]*)"/)?.[1];
      assert.ok(stylesheet, 'the page links its stylesheet');
      assert.equal((await fetch(new URL(stylesheet, base))).status, 200);
    });

    it('serves the operators’ catalog read from its data file', async () => {
      const res = await fetch(`${base}/api/v1/payout/operators/`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.status, 200);
      const catalog = (await res.json()) as { countries: Array<{ code: string }> };
      assert.deepEqual(catalog.countries.map((c) => c.code).sort(), ['BJ', 'CI', 'TG']);
    });
  });
});
