/**
 * CSV exports (docs/exports.md) on every database, through HTTP: content and order, the period's
 * bounds, status in any case, bad parameters, tenant and environment isolation, formula escaping,
 * exact centimes, paging across many small pages (rows sharing a created_at included), keys and
 * scopes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { newId } from '../../src/core/shared/ids.js';
import { collectClient, direct } from '../support/collect-client.js';
import { FakeClock } from '../support/fake-clock.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Small, so a handful of rows already spans several pages. */
const PAGE_SIZE = 3;

/** The file's records as objects by heading, plus its raw header line. */
function readCsv(text: string): { headings: string[]; rows: Record<string, string>[] } {
  const records = parse(text, { relaxColumnCount: false }) as string[][];
  const [headings, ...lines] = records;
  return { headings: headings!, rows: lines.map((line) => Object.fromEntries(headings!.map((heading, index) => [heading, line[index]!]))) };
}

for (const target of testDatabases()) {
  describe(`CSV exports on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    const clock = new FakeClock(new Date('2026-06-01T08:00:00.000Z'));
    let merchant: { merchantId: string; testKey: string; liveKey: string };
    let other: { merchantId: string; testKey: string; liveKey: string };
    /** Merchant's test payments as the API shows them, in creation order. */
    const payments: Wire[] = [];
    const payouts: Wire[] = [];

    const get = (url: string, key?: string) => t.app.inject({ method: 'GET', url: `/api/v1/exports/${url}`, headers: key ? { authorization: `Bearer ${key}` } : {} });
    async function exported(url: string, key = merchant.testKey) {
      const res = await get(url, key);
      assert.equal(res.statusCode, 200, res.body);
      return readCsv(res.body);
    }

    before(async () => {
      t = await buildTestApp(target, { clock, exportPageSize: PAGE_SIZE });
      merchant = await t.newMerchant();
      other = await t.newMerchant();
      const collect = collectClient(t.app, merchant.testKey);
      // Seven payments: pairs share a created_at (the clock does not move), so equal instants straddle page boundaries.
      const shapes: Wire[] = [
        direct({ reference: `-2-${newId()}`, description: '=HYPERLINK("http://evil.example","x")', metadata: { note: '=1+1', 'a,b': 'say "hi"' } }),
        direct({ amount: 2500 }),
        direct({ reference: `ORDER-FAIL_INSUFFICIENT_FUNDS-${newId()}` }),
        direct({ description: '@mention\nsecond line' }),
        direct({ amount: 125000 }),
        direct(),
        direct({ description: '+SUM(1,2)' }),
      ];
      for (const [index, body] of shapes.entries()) {
        payments.push(await collect.createOk(body));
        if (index % 2 === 1) clock.advance(60_000);
      }
      // A payment whose centimes do not round to FCFA: the collect contract shows 1234, amount_minor keeps 123456.
      const odd = await collect.createOk(direct());
      await t.services.database.db.updateTable('payments').set({ amount_minor: 123_456 }).where('id', '=', odd.id).execute();
      payments.push({ ...odd, amount_minor: 123_456 });
      clock.advance(60_000);

      for (const amount of [500_050, 700_000]) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/v1/payout/mobile-money/',
          headers: { authorization: `Bearer ${merchant.testKey}`, 'idempotency-key': newId() },
          payload: { amount, phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: `PAY-${newId()}` },
        });
        assert.equal(res.statusCode, 201, res.body);
        payouts.push(res.json());
        clock.advance(60_000);
      }

      // Rows the merchant's test exports must never show: another merchant's, and its own live ones.
      await collectClient(t.app, other.testKey).createOk(direct({ reference: 'OTHER-MERCHANT' }));
      await t.services.database.db
        .insertInto('payments')
        .values({
          id: newId(),
          merchant_id: merchant.merchantId,
          environment: 'live',
          reference: 'LIVE-ONLY',
          status: 'completed',
          amount_minor: 500_000,
          currency: 'XOF',
          country: 'BJ',
          mode: 'direct',
          operator: 'mtn_bj',
          phone: '+2290197000000',
          otp_attempts: 0,
          refunded_minor: 0,
          expires_at: clock.now().toISOString(),
          created_at: clock.now().toISOString(),
          updated_at: clock.now().toISOString(),
          version: 1,
          metadata: '{}',
        })
        .execute();
    });
    after(() => t.close());

    /** Newest first: created_at, then id, both descending. */
    const newestFirst = (a: Wire, b: Wire) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1);

    it('payments: header, every row once across pages, newest first, the values the API shows', async () => {
      const res = await get('payments.csv', merchant.testKey);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
      assert.equal(res.headers['content-disposition'], 'attachment; filename="akwe-payments-test-start-now.csv"');
      assert.ok(res.body.endsWith('\r\n') && !res.body.startsWith('\ufeff'));
      const { headings, rows } = readCsv(res.body);
      assert.deepEqual(headings, [
        'id', 'reference', 'created_at', 'updated_at', 'environment', 'status', 'mode', 'amount', 'amount_minor', 'fee_minor', 'refunded_amount',
        'refunded_amount_minor', 'currency', 'country', 'operator', 'phone', 'psp_reference', 'failure_code', 'description', 'metadata',
      ]); // prettier-ignore
      const expected = [...payments].sort(newestFirst);
      // 8 rows in pages of 3 with equal created_at across the boundaries: no duplicate, no gap.
      assert.deepEqual(
        rows.map((row) => row.id),
        expected.map((payment) => payment.id),
      );
      const collect = collectClient(t.app, merchant.testKey);
      for (const row of rows) {
        const shown = (await collect.get(row.id!)).json() as Wire;
        assert.equal(row.status, shown.status);
        assert.equal(row.created_at, shown.created_at);
        assert.equal(row.amount, String(shown.amount));
        assert.equal(row.amount_minor, String(shown.amount_minor));
        assert.equal(row.refunded_amount_minor, String(shown.refunded_amount_minor));
        assert.equal(row.operator, shown.operator);
        assert.equal(row.failure_code, shown.failure_code ?? '');
        assert.deepEqual(JSON.parse(row.metadata!), shown.metadata);
        const fee = await t.services.database.db
          .selectFrom('ledger_transactions')
          .select('fee_minor')
          .where('source_id', '=', row.id!)
          .where('type', '=', 'collection')
          .executeTakeFirst();
        assert.equal(row.fee_minor, fee ? String(Number(fee.fee_minor)) : '');
      }
      const odd = rows.find((row) => row.amount_minor === '123456')!;
      assert.equal(odd.amount, '1234');
      assert.ok(rows.some((row) => row.failure_code === 'insufficient_funds'));
      assert.ok(
        rows.some((row) => row.fee_minor !== '' && Number(row.fee_minor) > 0),
        'a completed payment shows its collection fee',
      );
    });

    it('text that starts like a formula gets an apostrophe, quoted per RFC 4180; numbers and JSON are left alone', async () => {
      const res = await get('payments.csv', merchant.testKey);
      const { rows } = readCsv(res.body);
      const tricky = rows.find((row) => row.id === payments[0]!.id)!;
      assert.equal(tricky.reference, `'${payments[0]!.reference as string}`, 'a reference may start with -');
      assert.equal(tricky.description, `'=HYPERLINK("http://evil.example","x")`);
      assert.match(res.body, /,"'=HYPERLINK\(""http:\/\/evil\.example"",""x""\)",/);
      assert.deepEqual(JSON.parse(tricky.metadata!), { note: '=1+1', 'a,b': 'say "hi"' });
      assert.equal(tricky.phone, "'+2290197000000", 'the phone is stored in E.164; its + would start a formula');
      assert.equal(rows.find((row) => row.id === payments[3]!.id)!.description, "'@mention\nsecond line");
      assert.equal(rows.find((row) => row.id === payments[6]!.id)!.description, "'+SUM(1,2)");

      const ledger = readCsv((await get('balance-transactions.csv', merchant.testKey)).body).rows;
      const reservation = ledger.find((row) => row.type === 'payout_reservation')!;
      assert.match(reservation.available_change_minor!, /^-\d+$/, 'a negative amount is a number, not escaped');
    });

    it('from is inclusive, to exclusive; dates and date-times with offsets; the file name shows the period', async () => {
      const sorted = [...payments].sort(newestFirst);
      const instants = [...new Set(sorted.map((p) => p.created_at as string))];
      // The second-newest instant up to (not including) the newest.
      const from = instants[2]!;
      const to = instants[0]!;
      const res = await get(`payments.csv?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`, merchant.testKey);
      assert.equal(res.statusCode, 200, res.body);
      const ids = readCsv(res.body).rows.map((row) => row.id);
      assert.deepEqual(
        ids,
        sorted.filter((p) => p.created_at >= from && p.created_at < to).map((p) => p.id),
      );
      assert.ok(ids.length >= 3, 'the range holds rows on its from instant');
      assert.equal(
        res.headers['content-disposition'],
        `attachment; filename="akwe-payments-test-${from.replace('.000Z', 'Z').replaceAll(':', '')}-${to.replace('.000Z', 'Z').replaceAll(':', '')}.csv"`,
      );

      // 10:00 at +02:00 is 08:00Z: the first instant is in, and a day-long period from the date holds everything.
      const sameStart = await exported(`payments.csv?from=${encodeURIComponent('2026-06-01T10:00:00+02:00')}`);
      assert.equal(sameStart.rows.length, payments.length);
      const day = await get('payments.csv?from=2026-06-01&to=2026-06-02', merchant.testKey);
      assert.equal(readCsv(day.body).rows.length, payments.length);
      assert.equal(day.headers['content-disposition'], 'attachment; filename="akwe-payments-test-2026-06-01-2026-06-02.csv"');
      assert.equal((await exported('payments.csv?to=2026-06-01')).rows.length, 0, 'to is exclusive: nothing before midnight');
    });

    it('status in any letter case, as each contract writes it', async () => {
      const completed = payments.filter((p) => p.status === 'completed').map((p) => p.id);
      for (const status of ['completed', 'COMPLETED', 'Completed']) {
        const { rows } = await exported(`payments.csv?status=${status}`);
        assert.deepEqual(rows.map((row) => row.id).sort(), [...completed].sort());
        assert.ok(rows.every((row) => row.status === 'completed'));
      }
      const failed = await exported('payments.csv?status=FAILED');
      assert.equal(failed.rows.length, 1);
      const allPayouts = await exported('payouts.csv');
      assert.ok(allPayouts.rows.length === payouts.length);
      const status = allPayouts.rows[0]!.status!;
      assert.equal(status, status.toUpperCase(), 'payout statuses stay uppercase');
      const byStatus = await exported(`payouts.csv?status=${status.toLowerCase()}`);
      assert.ok(byStatus.rows.length >= 1 && byStatus.rows.every((row) => row.status === status));
    });

    it('payouts and balance transactions: their columns, exact centimes, newest first', async () => {
      const { headings, rows } = await exported('payouts.csv');
      assert.deepEqual(headings, [
        'id', 'reference', 'created_at', 'updated_at', 'environment', 'status', 'amount', 'amount_minor', 'fee_minor', 'currency', 'country',
        'operator', 'phone', 'recipient_first_name', 'recipient_last_name', 'psp_reference', 'failure_code', 'description', 'metadata',
      ]); // prettier-ignore
      assert.deepEqual(
        rows.map((row) => row.id),
        [...payouts].reverse().map((p) => p.id),
      );
      const first = rows.find((row) => row.id === payouts[0]!.id)!;
      assert.equal(first.amount, '500050');
      assert.equal(first.amount_minor, '500050');
      assert.equal(first.fee_minor, String(payouts[0]!.fee_minor));
      assert.equal(first.phone, `'${payouts[0]!.phone as string}`);

      const ledger = await exported('balance-transactions.csv');
      assert.deepEqual(ledger.headings, [
        'id', 'created_at', 'environment', 'type', 'currency', 'available_change_minor', 'reserved_change_minor', 'fee_minor', 'source_object', 'source_id', 'source_reference', 'description',
      ]); // prettier-ignore
      const listed: Wire[] = [];
      for (let cursor: string | null = null; ;) {
        const res = await t.app.inject({
          method: 'GET',
          url: `/api/v1/balance-transactions?limit=100${cursor ? `&starting_after=${cursor}` : ''}`,
          headers: { authorization: `Bearer ${merchant.testKey}` },
        });
        const page = res.json() as Wire;
        listed.push(...(page.data as Wire[]));
        if (!page.has_more) break;
        cursor = page.next_cursor as string;
      }
      assert.deepEqual(
        ledger.rows.map((row) => [row.id, row.type, row.available_change_minor, row.reserved_change_minor, row.fee_minor, row.source_id]),
        listed.map((tx) => [tx.id, tx.type, String(tx.available_change_minor), String(tx.reserved_change_minor), String(tx.fee_minor), tx.source.id]),
      );
    });

    it("another merchant's rows and the other environment's rows never appear", async () => {
      const mine = await exported('payments.csv');
      assert.ok(!mine.rows.some((row) => row.reference === 'OTHER-MERCHANT' || row.reference === 'LIVE-ONLY'));
      assert.ok(mine.rows.every((row) => row.environment === 'test'));
      const live = await get('payments.csv', merchant.liveKey);
      assert.equal(live.headers['content-disposition'], 'attachment; filename="akwe-payments-live-start-now.csv"');
      assert.deepEqual(
        readCsv(live.body).rows.map((row) => row.reference),
        ['LIVE-ONLY'],
      );
      assert.equal((await exported('payouts.csv', merchant.liveKey)).rows.length, 0);
      const theirs = await exported('payments.csv', other.testKey);
      assert.deepEqual(
        theirs.rows.map((row) => row.reference),
        ['OTHER-MERCHANT'],
      );
    });

    it('bad parameters are 400 validation_error naming the parameter', async () => {
      const cases: [string, string][] = [
        ['payments.csv?from=yesterday', 'from'],
        ['payments.csv?from=2026-02-30', 'from'],
        ['payments.csv?to=2026-06-01T09:30:00', 'to'],
        ['payments.csv?to=2026-06-01T23:59:60Z', 'to'],
        ['payments.csv?from=2026-06-02&to=2026-06-01', 'to'],
        ['payments.csv?from=2026-06-01&to=2026-06-01', 'to'],
        ['payments.csv?status=paid', 'status'],
        ['payouts.csv?status=completed_ok', 'status'],
        ['balance-transactions.csv?status=completed', 'status'],
        ['payments.csv?limit=10', 'limit'],
      ];
      for (const [url, field] of cases) {
        const res = await get(url, merchant.testKey);
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        const { error } = res.json() as Wire;
        assert.equal(error.code, 'validation_error', url);
        assert.match(JSON.stringify(error), new RegExp(field), `${url} names ${field}: ${res.body}`);
      }
    });

    it('unauthenticated is 401; a key without the resource read scope is 403', async () => {
      for (const url of ['payments.csv', 'payouts.csv', 'balance-transactions.csv']) {
        const res = await get(url);
        assert.equal(res.statusCode, 401);
        assert.equal(res.json().error.code, 'unauthenticated');
      }
      const payoutReader = await t.newMerchant({ scopes: ['payout:read'] });
      const collectReader = await t.newMerchant({ scopes: ['collect:read'] });
      const refused: [string, string][] = [
        ['payments.csv', payoutReader.testKey],
        ['payouts.csv', collectReader.testKey],
        ['balance-transactions.csv', collectReader.testKey],
      ];
      for (const [url, key] of refused) {
        const res = await get(url, key);
        assert.equal(res.statusCode, 403, url);
        assert.equal(res.json().error.code, 'insufficient_scope');
      }
      assert.equal((await get('payments.csv', collectReader.testKey)).statusCode, 200);
      assert.equal((await get('payouts.csv', payoutReader.testKey)).statusCode, 200);
      assert.equal((await get('balance-transactions.csv', payoutReader.testKey)).statusCode, 200);
    });
  });
}
