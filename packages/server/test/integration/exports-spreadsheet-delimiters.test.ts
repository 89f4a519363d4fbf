/**
 * Every CSV file (the four exports and a settlement's statement) opened by a spreadsheet that
 * splits on either delimiter: no part of a merchant's text can start a formula, and
 * `delimiter=semicolon` gives the French Excel variant (semicolons, a byte order mark) with the
 * same rows. On every database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { newId } from '../../src/core/shared/ids.js';
import { collectClient, direct } from '../support/collect-client.js';
import { insertSettlementAccount } from '../support/settlements.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Text that hides a formula behind the other delimiter (French Excel splits on semicolons). */
const HIDDEN = ['x;=1+1;y', 'a,=2+2', 'b;"=3+3"', 'c;+SUM(1);d', 'e,@cmd', 'f;-4+5'];

/**
 * What a spreadsheet that ignores quotes would make of a line: split on the delimiter, each piece
 * read as a cell (a leading quote dropped, as a quoted field's would be).
 */
function naiveCells(line: string, delimiter: string): string[] {
  return line.split(delimiter).map((piece) => piece.replace(/^"/, ''));
}

for (const target of testDatabases()) {
  describe(`CSV files for spreadsheets of either delimiter on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;
    let batchId: string;
    let settlementId: string;

    const send = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${key}`, ...(method === 'POST' ? { 'idempotency-key': newId() } : {}) },
        ...(payload ? { payload } : {}),
      });
    const files = () => [
      '/exports/payments.csv',
      '/exports/payouts.csv',
      '/exports/balance-transactions.csv',
      `/exports/batch-lines.csv?batch_id=${batchId}`,
      `/settlements/${settlementId}/statement.csv`,
    ];
    const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

    before(async () => {
      t = await buildTestApp(target);
      const merchant = await t.newMerchant();
      key = merchant.testKey;
      const collect = collectClient(t.app, key);
      for (const text of HIDDEN) await collect.createOk(direct({ description: text }));
      for (const text of HIDDEN) {
        const res = await send('POST', '/payout/mobile-money/', {
          amount: 100_000,
          phone: '0197000000',
          country: 'BJ',
          operator: 'mtn_bj',
          reference: `P-${newId()}`,
          description: text,
        });
        assert.equal(res.statusCode, 201, res.body);
      }
      const batch = await send('POST', '/bulk-payments/', {
        name: 'Primes;=HYPERLINK("http://evil.example")',
        items: HIDDEN.map((text) => ({
          beneficiary_name: `Afi ${text}`,
          phone: '0197000000',
          amount: 250_000,
          currency: 'XOF',
          reference: `L-${newId()}`,
          country: 'BJ',
          operator: 'mtn_bj',
          description: text,
        })),
      });
      assert.equal(batch.statusCode, 201, batch.body);
      batchId = (batch.json() as Wire).id as string;
      const account = await insertSettlementAccount(t.services.database.db, merchant.merchantId);
      const settlement = await send('POST', '/settlements/', { settlement_account: account, currency: 'XOF', amount_minor: 1_000_000, description: 'stl;=1+1' });
      assert.equal(settlement.statusCode, 201, settlement.body);
      settlementId = (settlement.json() as Wire).id as string;
    });
    after(() => t.close());

    it('no piece of any line starts a formula, whichever delimiter a spreadsheet splits on', async () => {
      for (const url of files()) {
        for (const delimiter of ['comma', 'semicolon']) {
          const res = await send('GET', withQuery(url, `delimiter=${delimiter}`));
          assert.equal(res.statusCode, 200, `${url} ${res.body}`);
          const lines = res.body
            .replace(/^\ufeff/, '')
            .split('\r\n')
            .slice(1, -1);
          assert.ok(lines.length > 0, url);
          for (const line of lines) {
            for (const split of [',', ';']) {
              for (const cell of naiveCells(line, split)) {
                // Our own amounts are negative integers: numbers, never formulas.
                if (/^-\d+$/.test(cell)) continue;
                assert.doesNotMatch(cell, /^[=+@\t\r-]/, `${url} (${delimiter}) split on "${split}": ${JSON.stringify(line)}`);
              }
            }
          }
        }
      }
    });

    it('a reader that honours quotes gets the merchant text back, with an apostrophe before each hidden formula', async () => {
      const res = await send('GET', '/exports/payments.csv');
      const [headings, ...rows] = parse(res.body) as string[][];
      const descriptions = rows.map((row) => row[headings!.indexOf('description')]);
      assert.ok(descriptions.includes("x;'=1+1;y"), JSON.stringify(descriptions));
      assert.ok(descriptions.includes('b;"\'=3+3"'));
      assert.ok(descriptions.includes("f;'-4+5"));
    });

    it('delimiter=semicolon: a byte order mark, semicolons, the same cells as the comma file', async () => {
      for (const url of files()) {
        const comma = await send('GET', url);
        const semicolon = await send('GET', withQuery(url, 'delimiter=semicolon'));
        assert.equal(semicolon.statusCode, 200, semicolon.body);
        assert.equal(semicolon.headers['content-type'], 'text/csv; charset=utf-8');
        assert.ok(semicolon.body.startsWith('\ufeff'), `${url}: byte order mark`);
        assert.ok(!comma.body.startsWith('\ufeff'), `${url}: none in the comma file`);
        const header = semicolon.body.slice(1, semicolon.body.indexOf('\r\n'));
        assert.ok(header.includes(';') && !header.includes(','), `${url}: ${header}`);
        assert.deepEqual(parse(semicolon.body, { bom: true, delimiter: ';' }), parse(comma.body), url);
      }
    });

    it('refuses another delimiter with a 400 naming it', async () => {
      for (const url of files()) {
        const res = await send('GET', withQuery(url, 'delimiter=tab'));
        assert.equal(res.statusCode, 400, url);
        assert.equal((res.json() as Wire).error.code, 'validation_error');
      }
    });
  });
}
