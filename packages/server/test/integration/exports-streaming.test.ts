/**
 * An export is streamed over a real socket page by page: a client that goes away mid-file stops
 * the reading (no further page is queried) and the server goes on answering.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { CsvExport } from '../../src/core/exports/export-service.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

/** About 10 MB of CSV: far more than the socket and stream buffers hold, so the file cannot be sent before the client leaves. */
const ROWS = 40_000;
const PAGE_SIZE = 100;

for (const target of testDatabases()) {
  describe(`CSV export streaming on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let port: number;
    let key: string;
    /** What the export generators did: pages pulled, and the ones that ended. */
    const seen = { pulls: 0, ended: 0 };

    before(async () => {
      t = await buildTestApp(target, { exportPageSize: PAGE_SIZE });
      const merchant = await t.newMerchant();
      key = merchant.testKey;
      const postgres = target.name === 'postgres';
      const numbers = postgres
        ? sql`select n from generate_series(1, ${sql.lit(ROWS)}) as n`
        : sql`with recursive seq(n) as (select 1 union all select n + 1 from seq where n < ${sql.lit(ROWS)}) select n from seq`;
      const id = postgres ? sql`lpad(to_hex(n), 8, '0') || '-0000-7000-8000-000000000000'` : sql`printf('%08x-0000-7000-8000-000000000000', n)`;
      await sql`
        insert into payments (id, merchant_id, environment, reference, status, amount_minor, currency, country, mode, operator, phone,
          otp_attempts, refunded_minor, expires_at, created_at, updated_at, version, metadata, description)
        select ${id}, ${sql.lit(merchant.merchantId)}, 'test', 'REF-' || n, 'completed', 300000, 'XOF', 'BJ', 'direct', 'mtn_bj', '+2290197000000',
          0, 0, '2026-06-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z', 1, '{"order":"a fairly long order number to fill the line"}',
          'A description long enough that forty thousand lines weigh megabytes'
        from (${numbers}) as numbers`.execute(t.services.database.db);

      // Watch the real generator from outside: each chunk pulled, and its end (finally).
      const exportsService = t.services.exports;
      const csv = exportsService.csv.bind(exportsService);
      exportsService.csv = async (...args: Parameters<typeof csv>): Promise<CsvExport> => {
        const file = await csv(...args);
        const inner = file.chunks;
        async function* watched() {
          try {
            for await (const chunk of inner) {
              seen.pulls += 1;
              yield chunk;
            }
          } finally {
            seen.ended += 1;
          }
        }
        return { ...file, chunks: watched() };
      };
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as AddressInfo).port;
    });
    after(() => t.close());

    /** Resolves once `condition` holds (checked on each turn of the event loop; the test's own timeout bounds it). */
    async function until(condition: () => boolean): Promise<void> {
      while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
    }

    it('a client leaving mid-file stops the reading; the server answers the next request', async () => {
      const received = await new Promise<number>((resolve, reject) => {
        const req = request({ port, path: '/api/v1/exports/payments.csv', headers: { authorization: `Bearer ${key}` } }, (res) => {
          assert.equal(res.statusCode, 200);
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            // Leave after the first 100 KB, with the file far from done.
            if (bytes > 100_000) {
              req.destroy();
              resolve(bytes);
            }
          });
          res.on('end', () => reject(new Error('the whole file arrived: the test needs a bigger export')));
        });
        req.on('error', () => undefined);
        req.end();
      });
      assert.ok(received > 100_000);
      await until(() => seen.ended === 1);
      const pagesAtEnd = seen.pulls;
      // The header chunk plus every page would be ROWS / PAGE_SIZE + 1 pulls; it stopped well before.
      assert.ok(pagesAtEnd < ROWS / PAGE_SIZE, `pulled ${pagesAtEnd} chunks of ${ROWS / PAGE_SIZE + 1}`);

      const next = await fetch(`http://127.0.0.1:${port}/api/v1/exports/payments.csv?status=failed`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(next.status, 200);
      assert.match(await next.text(), /^id,reference,/);
      assert.equal(seen.pulls, pagesAtEnd + 1, 'the abandoned export read nothing more (the new one read its header)');
    });

    it('a client that reads to the end gets every row once', async () => {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/exports/payments.csv`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(res.status, 200);
      const lines = (await res.text()).split('\r\n').filter((line) => line !== '');
      assert.equal(lines.length, ROWS + 1);
      const ids = new Set(lines.slice(1).map((line) => line.slice(0, line.indexOf(','))));
      assert.equal(ids.size, ROWS);
    });
  });
}
