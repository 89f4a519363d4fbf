/**
 * Reconciliation against the pawaPay mock's wallet statement, on each database: live payments,
 * payouts and a refund go through the real connector to the mock; the mock's statement of them,
 * with one line removed, one added and one amount changed, gives exactly those three discrepancies
 * and matches the rest. The same file again records nothing more; a bad file records nothing; the
 * back office's routes (upload, list, read, download) and `akwe reconcile import` do the same.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { AkweError } from '../../src/core/errors/index.js';
import { DailyStatements, statementRoutes } from '../../src/core/reconciliation/daily-statements.js';
import { newId } from '../../src/core/shared/ids.js';
import { startOperatorMocks, type OperatorMocks } from '../../src/operators/mocks/operator-mocks.js';
import { pawapayMockStatement } from '../../src/operators/pawapay/mock/pawapay-mock-statement.js';
import { runAkwe, runAkweJson } from '../support/child-process.js';
import { mailedToken, PASSWORD, uniqueEmail } from '../support/dashboard.js';
import { eventually, operatorsFileFor, startLiveServer, type LiveServer, type LiveWire } from '../support/live-operators.js';
import { testDatabases, type OpenTestDatabase } from '../support/test-databases.js';

const UNKNOWN_TO_AKWE = '0193c5d2-ffff-7000-8000-00000000beef';

/** The statement's lines with one removed (a payment), one added (unknown to us), one amount changed (a payout). */
function alteredStatement(statement: string, removePaymentId: string, changePayoutId: string): string {
  const [header, ...lines] = statement.split('\r\n').filter((line) => line !== '');
  const kept = lines.filter((line) => !line.includes(removePaymentId)).map((line) => (line.includes(changePayoutId) ? line.replace(/,1000,XOF,/, ',1100,XOF,') : line));
  const extra = `${new Date().toISOString()},22899345789,${UNKNOWN_TO_AKWE},PP999,4200,XOF,TGO,MOOV_TGO,DEPOSIT`;
  return [header, ...kept, extra, ''].join('\r\n');
}

for (const target of testDatabases()) {
  describe(`reconciliation against the pawaPay mock on ${target.name}`, { skip: target.skip }, () => {
    let mocks: OperatorMocks;
    let db: OpenTestDatabase;
    let live: LiveServer;
    let dataDir: string;
    let operatorsFile: string;
    const startedAt = new Date(Date.now() - 1000).toISOString();
    const made = { payments: [] as LiveWire[], payouts: [] as LiveWire[] };
    let report = '';

    const completed = (path: string, wanted: string, what: string) =>
      eventually(async () => {
        const read = await live.api('GET', path);
        return read.body.status === wanted ? read.body : undefined;
      }, what);

    before(async () => {
      mocks = await startOperatorMocks({ pawapay: { decisionDelayMs: 60 } });
      operatorsFile = operatorsFileFor(mocks, 2_000, { first: 'pawapay', without: ['fedapay'] });
      dataDir = mkdtempSync(join(tmpdir(), 'akwe-reconciliation-'));
      db = await target.open();
      live = await startLiveServer({
        mocks,
        databaseUrl: db.url,
        operatorsFile,
        dataDir,
        balanceMinor: 5_000_000,
        settings: { RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' },
      });
      for (let i = 0; i < 3; i++) {
        const created = await live.api('POST', '/collect/payments', {
          reference: `REC-${newId()}`,
          amount: 3000 + i,
          currency: 'XOF',
          country: 'TG',
          mode: 'direct',
          operator: 'flooz_tg',
          customer: { phone: '99345789' },
        });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        made.payments.push(await completed(`/collect/payments/${created.body.reference}`, 'completed', 'a payment to complete'));
      }
      for (let i = 0; i < 2; i++) {
        const sent = await live.api('POST', '/payout/mobile-money/', { reference: `RECO-${newId()}`, amount: 100_000, phone: '99345789', country: 'TG', operator: 'flooz_tg' });
        assert.equal(sent.status, 201, JSON.stringify(sent.body));
        made.payouts.push(await completed(`/payout/mobile-money/${sent.body.reference}/`, 'COMPLETED', 'a payout to complete'));
      }
      const refund = await live.api('POST', `/collect/payments/${made.payments[0]!.reference}/refunds`, { amount: 1000 });
      assert.equal(refund.status, 201, JSON.stringify(refund.body));
      await eventually(async () => {
        const listed = (await live.api('GET', `/collect/payments/${made.payments[0]!.reference}/refunds`)).body.data as LiveWire[];
        return listed.find((r) => r.status === 'completed');
      }, 'the refund to complete');
      // Every movement of this suite, whichever UTC day it fell on.
      report = pawapayMockStatement(mocks.pawapay, { from: startedAt, to: '9999-12-31' });
    });

    after(async () => {
      await live?.close();
      await mocks?.close();
      await db?.close();
      if (operatorsFile) rmSync(join(operatorsFile, '..'), { recursive: true, force: true });
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    });

    const reconciliation = () => live.running.services.reconciliation;
    const runDiscrepancies = async (runId: string) =>
      (await live.running.services.discrepancies.list({ unresolvedOnly: false, limit: 1000 })).filter((d) => d.reconciliationRunId === runId);
    const countRows = async (table: 'reconciliation_runs' | 'operator_discrepancies' | 'reconciliation_lines') =>
      Number(
        (
          await db.database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it("the daily job fetches pawaPay's and Wave's statements of the day before through their APIs, once each", async () => {
      const services = live.running.services;
      const day = startedAt.slice(0, 10);
      const at = (hours: number) => ({ now: () => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000 + hours * 3_600_000) });
      const daily = (clock: { now: () => Date }) =>
        new DailyStatements({ reconciliation: services.reconciliation, routes: () => statementRoutes(services.catalog, services.operators), clock, settleHours: 3 });
      assert.deepEqual(
        statementRoutes(services.catalog, services.operators).map((route) => [route.route, route.fetches.length]),
        [
          ['pawapay', 3],
          ['wave', 1],
        ],
        "one pawaPay route, one wallet per country (Bénin, Togo, Côte d'Ivoire); Wave's one wallet",
      );
      assert.equal(await daily(at(2)).runDue(), 0, 'not before the settle hour');
      assert.equal(await daily(at(4)).runDue(), 2);
      const waveRun = (await services.reconciliation.listRuns({ route: 'wave', limit: 100 })).data.find((r) => r.source === 'scheduled' && r.periodStart.startsWith(day));
      assert.ok(waveRun, 'a scheduled run of the day for Wave, from its GET /v1/transactions');
      assert.equal(waveRun.counts.matched + waveRun.counts.missing_at_akwe, 0, 'no Wave traffic in this suite');
      const run = (await services.reconciliation.listRuns({ route: 'pawapay', limit: 100 })).data.find((r) => r.source === 'scheduled' && r.periodStart.startsWith(day));
      assert.ok(run, 'a scheduled run of the day');
      if (
        report.includes(`${day}T`) &&
        !report
          .split('\r\n')
          .slice(1, -1)
          .some((line) => line !== '' && !line.startsWith(day))
      ) {
        // Every movement fell on that day: all of them matched.
        assert.deepEqual(run.counts, { matched: 6, missing_at_provider: 0, missing_at_akwe: 0, amount_differs: 0, status_differs: 0 });
      }
      assert.equal(await daily(at(5)).runDue(), 0, 'a day with a run is not fetched again');
    });

    it('the unaltered statement matches every payment, payout and refund', async () => {
      assert.equal(report.split('\r\n').filter((line) => line !== '').length, 1 + 3 + 2 + 1, report);
      // The daily job's joined statements may be this very file: then its run is the answer.
      const { run } = await reconciliation().importReport({ provider: 'pawapay', text: report, source: 'cli', fileName: 'as-is.csv' });
      assert.deepEqual(run.counts, { matched: 6, missing_at_provider: 0, missing_at_akwe: 0, amount_differs: 0, status_differs: 0 });
      assert.equal(run.providerCollectedMinor, run.akweCollectedMinor);
      assert.equal(run.providerPaidOutMinor, run.akwePaidOutMinor);
      assert.equal(run.akwePaidOutMinor, 2 * 100_000 + 100_000);
    });

    it('one line removed, one added and one amount changed give exactly those three discrepancies', async () => {
      const removed = made.payments[2]!;
      const changed = made.payouts[1]!;
      const altered = alteredStatement(report, removed.id, changed.id);
      const { run } = await reconciliation().importReport({ provider: 'pawapay', text: altered, source: 'cli' });
      assert.deepEqual(run.counts, { matched: 4, missing_at_provider: 1, missing_at_akwe: 1, amount_differs: 1, status_differs: 0 });
      const found = await runDiscrepancies(run.id);
      assert.deepEqual(
        found.map((d) => [d.kind, d.resourceId, d.ourAmountMinor, d.operatorAmountMinor]).sort(),
        [
          ['amount_differs', changed.id, 100_000, 110_000],
          ['missing_at_akwe', null, null, 420_000],
          ['missing_at_provider', removed.id, removed.amount * 100, null],
        ].sort(),
      );
      assert.ok(found.every((d) => d.route === 'pawapay' && d.resolvedAt === null));
      const lines = (await reconciliation().getRun(run.id)).lines;
      assert.equal(lines.filter((line) => line.discrepancyId !== null).length, 3);

      // The same file again: its first run, nothing recorded twice.
      const before = { runs: await countRows('reconciliation_runs'), discrepancies: await countRows('operator_discrepancies') };
      const again = await reconciliation().importReport({ provider: 'pawapay', text: altered, source: 'cli' });
      assert.deepEqual([again.created, again.run.id], [false, run.id]);
      // Another file showing the same problems: a new run, the same three discrepancies.
      const another = await reconciliation().importReport({ provider: 'pawapay', text: `${altered}\r\n`, source: 'cli' });
      assert.equal(another.created, true);
      assert.deepEqual(another.run.counts, run.counts);
      assert.equal(await countRows('operator_discrepancies'), before.discrepancies);
      assert.equal(await countRows('reconciliation_runs'), before.runs + 1);
      const relinked = (await reconciliation().getRun(another.run.id)).lines.filter((line) => line.discrepancyId !== null).map((line) => line.discrepancyId);
      assert.deepEqual(relinked.sort(), found.map((d) => d.id).sort());
    });

    it('the same file imported three times at once makes one run', async () => {
      const text = `${alteredStatement(report, made.payments[0]!.id, made.payouts[0]!.id)}\r\n\r\n\r\n\r\n`;
      const before = await countRows('reconciliation_runs');
      const answers = await Promise.all([1, 2, 3].map(() => reconciliation().importReport({ provider: 'pawapay', text, source: 'cli' })));
      assert.equal(answers.filter((answer) => answer.created).length, 1);
      assert.equal(new Set(answers.map((answer) => answer.run.id)).size, 1);
      assert.equal(await countRows('reconciliation_runs'), before + 1);
      assert.equal(
        Number(
          (
            await db.database.db
              .selectFrom('reconciliation_lines')
              .select((eb) => eb.fn.countAll().as('n'))
              .where('run_id', '=', answers[0]!.run.id)
              .executeTakeFirstOrThrow()
          ).n,
        ),
        answers[0]!.run.lineCount + answers[0]!.run.counts.missing_at_provider,
      );
    });

    it('a bad file or an unknown provider is refused with nothing recorded', async () => {
      const before = { runs: await countRows('reconciliation_runs'), lines: await countRows('reconciliation_lines') };
      const broken = report.replace(/,DEPOSIT/, ',DEPOSITE');
      await assert.rejects(
        reconciliation().importReport({ provider: 'pawapay', text: broken, source: 'cli' }),
        (error: unknown) => error instanceof AkweError && error.code === 'invalid_report' && error.details?.[0]?.row === 2,
      );
      await assert.rejects(
        reconciliation().importReport({ provider: 'paypal', text: report, source: 'cli' }),
        (error: unknown) => error instanceof AkweError && error.code === 'unknown_provider',
      );
      assert.deepEqual({ runs: await countRows('reconciliation_runs'), lines: await countRows('reconciliation_lines') }, before);
    });

    it('the back office uploads a report, lists and reads its runs and downloads the report (administrators only)', async () => {
      const email = uniqueEmail('finance');
      const dashboard = (path: string, body: object) =>
        fetch(`${live.running.url}/api/v1/dashboard${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await dashboard('/auth/sign-up', { email, password: PASSWORD, name: 'Finance', merchant_name: 'Akwe Ops' });
      await dashboard('/auth/verify-email', { token: mailedToken(dataDir, email, 'verify-email') });
      const access = ((await (await dashboard('/auth/sign-in', { email, password: PASSWORD })).json()) as { access_token: string }).access_token;
      const admin = (path: string, init: RequestInit = {}) => fetch(`${live.running.url}/api/v1/admin${path}`, { ...init, headers: { authorization: `Bearer ${access}` } });
      const upload = (text: string, fields: Record<string, string>) => {
        const form = new FormData();
        for (const [name, value] of Object.entries(fields)) form.append(name, value);
        form.append('file', new Blob([text], { type: 'text/csv' }), 'statement.csv');
        return admin('/reconciliation-runs', { method: 'POST', body: form });
      };
      const text = `${alteredStatement(report, made.payments[2]!.id, made.payouts[1]!.id)}\r\n\r\n`;

      assert.equal((await upload(text, { provider: 'pawapay' })).status, 403, 'not an administrator yet');
      assert.equal(await live.running.services.platformAdmins.grant(email, 'cli'), true);

      const noProvider = await upload(text, {});
      assert.equal(noProvider.status, 400);
      assert.equal(((await noProvider.json()) as LiveWire).error.code, 'validation_error');
      const unknown = await upload(text, { provider: 'paypal' });
      assert.equal(((await unknown.json()) as LiveWire).error.code, 'unknown_provider');
      const bad = await upload('not,a,report\n1,2,3\n', { provider: 'pawapay' });
      assert.equal(bad.status, 400);
      assert.equal(((await bad.json()) as LiveWire).error.code, 'invalid_report');

      const noFile = new FormData();
      noFile.append('provider', 'pawapay');
      const withoutFile = await admin('/reconciliation-runs', { method: 'POST', body: noFile });
      assert.deepEqual([withoutFile.status, ((await withoutFile.json()) as LiveWire).error.field], [400, 'file']);
      const twoFiles = new FormData();
      twoFiles.append('provider', 'pawapay');
      twoFiles.append('file', new Blob([text]), 'a.csv');
      twoFiles.append('other', new Blob([text]), 'b.csv');
      assert.equal((await admin('/reconciliation-runs', { method: 'POST', body: twoFiles })).status, 400);
      // undici's request with a body written by hand, as the bulk upload suite: fetch fails on its side when the server answers before the body is sent.
      const boundary = 'akwe-reconciliation-boundary';
      const big = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="provider"\r\n\r\npawapay\r\n`),
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.csv"\r\nContent-Type: text/csv\r\n\r\n`),
        Buffer.alloc(5 * 1024 * 1024 + 10, 'x'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const tooLarge = await request(`${live.running.url}/api/v1/admin/reconciliation-runs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${access}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body: big,
      });
      assert.deepEqual([tooLarge.statusCode, ((await tooLarge.body.json()) as LiveWire).error.code], [413, 'payload_too_large']);
      const runsBefore = await countRows('reconciliation_runs');
      assert.equal(await countRows('reconciliation_runs'), runsBefore, 'nothing recorded from a refused upload');

      const first = await upload(text, { provider: 'pawapay' });
      assert.equal(first.status, 201);
      const imported = (await first.json()) as LiveWire;
      assert.deepEqual(
        [imported.already_imported, imported.run.matched_count, imported.run.missing_at_provider_count, imported.run.missing_at_akwe_count, imported.run.amounts_differ_count],
        [false, 4, 1, 1, 1],
      );
      const repeat = await upload(text, { provider: 'pawapay' });
      assert.equal(repeat.status, 200);
      assert.equal(((await repeat.json()) as LiveWire).already_imported, true);

      const list = (await (await admin('/reconciliation-runs?route=pawapay&limit=100')).json()) as LiveWire;
      assert.equal(list.data[0].id, imported.run.id, 'newest first');
      const one = (await (await admin(`/reconciliation-runs/${imported.run.id}`)).json()) as LiveWire;
      assert.equal(one.lines.length, 4 + 3);
      assert.equal((await admin(`/reconciliation-runs/${newId()}`)).status, 404);

      const download = await admin(`/reconciliation-runs/${imported.run.id}/report.csv?delimiter=semicolon`);
      assert.equal(download.status, 200);
      assert.match(download.headers.get('content-disposition') ?? '', /^attachment; filename="akwe-reconciliation-pawapay-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"$/);
      const bytes = Buffer.from(await download.arrayBuffer());
      assert.deepEqual([...bytes.subarray(0, 3)], [0xef, 0xbb, 0xbf], 'the semicolon variant starts with a byte order mark');
      const csv = bytes.subarray(3).toString('utf8');
      assert.ok(csv.startsWith('run;'));
      assert.match(csv, /\r\nmissing_at_akwe;1\r\n/);
      assert.match(csv, /\r\nposition;outcome;resource_type;/);
      assert.equal(csv.split('\r\n').filter((line) => /^\d+;/.test(line)).length, 7);
    });

    it('akwe reconcile import reads a file, and the same file again records nothing', async () => {
      const file = join(dataDir, 'pawapay-statement.csv');
      writeFileSync(file, `${report}\r\n\r\n\r\n`);
      const env = { DATABASE_URL: db.url, AKWE_DATA_DIR: dataDir };
      const printed = await runAkweJson<LiveWire>(['reconcile', 'import', 'pawapay', file, '--json'], { env, cwd: dataDir });
      assert.deepEqual([printed.matched_count, printed.already_imported, printed.file_name], [6, false, 'pawapay-statement.csv']);
      const again = await runAkwe(['reconcile', 'import', 'pawapay', file], { env, cwd: dataDir });
      assert.equal(again.code, 0, again.stderr);
      assert.match(again.stdout, /^already imported, nothing recorded again: run /);
      const refused = await runAkwe(['reconcile', 'import', 'paypal', file], { env, cwd: dataDir });
      assert.notEqual(refused.code, 0);
      assert.match(refused.stderr, /No report format for "paypal"/);
    });
  });
}
