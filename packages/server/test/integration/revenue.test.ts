/**
 * Platform revenue (docs/operations.md "Revenue") on every database: payments, payouts (one
 * failed), a refund, a wallet settlement, a transfer and a fee given back, across merchants,
 * operators, routes and days, in test and in live (two live routes of MTN Bénin). The report's
 * totals are the fees accounts' movement read straight from the ledger, in every grouping; costs
 * and margins follow PROVIDER_COSTS_FILE to the centime; the CSV keeps the exports' rules; bad
 * queries are 400 validation_error and the routes are for platform administrators only.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { feeFor } from '../../src/core/ledger/ledger.js';
import { newId } from '../../src/core/shared/ids.js';
import { LedgerRepository } from '../../src/storage/repositories/ledger-repository.js';
import { OperatorRegistry } from '../../src/operators/operator-registry.js';
import { SandboxLedger } from '../../src/operators/sandbox/sandbox-ledger.js';
import { SandboxOperator } from '../../src/operators/sandbox/sandbox-operator.js';
import { collectClient, direct } from '../support/collect-client.js';
import { dashboardCall, newOwner } from '../support/dashboard.js';
import { FakeClock } from '../support/fake-clock.js';
import { assertBooksBalance } from '../support/ledger-invariants.js';
import { insertSettlementAccount } from '../support/settlements.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const catalog = loadDefaultCatalog();
const collectFee = (amountMinor: number) => feeFor(catalog.findOperator('BJ', 'mtn_bj')!.collect.fee, amountMinor);
const payoutFee = (amountMinor: number) => feeFor(catalog.findOperator('BJ', 'mtn_bj')!.payout.fee, amountMinor);
const DAY_MS = 86_400_000;
const PERIOD = 'from=2026-11-01&to=2026-11-04';

const costsFile = {
  costs: {
    'mtn_bj/sandbox': { collect: { percent_bps: 80, fixed_minor: 0 }, payout: { percent_bps: 30, fixed_minor: 2500 } },
    'mtn_bj/momo-b': { collect: { percent_bps: 100 } },
    'mtn_bj/momo-a': { payout: { fixed_minor: 4000 } },
  },
};

for (const target of testDatabases()) {
  describe(`platform revenue on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let dir: string;
    let adminAccess: string;
    let ownerAccess: string;
    const clock = new FakeClock(new Date('2026-11-01T10:00:00.000Z'));
    const merchants: Record<'a' | 'b' | 'live', { merchantId: string; testKey: string; liveKey: string }> = {} as never;
    /** The collection given back a fee (day 3): its payment and fee. */
    let reversed: { paymentId: string; feeMinor: number };

    const send = (key: string, method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${key}`, ...(method === 'POST' ? { 'idempotency-key': newId() } : {}) },
        ...(payload ? { payload } : {}),
      });
    const created = async (key: string, url: string, payload: object) => {
      const res = await send(key, 'POST', url, payload);
      assert.ok(res.statusCode === 200 || res.statusCode === 201, res.body);
      return res.json() as Wire;
    };
    const payout = (key: string, amount: number, phone = '0197000000') =>
      created(key, '/payout/mobile-money/', { amount, phone, country: 'BJ', operator: 'mtn_bj', reference: `P-${newId()}` });
    /** What the workers do: hand the payouts off, ask about them (after their check interval), follow the settlements. */
    const work = async () => {
      for (let round = 0; round < 5; round++) {
        clock.advance(1_000);
        while ((await t.services.payouts.handOffDue()) > 0);
        while ((await t.services.payouts.checkDue()) > 0);
        while ((await t.services.settlements.followDue()) > 0);
      }
    };
    const admin = (url: string, access = adminAccess) => t.app.inject({ method: 'GET', url: `/api/v1/admin${url}`, headers: { authorization: `Bearer ${access}` } });
    const report = async (query: string): Promise<Wire> => {
      const res = await admin(`/revenue?${query}`);
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    /** The fees accounts' movement over the period, read from the entries alone, per currency. */
    const feesInLedger = async (environment: 'test' | 'live', from = '2026-11-01T00:00:00.000Z', to = '2026-11-04T00:00:00.000Z') => {
      const rows = await t.services.database.db
        .selectFrom('ledger_entries as e')
        .innerJoin('ledger_accounts as a', 'a.id', 'e.account_id')
        .select(['a.currency', (eb) => eb.fn.sum<number | string>('e.amount_minor').as('sum')])
        .where('a.kind', '=', 'fees')
        .where('a.environment', '=', environment)
        .where('e.created_at', '>=', from)
        .where('e.created_at', '<', to)
        .groupBy('a.currency')
        .execute();
      return Object.fromEntries(rows.map((row) => [row.currency, Number(row.sum)]));
    };
    const sumOf = (rows: Wire[], field: string) => rows.reduce((total, row) => total + (row[field] as number), 0);

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'akwe-revenue-'));
      writeFileSync(join(dir, 'costs.json'), JSON.stringify(costsFile));
      const sandbox = new SandboxOperator(new SandboxLedger(), { payoutDelayMs: 0, clock });
      // Live MTN Bénin through two routes of the sandbox: collections can only take momo-b, payouts take momo-a first.
      const live = new Map([
        [
          'MTN_BJ',
          [
            { name: 'momo-a', label: 'mtn_bj/momo-a', connector: sandbox, flows: ['payout' as const] },
            { name: 'momo-b', label: 'mtn_bj/momo-b', connector: sandbox },
          ],
        ],
      ]);
      t = await buildTestApp(target, {
        clock,
        operators: new OperatorRegistry({ test: sandbox, live }),
        env: {
          AKWE_DATA_DIR: dir,
          PROVIDER_COSTS_FILE: join(dir, 'costs.json'),
          SANDBOX_FLOAT: '0',
          PAYOUT_CHECK_INTERVAL_MS: '100',
          RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000',
        },
      });
      merchants.a = await t.newMerchant({ name: 'Boutique Adjoa' });
      merchants.b = await t.newMerchant({ name: '=HYPERLINK("x";"Kiosque")' });
      merchants.live = await t.newMerchant({ name: 'Maquis Live' });
      const a = collectClient(t.app, merchants.a.testKey);
      const b = collectClient(t.app, merchants.b.testKey);
      const live1 = collectClient(t.app, merchants.live.liveKey);

      // Day 1: collections of A (one fails: no fee), one of B on Moov, two live ones.
      const first = await a.createOk(direct({ amount: 3000 }));
      await a.createOk(direct({ amount: 5000 }));
      await a.createOk(direct({ amount: 7000, reference: `FAIL-${newId()}` }));
      await b.createOk(direct({ amount: 4000, operator: 'moov_bj', customer: { phone: '0195345789' } }));
      await live1.createOk(direct({ amount: 10000 }));
      await live1.createOk(direct({ amount: 2000 }));

      // Day 2: a payout of A and one that fails, a refund, a wallet settlement of B, a transfer, a live payout.
      clock.advance(DAY_MS);
      await payout(merchants.a.testKey, 100_000);
      await payout(merchants.a.testKey, 200_000, '0197000001');
      assert.equal((await a.post(first.reference, 'refunds', { amount: 1000 })).statusCode < 300, true);
      const account = await insertSettlementAccount(t.services.database.db, merchants.b.merchantId, { now: clock.now() });
      await created(merchants.b.testKey, '/settlements/', { settlement_account: account, currency: 'XOF', amount_minor: 150_000, reference: `S-${newId()}` });
      await created(merchants.a.testKey, '/transfers/', { receiver: merchants.b.merchantId, amount_minor: 50_000, currency: 'XOF', reference: `TR-${newId()}` });
      await payout(merchants.live.liveKey, 300_000);
      await work();

      // Day 3: a collection's fee given back to A (no flow does this yet; the report must count it all the same).
      clock.advance(DAY_MS);
      const firstId = (await t.services.database.db.selectFrom('payments').select('id').where('reference', '=', first.reference).executeTakeFirstOrThrow()).id;
      reversed = { paymentId: firstId, feeMinor: collectFee(300_000) };
      await new LedgerRepository(t.services.database.db, newId, clock, 0).post(t.services.database.db, [
        {
          merchantId: merchants.a.merchantId,
          environment: 'test',
          currency: 'XOF',
          type: 'collection',
          source: { type: 'payment', id: firstId, reference: first.reference },
          description: 'Fee given back',
          lines: [
            { kind: 'fees', amountMinor: -reversed.feeMinor },
            { kind: 'available', amountMinor: reversed.feeMinor },
          ],
        },
      ]);
      // A fee after the period: never in it.
      clock.advance(DAY_MS);
      await a.createOk(direct({ amount: 9000 }));

      const call = dashboardCall(() => t);
      const boss = await newOwner(call, dir);
      assert.equal(await t.services.platformAdmins.grant(boss.email, 'cli'), true);
      adminAccess = boss.access;
      ownerAccess = (await newOwner(call, dir)).access;
    });
    after(async () => {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('the ledger holds what the scenario made (the books balance)', async () => {
      await assertBooksBalance(t.services.database.db);
      const types = await t.services.database.db.selectFrom('ledger_transactions').select('type').where('environment', '=', 'test').execute();
      for (const type of ['collection', 'payout', 'payout_release', 'refund', 'settlement', 'transfer_out']) {
        assert.ok(
          types.some((row) => row.type === type),
          `a ${type} transaction`,
        );
      }
    });

    it('sums to the fees accounts’ movement in every grouping, fees given back included', async () => {
      const ledger = await feesInLedger('test');
      assert.equal(ledger.XOF, collectFee(300_000) + collectFee(500_000) + collectFee(400_000) + payoutFee(100_000) + payoutFee(150_000) - reversed.feeMinor);
      let reference: Wire[] | undefined;
      for (const groupBy of ['day', 'operator', 'route', 'merchant']) {
        const body = await report(`${PERIOD}&environment=test&group_by=${groupBy}`);
        assert.equal(body.object, 'revenue_report');
        assert.equal(body.group_by, groupBy);
        assert.equal(body.totals.length, 1);
        assert.equal(body.totals[0].fees_minor, ledger.XOF, groupBy);
        for (const field of ['fees_minor', 'volume_minor', 'transactions', 'provider_costs_minor', 'margin_minor']) {
          assert.equal(sumOf(body.rows, field), body.totals[0][field], `${groupBy}: rows add up to the total ${field}`);
        }
        for (const row of body.rows) assert.equal(row.margin_minor, row.fees_minor - row.provider_costs_minor);
        if (reference) assert.deepEqual(body.totals, reference, `${groupBy}: the same totals as by day`);
        reference = body.totals;
      }
    });

    it('splits the fees per day, and counts a fee given back on its own day', async () => {
      const body = await report(`${PERIOD}&environment=test&group_by=day`);
      const byDay = Object.fromEntries(body.rows.map((row: Wire) => [row.day, row]));
      assert.deepEqual(Object.keys(byDay), ['2026-11-01', '2026-11-02', '2026-11-03']);
      assert.equal(byDay['2026-11-01'].fees_minor, collectFee(300_000) + collectFee(500_000) + collectFee(400_000));
      assert.equal(byDay['2026-11-01'].transactions, 3, 'the failed collection earned nothing');
      assert.equal(byDay['2026-11-02'].fees_minor, payoutFee(100_000) + payoutFee(150_000));
      assert.equal(byDay['2026-11-03'].fees_minor, -reversed.feeMinor);
      assert.equal(byDay['2026-11-03'].transactions, -1);
      assert.equal(byDay['2026-11-03'].volume_minor, -300_000);
    });

    it('attributes fees to merchants and operators', async () => {
      const byMerchant = await report(`${PERIOD}&environment=test&group_by=merchant`);
      const a = byMerchant.rows.find((row: Wire) => row.merchant_id === merchants.a.merchantId);
      const b = byMerchant.rows.find((row: Wire) => row.merchant_id === merchants.b.merchantId);
      assert.equal(a.merchant_name, 'Boutique Adjoa');
      assert.equal(a.fees_minor, collectFee(300_000) + collectFee(500_000) + payoutFee(100_000) - reversed.feeMinor);
      assert.equal(b.fees_minor, collectFee(400_000) + payoutFee(150_000));
      assert.equal(byMerchant.rows.length, 2, 'the live merchant is not in the test report');

      const byOperator = await report(`${PERIOD}&environment=test&group_by=operator`);
      const moov = byOperator.rows.find((row: Wire) => row.operator === 'moov_bj');
      assert.equal(moov.fees_minor, collectFee(400_000));
      assert.equal(moov.costs_complete, false, 'moov_bj/sandbox has no cost configured');
      // The transfer earned no fee and no provider carried it: it is in no row.
      assert.equal(
        byOperator.rows.some((row: Wire) => row.operator === null),
        false,
      );
    });

    it('computes the providers’ costs and the margin per route and flow, to the centime', async () => {
      const body = await report(`${PERIOD}&environment=test&group_by=route`);
      const row = (operator: string | null, flow: string) => body.rows.find((r: Wire) => r.operator === operator && r.flow === flow);
      const collections = row('mtn_bj', 'collection');
      assert.equal(collections.route, 'sandbox');
      assert.equal(collections.volume_minor, 800_000 - 300_000);
      // 0.8 % per day and merchant: 6 400 on day 1's 800 000, 2 400 given back on day 3.
      assert.equal(collections.provider_costs_minor, 6_400 - 2_400);
      assert.equal(collections.margin_minor, collectFee(300_000) + collectFee(500_000) - reversed.feeMinor - 4_000);
      const payouts = row('mtn_bj', 'payout');
      assert.equal(payouts.transactions, 1, 'the failed payout earned nothing');
      assert.equal(payouts.provider_costs_minor, Math.ceil((100_000 * 30) / 10_000) + 2_500);
      const settlement = row('mtn_bj', 'settlement');
      const net = 150_000 - payoutFee(150_000);
      assert.equal(settlement.volume_minor, net, 'what the wallet received');
      assert.equal(settlement.provider_costs_minor, Math.ceil((net * 30) / 10_000) + 2_500, 'a wallet settlement costs a payout');
      const refund = row('mtn_bj', 'refund');
      assert.deepEqual([refund.fees_minor, refund.volume_minor, refund.provider_costs_minor, refund.costs_complete], [0, 100_000, 0, false]);
      assert.equal(row('moov_bj', 'collection').provider_costs_minor, 0);
    });

    it('reports live alone by default, per route that held each payment and payout', async () => {
      const ledger = await feesInLedger('live');
      const body = await report(`${PERIOD}&group_by=route`);
      assert.equal(body.environment, 'live');
      assert.equal(body.totals[0].fees_minor, ledger.XOF);
      assert.equal(ledger.XOF, collectFee(1_000_000) + collectFee(200_000) + payoutFee(300_000));
      const collections = body.rows.find((r: Wire) => r.flow === 'collection');
      assert.deepEqual([collections.operator, collections.route, collections.volume_minor], ['mtn_bj', 'momo-b', 1_200_000]);
      assert.equal(collections.provider_costs_minor, 12_000);
      const payouts = body.rows.find((r: Wire) => r.flow === 'payout');
      assert.deepEqual([payouts.route, payouts.fees_minor, payouts.provider_costs_minor], ['momo-a', payoutFee(300_000), 4_000]);
    });

    it('keeps to the period: a later day’s fees are not in it', async () => {
      const body = await report('from=2026-11-02&to=2026-11-03&environment=test');
      assert.equal(body.totals[0].fees_minor, (await feesInLedger('test', '2026-11-02T00:00:00.000Z', '2026-11-03T00:00:00.000Z')).XOF);
      const later = await report('from=2026-11-04&to=2026-11-05&environment=test');
      assert.equal(later.totals[0].fees_minor, collectFee(900_000));
      assert.deepEqual((await report('from=2026-10-01&to=2026-10-31&environment=test')).rows, []);
    });

    it('gives the CSV file, semicolons with a byte order mark for a French Excel, formula-safe', async () => {
      const res = await admin(`/revenue.csv?${PERIOD}&environment=test&group_by=merchant&delimiter=semicolon`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(res.headers['content-disposition'], 'attachment; filename="akwe-revenue-test-merchant-2026-11-01-2026-11-04.csv"');
      assert.ok(res.body.startsWith('\ufeffmerchant_id;merchant_name;currency;fees_minor;'), res.body.slice(0, 80));
      assert.ok(res.body.endsWith('\r\n'));
      assert.ok(res.body.includes(`;"'=HYPERLINK(""x"";""Kiosque"")";`), 'the name cannot run as a formula');
      const records = parse(res.body.slice(1), { delimiter: ';', columns: true }) as Wire[];
      const json = await report(`${PERIOD}&environment=test&group_by=merchant`);
      assert.deepEqual(
        records.map((r) => [r.merchant_id, Number(r.fees_minor), Number(r.provider_costs_minor), Number(r.margin_minor)]),
        json.rows.map((r: Wire) => [r.merchant_id, r.fees_minor, r.provider_costs_minor, r.margin_minor]),
      );
      const audit = await t.services.database.db.selectFrom('audit_log').select(['action', 'merchant_id', 'target']).where('action', '=', 'admin.revenue_exported').execute();
      assert.deepEqual(audit, [{ action: 'admin.revenue_exported', merchant_id: null, target: 'test merchant 2026-11-01..2026-11-04' }], 'the download is audited');
      const comma = await admin(`/revenue.csv?${PERIOD}&environment=test`);
      assert.ok(comma.body.startsWith('day,currency,fees_minor,volume_minor,transactions,provider_costs_minor,margin_minor,costs_complete\r\n'), comma.body);
    });

    it('refuses a bad query with 400 validation_error naming the parameter', async () => {
      const cases: [string, string][] = [
        ['from=2026-11-01', 'to'],
        ['from=2026-02-30&to=2026-03-01', 'from'],
        ['from=2026-11-01T00:00:00Z&to=2026-11-02', 'from'],
        ['from=2026-11-02&to=2026-11-02', 'to'],
        ['from=2025-01-01&to=2026-11-02', 'to'],
        [`${PERIOD}&group_by=week`, 'group_by'],
        [`${PERIOD}&environment=staging`, 'environment'],
        [`${PERIOD}&merchant=x`, 'merchant'],
      ];
      for (const [query, field] of cases) {
        const res = await admin(`/revenue?${query}`);
        assert.equal(res.statusCode, 400, `${query}: ${res.body}`);
        assert.equal(res.json().error.code, 'validation_error', query);
        assert.equal(res.json().error.field, field, query);
      }
      const csv = await admin(`/revenue.csv?${PERIOD}&delimiter=tab`);
      assert.equal(csv.json().error.field, 'delimiter');
    });

    it('is for platform administrators only', async () => {
      for (const url of [`/revenue?${PERIOD}`, `/revenue.csv?${PERIOD}`]) {
        const refused = await admin(url, ownerAccess);
        assert.equal(refused.statusCode, 403);
        assert.equal(refused.json().error.code, 'admin_required');
        assert.equal((await admin(url, 'not-a-token')).statusCode, 401);
      }
    });
  });
}
