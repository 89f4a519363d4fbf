/**
 * The batch-lines export, and for every export: spreadsheet formulas escaped (cells starting with
 * = + - @, a tab or a carriage return) and the period filtering rows by creation (from inclusive,
 * to exclusive), on every database.
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

function readCsv(text: string): Record<string, string>[] {
  const [headings, ...lines] = parse(text) as string[][];
  return lines.map((line) => Object.fromEntries(headings!.map((heading, index) => [heading, line[index]!])));
}

/** Text a spreadsheet would run as a formula, one per dangerous first character. */
const FORMULAS = ['=1+1', '+SUM(1,2)', '-2+3', '@cmd', '\tTAB', '\rCR'];

for (const target of testDatabases()) {
  describe(`batch lines export, formulas and periods on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    const clock = new FakeClock(new Date('2026-06-01T08:00:00.000Z'));
    let merchant: { merchantId: string; testKey: string; liveKey: string };
    let other: { merchantId: string; testKey: string; liveKey: string };
    let june: Wire;
    let july: Wire;
    const payouts: Wire[] = [];

    const send = (key: string, method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${key}`, ...(method === 'POST' ? { 'idempotency-key': newId() } : {}) },
        ...(payload ? { payload } : {}),
      });
    const exported = async (url: string, key = merchant.testKey) => {
      const res = await send(key, 'GET', `/exports/${url}`);
      assert.equal(res.statusCode, 200, res.body);
      return { rows: readCsv(res.body), res };
    };
    const line = (overrides: Wire = {}) => ({
      beneficiary_name: 'Afi Mensah',
      phone: '0197000000',
      amount: 250_000,
      currency: 'XOF',
      reference: `L-${newId()}`,
      country: 'BJ',
      operator: 'mtn_bj',
      ...overrides,
    });
    const createBatch = async (key: string, items: Wire[], name = 'Salaires') => {
      const res = await send(key, 'POST', '/bulk-payments/', { name, items });
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as Wire;
    };
    const payout = async (overrides: Wire) => {
      const res = await send(merchant.testKey, 'POST', '/payout/mobile-money/', {
        amount: 100_000,
        phone: '0197000000',
        country: 'BJ',
        operator: 'mtn_bj',
        reference: `P-${newId()}`,
        ...overrides,
      });
      assert.equal(res.statusCode, 201, res.body);
      payouts.push(res.json());
    };

    before(async () => {
      t = await buildTestApp(target, { clock, exportPageSize: 2 });
      merchant = await t.newMerchant();
      other = await t.newMerchant();
      // June: a batch whose lines carry every formula start, payments and payouts with them too.
      june = await createBatch(merchant.testKey, [
        line({ beneficiary_name: '=HYPERLINK("http://evil.example","x")', description: FORMULAS[1] }),
        ...FORMULAS.map((text) => line({ beneficiary_name: `Name ${text.trim()}`, description: text })),
      ]);
      // The API trims a line's text, so a leading tab or carriage return can only come from the database.
      const items = await t.services.database.db.selectFrom('bulk_batch_items').select(['id', 'description']).where('batch_id', '=', june.id).execute();
      for (const item of items) {
        const raw = FORMULAS.find((text) => text.trim() === item.description && text !== item.description);
        if (raw) await t.services.database.db.updateTable('bulk_batch_items').set({ description: raw }).where('id', '=', item.id).execute();
      }
      const collect = collectClient(t.app, merchant.testKey);
      for (const text of FORMULAS) await collect.createOk(direct({ description: text }));
      for (const text of FORMULAS) await payout({ description: text, reference: `-${newId()}` });
      // July: a later batch, payment and payout.
      clock.advance(30 * 86_400_000);
      july = await createBatch(merchant.testKey, [line(), line()], 'Juillet');
      await collect.createOk(direct({ description: 'July' }));
      await payout({ description: 'July' });
      await createBatch(other.testKey, [line()], 'Another merchant');
    });
    after(() => t.close());

    it("one batch's lines in row order with the batch's name, amounts in centimes", async () => {
      const { rows, res } = await exported(`batch-lines.csv?batch_id=${june.id}`);
      assert.equal(rows.length, 1 + FORMULAS.length, 'every line, across pages of two');
      assert.deepEqual(
        rows.map((row) => Number(row.row)),
        rows.map((_, index) => index + 1),
      );
      assert.ok(rows.every((row) => row.batch_id === june.id && row.batch_name === 'Salaires' && row.environment === 'test' && row.status === 'pending'));
      assert.equal(rows[0]!.amount_minor, '250000');
      assert.equal(rows[0]!.fee_minor, String(june.total_fee_minor / june.item_count));
      assert.equal(rows[0]!.phone, "'+2290197000000", 'a + starts a formula: escaped');
      assert.match(res.headers['content-disposition'] as string, new RegExp(`filename="akwe-batch-lines-${june.id}-test-start-now.csv"`));
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    });

    it('batch lines: every cell starting like a formula gets an apostrophe', async () => {
      const { rows } = await exported(`batch-lines.csv?batch_id=${june.id}`);
      assert.equal(rows[0]!.beneficiary_name, `'=HYPERLINK("http://evil.example","x")`);
      for (const [index, text] of FORMULAS.entries()) assert.equal(rows[index + 1]!.description, `'${text}`, JSON.stringify(text));
    });

    it('payments: every cell starting like a formula gets an apostrophe, tab and carriage return included', async () => {
      const { rows } = await exported('payments.csv');
      for (const text of FORMULAS)
        assert.ok(
          rows.some((row) => row.description === `'${text}`),
          JSON.stringify(text),
        );
      assert.ok(!rows.some((row) => FORMULAS.includes(row.description!)), 'no cell left unescaped');
    });

    it('payouts: every cell starting like a formula gets an apostrophe, references starting with - included', async () => {
      const { rows } = await exported('payouts.csv');
      for (const text of FORMULAS)
        assert.ok(
          rows.some((row) => row.description === `'${text}`),
          JSON.stringify(text),
        );
      const minus = payouts.filter((p) => (p.reference as string).startsWith('-'));
      for (const p of minus) assert.equal(rows.find((row) => row.id === p.id)!.reference, `'${p.reference as string}`);
    });

    it('balance transactions: a source reference starting like a formula gets an apostrophe, amounts stay numbers', async () => {
      const { rows } = await exported('balance-transactions.csv');
      const minus = payouts.filter((p) => (p.reference as string).startsWith('-'));
      assert.ok(minus.length > 0);
      for (const p of minus) {
        const reservation = rows.find((row) => row.source_id === p.id)!;
        assert.equal(reservation.source_reference, `'${p.reference as string}`);
        assert.match(reservation.available_change_minor!, /^-\d+$/);
      }
    });

    it('every export keeps only rows created in [from, to)', async () => {
      const juneOnly = 'from=2026-06-01&to=2026-06-02';
      const julyOnly = 'from=2026-07-01';
      const lines = await exported(`batch-lines.csv?${juneOnly}`);
      assert.deepEqual([...new Set(lines.rows.map((row) => row.batch_id))], [june.id]);
      const later = await exported(`batch-lines.csv?${julyOnly}`);
      assert.deepEqual([...new Set(later.rows.map((row) => row.batch_id))], [july.id], "no other merchant's lines");
      assert.equal((await exported(`batch-lines.csv?batch_id=${june.id}&${julyOnly}`)).rows.length, 0);

      for (const kind of ['payments', 'payouts', 'balance-transactions']) {
        const inJune = (await exported(`${kind}.csv?${juneOnly}`)).rows;
        const inJuly = (await exported(`${kind}.csv?${julyOnly}`)).rows;
        const all = (await exported(`${kind}.csv`)).rows;
        assert.ok(inJune.length > 0 && inJuly.length > 0, kind);
        assert.equal(inJune.length + inJuly.length, all.length, kind);
        assert.ok(
          inJune.every((row) => row.created_at! < '2026-06-02'),
          kind,
        );
        assert.ok(
          inJuly.every((row) => row.created_at! >= '2026-07-01'),
          kind,
        );
      }
    });

    it('all batches: newest first; a status filter; another merchant’s batch is 404 and a bad id 400', async () => {
      const { rows } = await exported('batch-lines.csv');
      assert.equal(rows.length, 1 + FORMULAS.length + 2);
      assert.deepEqual(
        rows.map((row) => row.id),
        [...rows.map((row) => row.id)].sort().reverse(),
      );
      assert.equal((await exported('batch-lines.csv?status=PENDING')).rows.length, rows.length);
      assert.equal((await exported('batch-lines.csv?status=completed')).rows.length, 0);
      const theirs = (await send(other.testKey, 'GET', '/bulk-payments/')).json().data[0].id as string;
      const notMine = await send(merchant.testKey, 'GET', `/exports/batch-lines.csv?batch_id=${theirs}`);
      assert.equal(notMine.statusCode, 404, notMine.body);
      const inLive = await send(merchant.liveKey, 'GET', `/exports/batch-lines.csv?batch_id=${june.id}`);
      assert.equal(inLive.statusCode, 404, 'a test batch is not in live');
      const bad = await send(merchant.testKey, 'GET', '/exports/batch-lines.csv?batch_id=nope');
      assert.equal(bad.statusCode, 400, bad.body);
      assert.equal(bad.json().error.field, 'batch_id');
    });
  });
}
