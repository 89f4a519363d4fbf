/**
 * `akwe mocks` and `akwe operators check`, run as a person would: the mocks write an operators
 * file, and the check asks each configured operator for a token and its balance. No database.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runAkwe, runAkweJson, startAkwe, type AkweProcess } from '../support/child-process.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('akwe mocks and akwe operators check', () => {
  let dir: string;
  let mocks: AkweProcess;
  let file: string;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'akwe-cli-operators-'));
    file = join(dir, 'operators.json');
    mocks = startAkwe(['mocks', '--port', '0', '--operators-file', file]);
    await mocks.waitForStdout(/operators file written/);
  });
  after(async () => {
    mocks.child.kill('SIGTERM');
    await mocks.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  /** Each operator's routes in the written file, in order: its own API first, then FedaPay, then pawaPay. */
  const expectedRoutes: Record<string, string[]> = {
    mtn_bj: ['mtn-momo', 'pawapay'],
    moov_bj: ['fedapay', 'pawapay'],
    celtiis_bj: ['fedapay'],
    tmoney_tg: ['fedapay'],
    flooz_tg: ['fedapay', 'pawapay'],
    orange_ci: ['orange-money', 'pawapay'],
    mtn_ci: ['mtn-momo', 'pawapay'],
    moov_ci: ['pawapay'],
    wave_ci: ['wave', 'pawapay'],
  };
  const routesOf = (entry: Wire): Wire[] => (Array.isArray(entry) ? entry : [entry]);

  it('writes an operators file routing all nine catalog operators to the running mocks, direct routes first', () => {
    const written = JSON.parse(readFileSync(file, 'utf8')) as Wire;
    assert.deepEqual(Object.keys(written.operators).sort(), Object.keys(expectedRoutes).sort());
    for (const [slug, connectors] of Object.entries(expectedRoutes)) {
      assert.deepEqual(
        routesOf(written.operators[slug]).map((route) => route.connector),
        connectors,
        slug,
      );
    }
    for (const slug of ['moov_bj', 'celtiis_bj', 'tmoney_tg', 'flooz_tg']) {
      const fedapay = routesOf(written.operators[slug])[0]!;
      assert.match(fedapay.base_url, /\/fedapay$/);
      assert.equal(fedapay.webhook_secrets.length, 1);
    }
    written.operators.wave_ci = routesOf(written.operators.wave_ci)[0];
    written.operators.mtn_bj = routesOf(written.operators.mtn_bj)[0];
    written.operators.mtn_ci = routesOf(written.operators.mtn_ci)[0];
    assert.equal(written.operators.wave_ci.connector, 'wave');
    assert.equal(written.operators.mtn_bj.connector, 'mtn-momo');
    assert.equal(written.operators.mtn_ci.target_environment, 'mtnivorycoast');
    assert.match(mocks.stdout(), new RegExp(`listening on ${written.operators.mtn_bj.base_url.replace(/\/mtn-bj$/, '')}`));
  });

  it('checks every configured route: a token and a balance from each', async () => {
    const result = await runAkweJson<Wire>(['operators', 'check', '--json'], { env: { OPERATORS_FILE: file } });
    assert.equal(result.ok, true, JSON.stringify(result));
    const routes = result.operators as Wire[];
    assert.deepEqual(
      routes.map((o) => o.route as string).sort(),
      Object.entries(expectedRoutes)
        .flatMap(([slug, connectors]) => connectors.map((connector) => `${slug}/${connector}`))
        .sort(),
    );
    for (const route of routes) {
      assert.ok((route.checks as Wire[]).length > 0, route.route as string);
      assert.ok(
        (route.checks as Wire[]).every((check) => check.ok === true),
        JSON.stringify(route),
      );
    }
  });

  it('exits 1 naming the part that fails, and never prints a secret', async () => {
    const written = JSON.parse(readFileSync(file, 'utf8')) as Wire;
    routesOf(written.operators.mtn_bj)[0]!.disbursement.api_key = 'wrong-key-do-not-print';
    routesOf(written.operators.flooz_tg)[0]!.api_key = 'sk_live_wrong-fedapay-key-do-not-print';
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify(written));
    const result = await runAkwe(['operators', 'check'], { env: { OPERATORS_FILE: bad } });
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /mtn_bj\s+mtn_bj\/mtn-momo\s+mtn-momo\s+disbursement\s+FAILED/);
    assert.match(result.stdout, /mtn_bj\s+mtn_bj\/mtn-momo\s+mtn-momo\s+collection\s+ok/);
    assert.match(result.stdout, /flooz_tg\s+flooz_tg\/fedapay\s+fedapay\s+secret key\s+FAILED/);
    assert.match(result.stdout, /tmoney_tg\s+tmoney_tg\/fedapay\s+fedapay\s+secret key\s+ok/);
    for (const secret of ['wrong-key-do-not-print', 'wrong-fedapay-key-do-not-print']) assert.ok(!result.stdout.includes(secret) && !result.stderr.includes(secret));
  });

  it('refuses to start with every problem of a broken operators file listed', async () => {
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, JSON.stringify({ operators: { mtn_zz: {}, mtn_bj: { connector: 'mtn-momo' } } }));
    const result = await runAkwe(['operators', 'check'], { env: { OPERATORS_FILE: broken } });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /mtn_zz is not an operator slug/);
    assert.match(result.stderr, /mtn_bj must have required property 'base_url'/);
  });
});
