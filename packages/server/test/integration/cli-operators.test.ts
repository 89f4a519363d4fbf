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

  it('writes an operators file for both MTN companies, Wave and Orange, pointing at the running mocks', () => {
    const written = JSON.parse(readFileSync(file, 'utf8')) as Wire;
    assert.deepEqual(Object.keys(written.operators).sort(), ['mtn_bj', 'mtn_ci', 'orange_ci', 'wave_ci']);
    assert.equal(written.operators.orange_ci.connector, 'orange-money');
    assert.equal(written.operators.wave_ci.connector, 'wave');
    assert.equal(written.operators.mtn_bj.connector, 'mtn-momo');
    assert.equal(written.operators.mtn_ci.target_environment, 'mtnivorycoast');
    assert.match(mocks.stdout(), new RegExp(`listening on ${written.operators.mtn_bj.base_url.replace(/\/mtn-bj$/, '')}`));
  });

  it('checks every configured operator: a token and the balance of each MTN product, Wave’s balance', async () => {
    const result = await runAkweJson<Wire>(['operators', 'check', '--json'], { env: { OPERATORS_FILE: file } });
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.deepEqual(
      result.operators.map((o: Wire) => [o.operator, o.checks.map((c: Wire) => `${c.part}:${c.ok}`)]),
      [
        ['mtn_bj', ['collection:true', 'disbursement:true']],
        ['mtn_ci', ['collection:true', 'disbursement:true']],
        ['wave_ci', ['api key:true']],
        ['orange_ci', ['oauth token:true']],
      ],
    );
  });

  it('exits 1 naming the part that fails, and never prints a secret', async () => {
    const written = JSON.parse(readFileSync(file, 'utf8')) as Wire;
    written.operators.mtn_bj.disbursement.api_key = 'wrong-key-do-not-print';
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify(written));
    const result = await runAkwe(['operators', 'check'], { env: { OPERATORS_FILE: bad } });
    assert.equal(result.code, 1, result.stderr);
    // Each route on its own line: the operator, the route's label, its connector.
    assert.match(result.stdout, /mtn_bj\s+mtn_bj\/mtn-momo\s+mtn-momo\s+disbursement\s+FAILED/);
    assert.match(result.stdout, /mtn_bj\s+mtn_bj\/mtn-momo\s+mtn-momo\s+collection\s+ok/);
    assert.ok(!result.stdout.includes('wrong-key-do-not-print') && !result.stderr.includes('wrong-key-do-not-print'));
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
