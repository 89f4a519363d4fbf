/**
 * `akwe revenue`, run as a real child process on every database: the report of the API in JSON,
 * its CSV for a French Excel, the costs of PROVIDER_COSTS_FILE, and a clear exit 1 for a bad day
 * or a bad costs file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { feeFor } from '../../src/core/ledger/ledger.js';
import { collectClient, direct } from '../support/collect-client.js';
import { runAkwe, runAkweJson } from '../support/child-process.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const collectFee = (amountMinor: number) => feeFor(loadDefaultCatalog().findOperator('BJ', 'mtn_bj')!.collect.fee, amountMinor);

for (const target of testDatabases()) {
  describe(`akwe revenue on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dir: string;
    let env: Record<string, string>;
    // Yesterday to the day after toDay: the payment is in it even if midnight passes during the test.
    const fromDay = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const toDay = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'akwe-cli-revenue-'));
      writeFileSync(join(dir, 'costs.json'), JSON.stringify({ costs: { 'mtn_bj/sandbox': { collect: { percent_bps: 50, fixed_minor: 100 } } } }));
      t = await buildTestApp(target);
      const { testKey } = await t.newMerchant({ name: 'Boutique Adjoa' });
      await collectClient(t.app, testKey).createOk(direct({ amount: 3000 }));
      env = { DATABASE_URL: t.db.url, AKWE_DATA_DIR: dir, PROVIDER_COSTS_FILE: join(dir, 'costs.json') };
    });
    after(async () => {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('prints the report as the API gives it, with the costs of PROVIDER_COSTS_FILE', async () => {
      const report = await runAkweJson<{ rows: Record<string, unknown>[] }>(
        ['revenue', '--from', fromDay, '--to', toDay, '--group-by', 'route', '--environment', 'test', '--json'],
        { env, cwd: dir },
      );
      const fee = collectFee(300_000);
      assert.deepEqual(report.rows, [
        {
          operator: 'mtn_bj',
          route: 'sandbox',
          flow: 'collection',
          currency: 'XOF',
          fees_minor: fee,
          volume_minor: 300_000,
          transactions: 1,
          provider_costs_minor: 1_500 + 100,
          margin_minor: fee - 1_600,
          costs_complete: true,
        },
      ]);
      const live = await runAkweJson<{ environment: string; rows: unknown[] }>(['revenue', '--from', fromDay, '--to', toDay, '--json'], { env, cwd: dir });
      assert.deepEqual([live.environment, live.rows], ['live', []]);
    });

    it('prints the CSV for a French Excel', async () => {
      const csv = await runAkwe(['revenue', '--from', fromDay, '--to', toDay, '--environment', 'test', '--group-by', 'merchant', '--csv', 'semicolon'], { env, cwd: dir });
      assert.equal(csv.code, 0, csv.stderr);
      assert.ok(csv.stdout.startsWith('\ufeffmerchant_id;merchant_name;currency;fees_minor;'), csv.stdout);
      assert.match(csv.stdout, new RegExp(`;Boutique Adjoa;XOF;${collectFee(300_000)};300000;1;1600;`));
    });

    it('exits 1 with a clear message for a day that does not exist or a bad costs file', async () => {
      const badDay = await runAkwe(['revenue', '--from', '2026-02-30', '--to', toDay], { env, cwd: dir });
      assert.equal(badDay.code, 1);
      assert.match(badDay.stderr, /from must be a calendar day/);
      assert.doesNotMatch(badDay.stderr, /\n\s+at /, 'no stack trace');
      writeFileSync(join(dir, 'bad.json'), JSON.stringify({ costs: { 'mtn_bj/sandbox': { collect: { percent_bps: -1 } } } }));
      const badFile = await runAkwe(['revenue', '--from', fromDay, '--to', toDay], { env: { ...env, PROVIDER_COSTS_FILE: join(dir, 'bad.json') }, cwd: dir });
      assert.equal(badFile.code, 1);
      assert.match(badFile.stderr, /PROVIDER_COSTS_FILE .*costs\.mtn_bj\/sandbox\.collect\.percent_bps must be a whole number/);
    });
  });
}
