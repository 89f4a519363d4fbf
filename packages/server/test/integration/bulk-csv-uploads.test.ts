/**
 * CSV imports through a real socket, as the file (`text/csv`) and as a form upload
 * (`multipart/form-data`), on every database: every refused upload answers its 4xx at once (a
 * client timeout of a second would catch a request left hanging), stores nothing, and files saved
 * by spreadsheets in their encodings import with their accents intact.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import { request } from 'undici';
import { newId } from '../../src/core/shared/ids.js';
import { assertBooksBalance } from '../support/ledger-invariants.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/bulk-encodings/${name}`, import.meta.url));
const maxBytes = 20_000;
const boundary = 'akwe-upload-boundary';

type Part = { name: string; filename?: string; content: Buffer | string };
function multipartBody(parts: Part[]): Buffer {
  const pieces = parts.flatMap((part) => [
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"\r\nContent-Type: text/csv` : ''}\r\n\r\n`),
    Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content),
    Buffer.from('\r\n'),
  ]);
  return Buffer.concat([...pieces, Buffer.from(`--${boundary}--\r\n`)]);
}

const forms = ['text/csv', 'multipart/form-data'] as const;
type Form = (typeof forms)[number];

for (const target of testDatabases()) {
  describe(`CSV uploads over a socket on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let base: string;

    before(async () => {
      t = await buildTestApp(target, { env: { BULK_MAX_BYTES: String(maxBytes), BULK_MAX_LINES: '50' } });
      base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(() => t.close());
    afterEach(() => assertBooksBalance(t.services.database.db));

    /** Posts within a second: a request left without an answer fails the test instead of waiting. */
    async function post(key: string, body: Buffer, contentType: string) {
      const res = await request(`${base}/api/v1/bulk-payments/import_csv/?name=Import`, {
        method: 'POST',
        body,
        headers: { authorization: `Bearer ${key}`, 'idempotency-key': newId(), 'content-type': contentType },
        headersTimeout: 1000,
        bodyTimeout: 1000,
      });
      const text = await res.body.text();
      return { statusCode: res.statusCode, json: JSON.parse(text) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    }
    const upload = (key: string, file: Buffer, form: Form) =>
      form === 'text/csv'
        ? post(key, file, 'text/csv')
        : post(key, multipartBody([{ name: 'file', filename: 'paie.csv', content: file }]), `multipart/form-data; boundary=${boundary}`);
    async function batchesOf(key: string): Promise<unknown[]> {
      const res = await request(`${base}/api/v1/bulk-payments/`, { headers: { authorization: `Bearer ${key}` } });
      return ((await res.body.json()) as { data: unknown[] }).data;
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async function assertRefused(key: string, answer: { statusCode: number; json: Record<string, any> }, status: number, code: string, message: RegExp) {
      assert.equal(answer.statusCode, status, JSON.stringify(answer.json));
      assert.equal(answer.json.error.code, code);
      assert.match(answer.json.error.message, message);
      assert.deepEqual(await batchesOf(key), [], 'nothing was stored');
    }

    for (const form of forms) {
      describe(`as ${form}`, () => {
        for (const name of ['windows-1252.csv', 'utf8.csv', 'utf8-bom.csv', 'utf16le-bom.csv', 'utf16be-bom.csv']) {
          it(`imports ${name} with its accents intact`, async () => {
            const { testKey } = await t.newMerchant();
            const res = await upload(testKey, fixture(name), form);
            assert.equal(res.statusCode, 201, JSON.stringify(res.json));
            assert.equal(res.json.item_count, 3);
            const items = await request(`${base}/api/v1/bulk-payments/${res.json.id}/items/`, { headers: { authorization: `Bearer ${testKey}` } });
            const lines = ((await items.body.json()) as { data: Array<{ beneficiary_name: string; description: string }> }).data;
            assert.deepEqual(
              lines.map((line) => [line.beneficiary_name, line.description]),
              [
                ['Hélène Kpètè', 'Prime de Noël'],
                ['François Gbèdo', 'Côte à côte'],
                ['Jérôme Ahouansou', 'Reçu été'],
              ],
            );
          });
        }

        it('answers 400 at once for binary garbage, a workbook and mixed encodings, and stores nothing', async () => {
          const { testKey } = await t.newMerchant();
          const garbage = Buffer.from(Array.from({ length: 139 }, (_, index) => (index * 89 + 7) % 256));
          await assertRefused(testKey, await upload(testKey, garbage, form), 400, 'validation_error', /not a CSV text file/);
          const xlsx = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(2000, 1)]);
          await assertRefused(testKey, await upload(testKey, xlsx, form), 400, 'validation_error', /Excel \.xlsx/);
          const mixed = Buffer.concat([fixture('utf8.csv'), Buffer.from('Ad\xe9;0197000000;1000000;XOF;ENC-9;BJ;mtn_bj;x\r\n', 'latin1')]);
          await assertRefused(testKey, await upload(testKey, mixed, form), 400, 'validation_error', /mixes two encodings/);
        });

        it('answers 413 at once for a file over the limit, and stores nothing', async () => {
          const { testKey } = await t.newMerchant();
          const line = 'Afi Mensah;0197000000;1000000;XOF;REF;BJ;mtn_bj;x\r\n';
          const big = Buffer.from(`nom;telephone;montant;devise;reference;pays;operateur;motif\r\n${line.repeat(Math.ceil((maxBytes * 2) / line.length))}`);
          await assertRefused(testKey, await upload(testKey, big, form), 413, 'payload_too_large', /larger than/);
        });

        it('reports a NUL in a cell as a line problem with its row and column', async () => {
          const { testKey } = await t.newMerchant();
          const file = Buffer.from('nom;telephone;montant;devise;reference;pays;operateur\r\nAfi\u0000;0197000000;1000000;XOF;N-1;BJ;mtn_bj\r\n');
          const res = await upload(testKey, file, form);
          await assertRefused(testKey, res, 400, 'validation_error', /1 line/);
          assert.deepEqual(res.json.error.details, [
            { row: 2, field: 'beneficiary_name', code: 'validation_error', message: 'Column A (beneficiary_name) holds a control character (U+0000); retype the cell.' },
          ]);
        });
      });
    }

    describe('multipart only', () => {
      const multipart = (key: string, parts: Part[]) => post(key, multipartBody(parts), `multipart/form-data; boundary=${boundary}`);

      it('refuses a second file part with 400 at once, however large, and stores nothing', async () => {
        const { testKey } = await t.newMerchant();
        const res = await multipart(testKey, [
          { name: 'file', filename: 'a.csv', content: fixture('utf8.csv') },
          { name: 'other', filename: 'b.csv', content: Buffer.alloc(3 * 1024 * 1024, 'a') },
        ]);
        await assertRefused(testKey, res, 400, 'validation_error', /more than one file/);
      });

      it('limits the whole body, not only the file: a large field beside a small file is 413', async () => {
        const { testKey } = await t.newMerchant();
        const res = await multipart(testKey, [
          { name: 'note', content: 'x'.repeat(200_000) },
          { name: 'file', filename: 'a.csv', content: fixture('utf8.csv') },
        ]);
        await assertRefused(testKey, res, 413, 'payload_too_large', /upload is larger than/);
      });

      it('refuses a form without a file and a body busboy cannot read, at once', async () => {
        const { testKey } = await t.newMerchant();
        await assertRefused(testKey, await multipart(testKey, [{ name: 'note', content: 'no file' }]), 400, 'validation_error', /holds no file/);
        const truncated = multipartBody([{ name: 'file', filename: 'a.csv', content: fixture('utf8.csv') }]).subarray(0, 120);
        await assertRefused(
          testKey,
          await post(testKey, truncated, `multipart/form-data; boundary=${boundary}`),
          400,
          'validation_error',
          /multipart body cannot be read|Unexpected end of form/,
        );
        await assertRefused(testKey, await post(testKey, Buffer.from('x'), 'multipart/form-data'), 400, 'validation_error', /multipart body cannot be read/);
      });

      it('lets a client that drops the connection mid-upload go: nothing stored, the server answers the next upload', async () => {
        const { testKey } = await t.newMerchant();
        const port = Number(new URL(base).port);
        const body = multipartBody([{ name: 'file', filename: 'a.csv', content: fixture('utf8.csv') }]);
        await new Promise<void>((resolve) => {
          const socket = connect(port, '127.0.0.1', () => {
            socket.write(
              `POST /api/v1/bulk-payments/import_csv/?name=x HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${testKey}\r\nIdempotency-Key: ${newId()}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`,
            );
            socket.write(body.subarray(0, 200), () =>
              setTimeout(() => {
                socket.destroy();
                resolve();
              }, 100),
            );
          });
          socket.on('error', () => {});
        });
        // The abandoned request is over on the server too: no parser left waiting for a body that will not come.
        const settled = await Promise.race([t.app.inFlightWork.idle().then(() => 'idle'), new Promise((resolve) => setTimeout(() => resolve('still in flight'), 1000))]);
        assert.equal(settled, 'idle');
        assert.deepEqual(await batchesOf(testKey), []);
        const next = await post(testKey, body, `multipart/form-data; boundary=${boundary}`);
        assert.equal(next.statusCode, 201, JSON.stringify(next.json));
        assert.equal((await batchesOf(testKey)).length, 1);
      });

      it('still imports a file sent after other fields, and stores one batch', async () => {
        const { testKey } = await t.newMerchant();
        const res = await multipart(testKey, [
          { name: 'note', content: 'ignored' },
          { name: 'file', filename: 'a.csv', content: fixture('windows-1252.csv') },
        ]);
        assert.equal(res.statusCode, 201, JSON.stringify(res.json));
        assert.equal((await batchesOf(testKey)).length, 1);
      });
    });
  });
}
