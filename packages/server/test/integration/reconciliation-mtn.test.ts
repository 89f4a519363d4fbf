/**
 * Reconciliation against the MTN mock's partner report (the format Akwe defines for MTN), on each
 * database: live payments and a payout through the real MTN connector, then the mock's report of
 * them with one status changed (a payment MTN says failed) and one line removed (the payout):
 * exactly one status_differs and one missing_at_provider, the rest matched.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { startOperatorMocks, type OperatorMocks } from '../../src/operators/mocks/operator-mocks.js';
import { eventually, operatorsFileFor, startLiveServer, type LiveServer, type LiveWire } from '../support/live-operators.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`reconciliation against the MTN mock on ${target.name}`, { skip: target.skip }, () => {
    let mocks: OperatorMocks;
    let db: OpenTestDatabase;
    let live: LiveServer;
    let dataDir: string;
    let operatorsFile: string;

    before(async () => {
      mocks = await startOperatorMocks({ mtn: { decisionDelayMs: 50 } });
      operatorsFile = operatorsFileFor(mocks, 1_000, { first: 'mtn-momo' });
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-reconciliation-mtn-'));
      db = await target.open();
      live = await startLiveServer({ mocks, databaseUrl: db.url, operatorsFile, dataDir, balanceMinor: 5_000_000 });
    });

    after(async () => {
      await live?.close();
      await mocks?.close();
      await db?.close();
      if (operatorsFile) rmSync(join(operatorsFile, '..'), { recursive: true, force: true });
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    const completed = (path: string, wanted: string) =>
      eventually(async () => {
        const read = await live.api('GET', path);
        return read.body.status === wanted ? read.body : undefined;
      }, `${path} to be ${wanted}`);

    it('a status MTN reports differently and a line it lacks are the only discrepancies', async () => {
      const payments: LiveWire[] = [];
      for (let i = 0; i < 2; i++) {
        const created = await live.api('POST', '/collect/payments', {
          reference: `MTN-${newId()}`,
          amount: 2000,
          currency: 'XOF',
          country: 'BJ',
          mode: 'direct',
          operator: 'mtn_bj',
          customer: { phone: '0197000000' },
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        payments.push(await completed(`/collect/payments/${created.body.reference}`, 'completed'));
      }
      const sent = await live.api('POST', '/payout/mobile-money/', { reference: `MTNO-${newId()}`, amount: 100_000, phone: '0197000001', country: 'BJ', operator: 'mtn_bj' });
      assert.equal(sent.status, 201, JSON.stringify(sent.body));
      const payout = await completed(`/payout/mobile-money/${sent.body.reference}/`, 'COMPLETED');

      const days = [...new Set([...mocks.mtn.mtn_bj.transactions.values()].map((tx) => tx.createdAt.slice(0, 10)))];
      const reports = await Promise.all(days.map(async (day) => (await fetch(`${mocks.url}/mtn-bj/_mock/report?date=${day}`)).text()));
      const [header, ...lines] = reports.flatMap((text, index) => text.split('\r\n').filter((line) => line !== '' && (index === 0 || !line.startsWith('Date,'))));
      assert.equal(lines.length, 3, 'two collections and a transfer');
      const altered = [
        header,
        ...lines.filter((line) => !line.includes(payout.id)).map((line) => (line.includes(payments[1]!.id) ? line.replace(/,SUCCESSFUL$/, ',FAILED') : line)),
        '',
      ].join('\r\n');

      const { run } = await live.running.services.reconciliation.importReport({ provider: 'mtn-momo', text: altered, source: 'cli' });
      assert.equal(run.route, 'mtn-momo');
      assert.deepEqual(run.counts, { matched: 1, missing_at_provider: 1, missing_at_akwe: 0, amount_differs: 0, status_differs: 1 });
      const found = (await live.running.services.discrepancies.list({ unresolvedOnly: true, limit: 100 })).filter((d) => d.reconciliationRunId === run.id);
      assert.deepEqual(
        found.map((d) => [d.kind, d.resourceId, d.ourStatus, d.operatorStatus]).sort(),
        [
          ['missing_at_provider', payout.id, 'COMPLETED', 'absent'],
          ['status_differs', payments[1]!.id, 'completed', 'failed'],
        ].sort(),
      );
    });
  });
}
