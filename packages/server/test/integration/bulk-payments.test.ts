/**
 * Bulk payment batches (docs/bulk.md, issue 12) on every database: create from JSON
 * items and from a CSV body, every bad line reported at once, list, detail, items, template
 * round-trip, scopes, gating and idempotency. The books are checked after every test.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { AkweError } from '../../src/core/errors/index.js';
import { newId } from '../../src/core/shared/ids.js';
import { bulkFollowJob } from '../../src/workers/payout-jobs.js';
import { WorkerPool } from '../../src/workers/worker-pool.js';
import { OperatorRegistry } from '../../src/operators/operator-registry.js';
import { SandboxLedger } from '../../src/operators/sandbox/sandbox-ledger.js';
import { SandboxOperator } from '../../src/operators/sandbox/sandbox-operator.js';
import { FakeClock } from '../support/fake-clock.js';
import { assertBooksBalance } from '../support/ledger-invariants.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const target of testDatabases()) {
  describe(`bulk payments on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    const clock = new FakeClock(new Date());

    before(async () => {
      t = await buildTestApp(target, {
        clock,
        env: { BULK_MAX_LINES: '50', BULK_MAX_BYTES: '20000', SANDBOX_FLOAT: '1000000' },
        operators: new OperatorRegistry({ test: new SandboxOperator(new SandboxLedger(), { payoutDelayMs: 0, clock }) }),
      });
    });
    after(() => t.close());
    afterEach(() => assertBooksBalance(t.services.database.db));

    const send = (key: string, method: 'GET' | 'POST', url: string, payload?: object | string, options: { idempotencyKey?: string | null; contentType?: string } = {}) => {
      const { idempotencyKey = newId(), contentType } = options;
      return t.app.inject({
        method,
        url: `/api/v1${url}`,
        headers: {
          authorization: `Bearer ${key}`,
          ...(method === 'POST' && idempotencyKey !== null ? { 'idempotency-key': idempotencyKey } : {}),
          ...(contentType ? { 'content-type': contentType } : {}),
        },
        ...(payload !== undefined ? { payload } : {}),
      });
    };
    const line = (overrides: Wire = {}) => ({
      beneficiary_name: 'Afi Mensah',
      phone: '0197000000',
      amount: 2_500_000,
      currency: 'XOF',
      reference: `L-${newId()}`,
      country: 'BJ',
      operator: 'mtn_bj',
      ...overrides,
    });
    const batchBody = (items: Wire[], overrides: Wire = {}) => ({ name: 'Salaires juin', description: 'Agents de terrain', items, ...overrides });
    const create = async (key: string, items: Wire[], overrides: Wire = {}) => {
      const res = await send(key, 'POST', '/bulk-payments/', batchBody(items, overrides));
      assert.equal(res.statusCode, 201, res.body);
      return res.json() as Wire;
    };
    const importCsv = (key: string, csv: string | Buffer, query = 'name=Import', idempotencyKey: string | null = newId()) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/bulk-payments/import_csv/?${query}`,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv; charset=utf-8', ...(idempotencyKey !== null ? { 'idempotency-key': idempotencyKey } : {}) },
        payload: csv,
      });
    const balance = async (key: string) => ((await send(key, 'GET', '/balances')).json().balances as Wire[]).find((b) => b.currency === 'XOF')!;

    describe('create from JSON items', () => {
      it('stores a draft batch with its lines pending, totals per status, and moves no money', async () => {
        const { testKey } = await t.newMerchant();
        const before = await balance(testKey);
        const batch = await create(testKey, [line(), line({ amount: 1_000_000, phone: '+229 01 97 00 00 00', country: undefined }), line({ operator: 'moov_bj' })], {
          metadata: { month: '2026-06' },
        });
        assert.equal(batch.object, 'bulk_payment');
        assert.equal(batch.status, 'draft');
        assert.equal(batch.source, 'api');
        assert.equal(batch.item_count, 3);
        assert.equal(batch.total_amount_minor, 6_000_000);
        assert.equal(batch.currency, 'XOF');
        assert.deepEqual(batch.metadata, { month: '2026-06' });
        assert.equal(batch.totals.pending.count, 3);
        assert.equal(batch.totals.pending.amount_minor, 6_000_000);
        assert.equal(batch.totals.pending.fee_minor, batch.total_fee_minor);
        assert.equal(batch.totals.completed.count, 0);
        assert.equal(batch.idempotent_replay, false);
        assert.deepEqual(await balance(testKey), before, 'a draft reserves nothing');

        const detail = await send(testKey, 'GET', `/bulk-payments/${batch.id}/`);
        assert.equal(detail.statusCode, 200);
        assert.deepEqual({ ...(detail.json() as Wire), idempotent_replay: false }, batch);

        const items = (await send(testKey, 'GET', `/bulk-payments/${batch.id}/items/`)).json();
        assert.equal(items.object, 'list');
        assert.deepEqual(
          items.data.map((i: Wire) => [i.object, i.row, i.status, i.phone]),
          [
            ['bulk_payment_item', 1, 'pending', '+2290197000000'],
            ['bulk_payment_item', 2, 'pending', '+2290197000000'],
            ['bulk_payment_item', 3, 'pending', '+2290197000000'],
          ],
        );
        assert.equal(items.data[1].country, 'BJ', 'taken from the international number');
        assert.equal(items.data[0].batch_id, batch.id);
        assert.equal(items.data[0].payout_id, null);
      });

      it('reports every problem of every line at once, with row, field and code, and stores nothing', async () => {
        const { testKey } = await t.newMerchant();
        const existing = await t.app.inject({
          method: 'POST',
          url: '/api/v1/payout/mobile-money/',
          headers: { authorization: `Bearer ${testKey}`, 'idempotency-key': newId() },
          payload: { amount: 500_000, phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: 'ALREADY-PAID' },
        });
        assert.equal(existing.statusCode, 201, existing.body);
        const items = [
          line({ reference: 'R-1' }),
          { reference: 'R-2' },
          line({ reference: 'R-1', phone: '97000000' }),
          line({ amount: 100 }),
          line({ operator: 'orange_ci' }),
          line({ currency: 'EUR' }),
          line({ country: 'SN' }),
          line({ reference: 'ALREADY-PAID' }),
          line({ reference: 'bad ref!' }),
        ];
        const res = await send(testKey, 'POST', '/bulk-payments/', batchBody(items));
        assert.equal(res.statusCode, 400, res.body);
        const error = res.json().error;
        assert.equal(error.code, 'validation_error');
        assert.equal(error.field, 'items');
        const details = error.details as Wire[];
        const has = (row: number, field: string, code: string) =>
          assert.ok(
            details.some((d) => d.row === row && d.field === field && d.code === code),
            `row ${row} ${field} ${code} in ${JSON.stringify(details)}`,
          );
        for (const field of ['beneficiary_name', 'phone', 'amount', 'currency']) has(2, field, 'validation_error');
        has(3, 'reference', 'duplicate_reference');
        has(3, 'phone', 'invalid_phone');
        has(4, 'amount', 'amount_too_low');
        has(5, 'operator', 'invalid_operator');
        has(6, 'currency', 'unsupported_currency');
        has(7, 'country', 'invalid_operator');
        has(8, 'reference', 'duplicate_reference');
        has(9, 'reference', 'validation_error');
        assert.ok(!details.some((d) => d.row === 1), 'row 1 is fine');
        assert.deepEqual(
          details.map((d) => d.row),
          [...details.map((d) => d.row)].sort((a, b) => a - b),
          'in row order',
        );
        assert.match(error.message, /8 lines/);
        assert.deepEqual((await send(testKey, 'GET', '/bulk-payments/')).json().data, []);
      });

      it("reports values of the wrong type with their row, beside the other lines' problems", async () => {
        const { testKey } = await t.newMerchant();
        const items = [line(), line({ amount: '25000', phone: 97000000 }), line({ operator: 'nobody' }), line({ amount: 2.5, colour: 'blue' })];
        const res = await send(testKey, 'POST', '/bulk-payments/', batchBody(items));
        assert.equal(res.statusCode, 400, res.body);
        const details = res.json().error.details as Wire[];
        assert.deepEqual(
          details.map((d) => [d.row, d.field, d.code]).sort((a, b) => a[0] - b[0] || String(a[1]).localeCompare(String(b[1]))),
          [
            [2, 'amount', 'validation_error'],
            [2, 'phone', 'validation_error'],
            [3, 'operator', 'invalid_operator'],
            [4, 'amount', 'validation_error'],
            [4, 'colour', 'validation_error'],
          ],
        );
        for (const detail of details) assert.ok(detail.message, 'each problem says what is wrong');
        const unrelated = await send(testKey, 'POST', '/bulk-payments/', batchBody([line({ amount: 'x' })], { name: 7 }));
        assert.equal(unrelated.statusCode, 400);
        assert.ok(
          (unrelated.json().error.details as Wire[]).some((d) => d.field === 'name'),
          'a problem outside the lines is an ordinary 400',
        );
        assert.deepEqual((await send(testKey, 'GET', '/bulk-payments/')).json().data, []);
      });

      it('refuses a batch over BULK_MAX_LINES, and schema errors as validation_error', async () => {
        const { testKey } = await t.newMerchant();
        const tooMany = await send(testKey, 'POST', '/bulk-payments/', batchBody(Array.from({ length: 51 }, () => line())));
        assert.equal(tooMany.statusCode, 400);
        assert.equal(tooMany.json().error.field, 'items');
        const empty = await send(testKey, 'POST', '/bulk-payments/', batchBody([]));
        assert.equal(empty.statusCode, 400);
        assert.equal(empty.json().error.code, 'validation_error');
        const noName = await send(testKey, 'POST', '/bulk-payments/', { items: [line()] });
        assert.equal(noName.statusCode, 400);
        assert.equal(noName.json().error.field, 'name');
      });

      it('needs an Idempotency-Key and replays the stored answer for it', async () => {
        const { testKey } = await t.newMerchant();
        const body = batchBody([line()]);
        const keyless = await send(testKey, 'POST', '/bulk-payments/', body, { idempotencyKey: null });
        assert.equal(keyless.statusCode, 400);
        assert.equal(keyless.json().error.code, 'missing_idempotency_key');
        const first = await send(testKey, 'POST', '/bulk-payments/', body, { idempotencyKey: 'bulk-1' });
        const again = await send(testKey, 'POST', '/bulk-payments/', body, { idempotencyKey: 'bulk-1' });
        assert.equal(again.statusCode, 201);
        assert.equal(again.json().id, first.json().id);
        assert.equal(again.json().idempotent_replay, true);
        const other = await send(testKey, 'POST', '/bulk-payments/', batchBody([line()]), { idempotencyKey: 'bulk-1' });
        assert.equal(other.statusCode, 422);
        assert.equal(other.json().error.code, 'idempotency_key_reused');
        assert.equal((await send(testKey, 'GET', '/bulk-payments/')).json().data.length, 1);
      });

      it('keeps no answer to a body the schema refuses under its Idempotency-Key: the corrected body with the same key is created', async () => {
        const { testKey } = await t.newMerchant();
        const nameless = await send(testKey, 'POST', '/bulk-payments/', { items: [line()] }, { idempotencyKey: 'fix-me' });
        assert.equal(nameless.statusCode, 400);
        assert.equal(nameless.json().error.field, 'name');
        const corrected = await send(testKey, 'POST', '/bulk-payments/', batchBody([line()]), { idempotencyKey: 'fix-me' });
        assert.equal(corrected.statusCode, 201, corrected.body);
        // A line the schema refuses (an amount sent as text) is a schema refusal too.
        const textAmount = await send(testKey, 'POST', '/bulk-payments/', batchBody([line({ amount: '25000' })]), { idempotencyKey: 'fix-me-2' });
        assert.equal(textAmount.statusCode, 400);
        assert.equal(textAmount.json().error.details[0].field, 'amount');
        const fixed = await send(testKey, 'POST', '/bulk-payments/', batchBody([line()]), { idempotencyKey: 'fix-me-2' });
        assert.equal(fixed.statusCode, 201, fixed.body);
      });

      it("keeps the answer to a well-formed batch refused for its lines' problems under its key, as documented", async () => {
        const { testKey } = await t.newMerchant();
        const body = batchBody([line({ phone: '12' })]);
        const refused = await send(testKey, 'POST', '/bulk-payments/', body, { idempotencyKey: 'lines-1' });
        assert.equal(refused.statusCode, 400);
        assert.equal(refused.json().error.details[0].code, 'invalid_phone');
        const again = await send(testKey, 'POST', '/bulk-payments/', body, { idempotencyKey: 'lines-1' });
        assert.equal(again.statusCode, 400);
        assert.equal(again.headers['idempotent-replayed'], 'true');
        const corrected = await send(testKey, 'POST', '/bulk-payments/', batchBody([line()]), { idempotencyKey: 'lines-1' });
        assert.equal(corrected.statusCode, 422);
        assert.equal(corrected.json().error.code, 'idempotency_key_reused');
      });
    });

    describe('CSV import', () => {
      const header = 'beneficiary_name;phone;amount;currency;reference;country;operator';
      it('imports semicolons with a BOM and French headings, commas with quoted fields', async () => {
        const { testKey } = await t.newMerchant();
        const semicolons = `\ufeffNom bénéficiaire;Téléphone;Montant;Devise;Référence;Pays;Opérateur\r\nAfi Mensah;01 97 00 00 00;2 500 000;XOF;S-1;BJ;mtn_bj\r\nKofi;0197000000;1000000;xof;S-2;BJ;moov_bj\r\n`;
        const res = await importCsv(testKey, semicolons, 'name=Juin&description=Paie');
        assert.equal(res.statusCode, 201, res.body);
        const batch = res.json();
        assert.equal(batch.source, 'csv');
        assert.equal(batch.name, 'Juin');
        assert.equal(batch.description, 'Paie');
        assert.equal(batch.total_amount_minor, 3_500_000);
        const items = (await send(testKey, 'GET', `/bulk-payments/${batch.id}/items/`)).json().data as Wire[];
        assert.deepEqual(
          items.map((i) => [i.row, i.reference, i.beneficiary_name]),
          [
            [2, 'S-1', 'Afi Mensah'],
            [3, 'S-2', 'Kofi'],
          ],
        );

        const commas =
          'beneficiary_name,phone,amount,currency,reference,country,operator,description\n"Mensah, Afi",0197000000,2500000,XOF,C-1,BJ,mtn_bj,"Salaire ""juin""\nagent"\n';
        const second = await importCsv(testKey, commas);
        assert.equal(second.statusCode, 201, second.body);
        const only = ((await send(testKey, 'GET', `/bulk-payments/${second.json().id}/items/`)).json().data as Wire[])[0]!;
        assert.equal(only.beneficiary_name, 'Mensah, Afi');
        assert.equal(only.description, 'Salaire "juin"\nagent');
      });

      it('reports every bad row by its spreadsheet row number and stores nothing', async () => {
        const { testKey } = await t.newMerchant();
        const csv = `${header}\nA;0197000000;2500000;XOF;D-1;BJ;mtn_bj\n;;;;;;\nB;12;2500000;XOF;D-1;BJ;mtn_bj\nC;0197000000;25000,00;XOF;D-3;BJ;mtn_bj\n`;
        const res = await importCsv(testKey, csv);
        assert.equal(res.statusCode, 400, res.body);
        const error = res.json().error;
        assert.equal(error.field, 'file');
        const found = (error.details as Wire[]).map((d) => `${d.row} ${d.field} ${d.code}`).sort();
        assert.deepEqual(found, ['4 phone invalid_phone', '4 reference duplicate_reference', '5 amount validation_error']);
        assert.deepEqual((await send(testKey, 'GET', '/bulk-payments/')).json().data, []);
      });

      it('refuses a file past the byte limit (413) or the line limit (400), a bad header, and a JSON body (415)', async () => {
        const { testKey } = await t.newMerchant();
        const big = `${header}\n${'A;0197000000;2500000;XOF;R;BJ;mtn_bj\n'.repeat(1000)}`;
        const tooBig = await importCsv(testKey, big);
        assert.equal(tooBig.statusCode, 413, tooBig.body);
        assert.equal(tooBig.json().error.code, 'payload_too_large');
        const tooLong = await importCsv(testKey, `${header}\n${Array.from({ length: 51 }, (_, i) => `A;0197000000;2500000;XOF;R-${i};BJ;mtn_bj`).join('\n')}`);
        assert.equal(tooLong.statusCode, 400, tooLong.body);
        const badHeader = await importCsv(testKey, 'name;phone\nA;0197000000\n');
        assert.equal(badHeader.statusCode, 400);
        assert.equal(badHeader.json().error.code, 'validation_error');
        const json = await send(testKey, 'POST', '/bulk-payments/import_csv/?name=x', { items: [] });
        assert.equal(json.statusCode, 415);
        const csvToCreate = await send(testKey, 'POST', '/bulk-payments/', `${header}\n`, { contentType: 'text/csv' });
        assert.equal(csvToCreate.statusCode, 415);
        assert.deepEqual((await send(testKey, 'GET', '/bulk-payments/')).json().data, []);
      });

      it('takes the file as a multipart/form-data upload too, and refuses a form without a file', async () => {
        const { testKey } = await t.newMerchant();
        const csv = `beneficiary_name;phone;amount;currency;reference;country;operator\r\nAfi;0197000000;1000000;XOF;MP-A-${newId()};BJ;mtn_bj\r\nKofi;0197000000;2000000;XOF;MP-B-${newId()};BJ;moov_bj\r\n`;
        const multipart = (parts: string) =>
          t.app.inject({
            method: 'POST',
            url: '/api/v1/bulk-payments/import_csv/?name=Upload',
            headers: { authorization: `Bearer ${testKey}`, 'idempotency-key': newId(), 'content-type': 'multipart/form-data; boundary=akweboundary' },
            payload: `${parts}--akweboundary--\r\n`,
          });
        const fileField = `--akweboundary\r\nContent-Disposition: form-data; name="note"\r\n\r\nignored\r\n--akweboundary\r\nContent-Disposition: form-data; name="file"; filename="paie.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n`;
        const res = await multipart(fileField);
        assert.equal(res.statusCode, 201, res.body);
        assert.deepEqual([res.json().source, res.json().item_count, res.json().total_amount_minor], ['csv', 2, 3_000_000]);
        const empty = await multipart(`--akweboundary\r\nContent-Disposition: form-data; name="note"\r\n\r\nno file\r\n`);
        assert.equal(empty.statusCode, 400, empty.body);
        assert.equal(empty.json().error.code, 'validation_error');
      });

      it('takes an import with only the file, as the contract shows it: named after the uploaded file, else dated', async () => {
        const { testKey } = await t.newMerchant();
        const csv = () => `beneficiary_name;phone;amount;currency;reference;country;operator\r\nAfi;0197000000;1000000;XOF;NN-${newId()};BJ;mtn_bj\r\n`;
        const upload = (fileName: string) =>
          t.app.inject({
            method: 'POST',
            url: '/api/v1/bulk-payments/import_csv/',
            headers: { authorization: `Bearer ${testKey}`, 'idempotency-key': newId(), 'content-type': 'multipart/form-data; boundary=akweboundary' },
            payload: `--akweboundary\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: text/csv\r\n\r\n${csv()}\r\n--akweboundary--\r\n`,
          });
        const named = await upload('Paie juin 2026.csv');
        assert.equal(named.statusCode, 201, named.body);
        assert.equal(named.json().name, 'Paie juin 2026');
        const raw = await importCsv(testKey, csv(), '');
        assert.equal(raw.statusCode, 201, raw.body);
        assert.match(raw.json().name as string, /^Import \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
        const nameless = await upload('.csv');
        assert.equal(nameless.statusCode, 201, nameless.body);
        assert.match(nameless.json().name as string, /^Import /);
        const given = await importCsv(testKey, csv(), 'name=Primes');
        assert.equal(given.json().name, 'Primes', 'a name given wins');
      });

      it('replays the same file under the same key and refuses another file under it', async () => {
        const { testKey } = await t.newMerchant();
        const csv = `${header}\nA;0197000000;2500000;XOF;I-1;BJ;mtn_bj\n`;
        const first = await importCsv(testKey, csv, 'name=x', 'csv-key');
        assert.equal(first.statusCode, 201, first.body);
        const again = await importCsv(testKey, csv, 'name=x', 'csv-key');
        assert.equal(again.statusCode, 201);
        assert.equal(again.json().id, first.json().id);
        assert.equal(again.json().idempotent_replay, true);
        const other = await importCsv(testKey, `${header}\nA;0197000000;2500000;XOF;I-2;BJ;mtn_bj\n`, 'name=x', 'csv-key');
        assert.equal(other.statusCode, 422);
        const keyless = await importCsv(testKey, csv, 'name=x', null);
        assert.equal(keyless.json().error.code, 'missing_idempotency_key');
      });

      it('round-trips the template: download, fill, import', async () => {
        const { testKey } = await t.newMerchant();
        const template = await send(testKey, 'GET', '/bulk-payments/template.csv');
        assert.equal(template.statusCode, 200);
        assert.match(String(template.headers['content-type']), /^text\/csv/);
        assert.match(String(template.headers['content-disposition']), /attachment; filename=/);
        assert.ok(template.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])), 'UTF-8 BOM');
        const filled = `${template.body}Kofi Mensah;0197000000;1000000;XOF;paie-2026-06-0002;BJ;moov_bj;\r\n`;
        const res = await importCsv(testKey, filled);
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.json().item_count, 1, 'the template itself holds no line to pay');
        const comma = await send(testKey, 'GET', '/bulk-payments/template.csv?delimiter=comma');
        const commaFilled = Buffer.concat([comma.rawPayload, Buffer.from('Kofi Mensah,0197000000,1000000,XOF,paie-2026-06-0003,BJ,moov_bj,\r\n')]);
        assert.equal((await importCsv(testKey, commaFilled)).statusCode, 201);
      });
    });

    describe('reads', () => {
      it('lists batches newest first with cursors and status and date filters', async () => {
        const { testKey } = await t.newMerchant();
        const ids: string[] = [];
        for (let i = 0; i < 3; i++) ids.push((await create(testKey, [line()], { name: `B${i}` })).id);
        const all = (await send(testKey, 'GET', '/bulk-payments/')).json();
        assert.deepEqual(
          all.data.map((b: Wire) => b.id),
          [...ids].reverse(),
        );
        assert.equal(all.data[0].totals, undefined, 'lists carry no totals');
        const page = (await send(testKey, 'GET', '/bulk-payments/?limit=2')).json();
        assert.equal(page.has_more, true);
        const next = (await send(testKey, 'GET', `/bulk-payments/?limit=2&starting_after=${page.data[1].id}`)).json();
        assert.deepEqual(
          next.data.map((b: Wire) => b.id),
          [ids[0]],
        );
        assert.equal((await send(testKey, 'GET', '/bulk-payments/?status=completed')).json().data.length, 0);
        assert.equal((await send(testKey, 'GET', '/bulk-payments/?status=draft')).json().data.length, 3);
        assert.equal((await send(testKey, 'GET', '/bulk-payments/?created_gte=2999-01-01T00:00:00Z')).json().data.length, 0);
        assert.equal((await send(testKey, 'GET', '/bulk-payments/?status=nope')).statusCode, 400);
      });

      it("pages a batch's lines in row order, filters them, and keeps batches to their merchant and environment", async () => {
        const { testKey, liveKey } = await t.newMerchant();
        const batch = await create(
          testKey,
          Array.from({ length: 25 }, () => line()),
        );
        const first = (await send(testKey, 'GET', `/bulk-payments/${batch.id}/items/?limit=10`)).json();
        assert.deepEqual(
          first.data.map((i: Wire) => i.row),
          [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        );
        assert.equal(first.has_more, true);
        const second = (await send(testKey, 'GET', `/bulk-payments/${batch.id}/items/?limit=10&starting_after=${first.data[9].id}`)).json();
        assert.deepEqual(
          second.data.map((i: Wire) => i.row),
          [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
        );
        const back = (await send(testKey, 'GET', `/bulk-payments/${batch.id}/items/?limit=5&ending_before=${second.data[0].id}`)).json();
        assert.deepEqual(
          back.data.map((i: Wire) => i.row),
          [6, 7, 8, 9, 10],
        );
        assert.equal((await send(testKey, 'GET', `/bulk-payments/${batch.id}/items/?status=completed`)).json().data.length, 0);
        assert.equal((await send(testKey, 'GET', `/bulk-payments/${batch.id}/items/?status=pending&limit=100`)).json().data.length, 25);

        const stranger = await t.newMerchant();
        assert.equal((await send(stranger.testKey, 'GET', `/bulk-payments/${batch.id}/`)).statusCode, 404);
        assert.equal((await send(stranger.testKey, 'GET', `/bulk-payments/${batch.id}/items/`)).statusCode, 404);
        assert.equal((await send(liveKey, 'GET', `/bulk-payments/${batch.id}/`)).statusCode, 404);
        assert.equal((await send(testKey, 'GET', '/bulk-payments/not-an-id/')).json().error.code, 'not_found');
      });
    });

    describe('validate: execution as payouts', () => {
      /** What the workers do: execute the batches' lines, hand off, ask about what is processing, follow. */
      const execute = async () => {
        while ((await t.services.bulk.followDue()) > 0);
      };
      const work = async () => {
        await execute();
        while ((await t.services.payouts.handOffDue()) > 0);
        clock.advance(1_000);
        while ((await t.services.payouts.checkDue()) > 0);
        while ((await t.services.bulk.followDue()) > 0);
      };
      const validate = (key: string, id: string, idempotencyKey: string | null = newId()) => send(key, 'POST', `/bulk-payments/${id}/validate/`, undefined, { idempotencyKey });
      const itemsOf = async (key: string, id: string) => (await send(key, 'GET', `/bulk-payments/${id}/items/?limit=100`)).json().data as Wire[];
      const payoutOf = async (key: string, reference: string) => (await send(key, 'GET', `/payout/mobile-money/${reference}/`)).json() as Wire;

      it('wakes the bulk worker when a batch is validated, without waiting for its polling pause', async () => {
        const { testKey } = await t.newMerchant();
        const batch = await create(testKey, [line(), line()]);
        const pool = new WorkerPool([bulkFollowJob(t.services.bulk, { idleDelayMs: 60_000 })], pino({ level: 'silent' }), t.services.signals);
        pool.start();
        try {
          await new Promise((resolve) => setTimeout(resolve, 100)); // the loop is now in its one-minute pause
          assert.equal((await validate(testKey, batch.id)).statusCode, 200);
          const deadline = Date.now() + 10_000;
          while ((await itemsOf(testKey, batch.id)).some((item) => item.status === 'pending')) {
            assert.ok(Date.now() < deadline, 'the lines became payouts before the polling pause ended');
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
        } finally {
          await pool.stop();
        }
      });

      it('runs a batch shaped as the contract describes its items (no operator, no country): operators predicted from the numbers', async () => {
        const { testKey } = await t.newMerchant();
        const contractLine = (phone: string) => ({ beneficiary_name: 'Afi Mensah', phone, amount: 2_500_000, currency: 'XOF', reference: `L-${newId()}` });
        const batch = await create(testKey, [contractLine('+2290197000000'), contractLine('+2290199000000'), contractLine('+22890000000'), contractLine('+2250501020300')]);
        const drafted = await itemsOf(testKey, batch.id);
        assert.deepEqual(
          drafted.map((item) => [item.country, item.operator]),
          [
            ['BJ', 'mtn_bj'],
            ['BJ', 'moov_bj'],
            ['TG', 'tmoney_tg'],
            ['CI', 'mtn_ci'],
          ],
        );
        assert.equal((await validate(testKey, batch.id)).statusCode, 200);
        await work();
        const done = (await send(testKey, 'GET', `/bulk-payments/${batch.id}/`)).json();
        assert.equal(done.status, 'completed', JSON.stringify(done));
        // The same as a CSV file with only the contract's columns.
        const imported = await importCsv(testKey, `nom;telephone;montant;devise;reference\nAfi Mensah;+228 90 00 00 00;25000;XOF;CSV-${newId()}\n`);
        assert.equal(imported.statusCode, 201, imported.body);
        assert.deepEqual(
          (await itemsOf(testKey, imported.json().id)).map((item) => [item.country, item.operator]),
          [['TG', 'tmoney_tg']],
        );
        // National numbers take the batch's country (JSON `country`, CSV `?country=`); without one they need their own.
        const national = await create(testKey, [contractLine('0197000000'), { ...contractLine('90000000'), country: 'TG' }], { country: 'BJ' });
        assert.deepEqual(
          (await itemsOf(testKey, national.id)).map((item) => [item.country, item.operator]),
          [
            ['BJ', 'mtn_bj'],
            ['TG', 'tmoney_tg'],
          ],
        );
        const nationalCsv = await importCsv(testKey, `nom;telephone;montant;devise;reference\nAfi;0701020304;25000;XOF;CSV-${newId()}\n`, 'name=Import&country=CI');
        assert.equal(nationalCsv.statusCode, 201, nationalCsv.body);
        assert.deepEqual(
          (await itemsOf(testKey, nationalCsv.json().id)).map((item) => [item.country, item.operator]),
          [['CI', 'orange_ci']],
        );
        // A national number that fits one served country's plan only (Togo's 8 digits) needs no country.
        const togolese = await create(testKey, [contractLine('90 00 00 00')]);
        assert.deepEqual(
          (await itemsOf(testKey, togolese.id)).map((item) => [item.country, item.phone, item.operator]),
          [['TG', '+22890000000', 'tmoney_tg']],
        );
        const countryless = await send(testKey, 'POST', '/bulk-payments/', batchBody([contractLine('0197000000')]));
        assert.deepEqual(
          countryless.json().error.details.map((d: Wire) => [d.field, d.code]),
          [['country', 'validation_error']],
        );
        const unpredictable = await send(testKey, 'POST', '/bulk-payments/', batchBody([contractLine('+2290129000000')]));
        assert.equal(unpredictable.statusCode, 400, unpredictable.body);
        assert.deepEqual(
          unpredictable.json().error.details.map((d: Wire) => [d.row, d.field, d.code]),
          [[1, 'operator', 'operator_required']],
        );
      });

      it('pays each line as a payout (its reference, the line id as payout id) and completes the batch', async () => {
        const { testKey } = await t.newMerchant();
        const batch = await create(testKey, [line(), line({ amount: 1_000_000 })]);
        const keyless = await validate(testKey, batch.id, null);
        assert.equal(keyless.json().error.code, 'missing_idempotency_key');
        const before = await balance(testKey);
        const res = await validate(testKey, batch.id, 'validate-1');
        assert.equal(res.statusCode, 200, res.body);
        const processing = res.json();
        assert.equal(processing.status, 'processing');
        assert.ok(processing.validated_at);
        assert.equal(processing.totals.pending.count, 2, 'the worker makes the payouts');
        assert.deepEqual(await balance(testKey), before);
        await execute();
        const reserved = await balance(testKey);
        assert.equal(before.available_minor - reserved.available_minor, batch.total_amount_minor + batch.total_fee_minor, 'every line reserved with its fee');
        const replay = await validate(testKey, batch.id, 'validate-1');
        assert.equal(replay.json().idempotent_replay, true);
        assert.equal(replay.json().status, 'processing');

        const items = await itemsOf(testKey, batch.id);
        for (const item of items) {
          assert.equal(item.status, 'processing');
          assert.equal(item.payout_id, item.id);
          const payout = await payoutOf(testKey, item.reference);
          assert.equal(payout.id, item.id);
          assert.equal(payout.amount, item.amount);
          assert.equal(payout.recipient_last_name, 'Afi Mensah');
        }
        await work();
        const done = (await send(testKey, 'GET', `/bulk-payments/${batch.id}/`)).json();
        assert.equal(done.status, 'completed');
        assert.ok(done.completed_at);
        assert.equal(done.totals.completed.count, 2);
        assert.equal(done.totals.completed.amount_minor, batch.total_amount_minor);
        assert.deepEqual(
          (await itemsOf(testKey, batch.id)).map((i) => i.status),
          ['completed', 'completed'],
        );
        assert.equal((await balance(testKey)).reserved_minor, 0);
        const events = (await send(testKey, 'GET', `/events?reference=${batch.id}`)).json().data as Wire[];
        assert.deepEqual(events.map((e) => [e.type, e.event_version, e.data.object.object, e.data.object.status]).reverse(), [
          ['bulk_payment.processing', '2025-01', 'bulk_payment', 'processing'],
          ['bulk_payment.completed', '2025-01', 'bulk_payment', 'completed'],
        ]);
        assert.equal(events[0]!.data.object.totals.completed.count, 2);
        const lineEvents = (await send(testKey, 'GET', `/events?reference=${items[0]!.reference}`)).json().data as Wire[];
        assert.deepEqual(lineEvents.map((e) => e.type).reverse(), ['payout.initiated', 'payout.updated', 'payout.completed']);
        const again = await validate(testKey, batch.id);
        assert.equal(again.statusCode, 409);
        assert.equal(again.json().error.code, 'invalid_state_transition');
      });

      it('ends partially_completed when some payouts fail, failed when none is paid', async () => {
        const { testKey } = await t.newMerchant();
        const mixed = await create(testKey, [line(), line({ phone: '0197000001' })]);
        assert.equal((await validate(testKey, mixed.id)).statusCode, 200);
        const none = await create(testKey, [line({ phone: '0197000001' }), line({ reference: `FAIL-${newId()}` })]);
        assert.equal((await validate(testKey, none.id)).statusCode, 200);
        await work();
        const mixedDone = (await send(testKey, 'GET', `/bulk-payments/${mixed.id}/`)).json();
        assert.equal(mixedDone.status, 'partially_completed');
        assert.equal(mixedDone.totals.completed.count, 1);
        assert.equal(mixedDone.totals.failed.count, 1);
        const failedLine = (await itemsOf(testKey, mixed.id)).find((i) => i.status === 'failed')!;
        assert.ok(failedLine.failure_code, "the payout's failure code");
        assert.equal((await send(testKey, 'GET', `/bulk-payments/${none.id}/`)).json().status, 'failed');
        const finalEvent = async (id: string) => ((await send(testKey, 'GET', `/events?reference=${id}`)).json().data as Wire[])[0]!.type;
        assert.equal(await finalEvent(mixed.id), 'bulk_payment.partially_completed');
        assert.equal(await finalEvent(none.id), 'bulk_payment.failed');
        assert.equal((await send(testKey, 'GET', '/bulk-payments/?status=failed')).json().data.length, 1);
        assert.equal((await balance(testKey)).reserved_minor, 0);
      });

      it('refuses a batch the available balance cannot cover (422) and leaves it a draft', async () => {
        const { testKey } = await t.newMerchant();
        const batch = await create(
          testKey,
          Array.from({ length: 45 }, () => line()),
        );
        const res = await validate(testKey, batch.id);
        assert.equal(res.statusCode, 422, res.body);
        assert.equal(res.json().error.code, 'insufficient_balance');
        assert.equal((await send(testKey, 'GET', `/bulk-payments/${batch.id}/`)).json().status, 'draft');
        assert.equal((await balance(testKey)).reserved_minor, 0);
      });

      it('cancels a draft with all its lines and one bulk_payment.cancelled event; a cancelled batch is not validated', async () => {
        const { testKey } = await t.newMerchant();
        const batch = await create(testKey, [line(), line({ amount: 1_000_000 })]);
        const before = await balance(testKey);
        const cancel = (idempotencyKey: string | null = null) => send(testKey, 'POST', `/bulk-payments/${batch.id}/cancel/`, undefined, { idempotencyKey });
        const res = await cancel();
        assert.equal(res.statusCode, 200, res.body);
        const cancelled = res.json();
        assert.equal(cancelled.status, 'cancelled');
        assert.ok(cancelled.completed_at);
        assert.deepEqual(cancelled.totals.cancelled, { count: 2, amount_minor: batch.total_amount_minor, fee_minor: batch.total_fee_minor });
        assert.equal(cancelled.totals.pending.count, 0);
        assert.deepEqual(
          (await itemsOf(testKey, batch.id)).map((i) => i.status),
          ['cancelled', 'cancelled'],
        );
        assert.equal((await cancel()).json().status, 'cancelled', 'cancelling again answers the batch as it is');
        const refused = await validate(testKey, batch.id);
        assert.equal(refused.statusCode, 409);
        assert.equal(refused.json().error.code, 'invalid_state_transition');
        await execute();
        assert.deepEqual(await balance(testKey), before, 'nothing reserved, nothing paid');
        const events = (await send(testKey, 'GET', `/events?reference=${batch.id}`)).json().data as Wire[];
        assert.deepEqual(
          events.map((e) => [e.type, e.data.object.status]),
          [['bulk_payment.cancelled', 'cancelled']],
        );
        assert.equal((await send(testKey, 'GET', '/bulk-payments/?status=cancelled')).json().data.length, 1);
      });

      it('refuses to cancel a validated batch (409) and pays it in full', async () => {
        const { testKey } = await t.newMerchant();
        const batch = await create(testKey, [line()]);
        assert.equal((await validate(testKey, batch.id)).statusCode, 200);
        const res = await send(testKey, 'POST', `/bulk-payments/${batch.id}/cancel/`, undefined, { idempotencyKey: null });
        assert.equal(res.statusCode, 409);
        assert.equal(res.json().error.code, 'invalid_state_transition');
        await work();
        assert.equal((await send(testKey, 'GET', `/bulk-payments/${batch.id}/`)).json().status, 'completed');
      });

      it('lets exactly one of a cancel and a validation racing on one draft win, never both', async () => {
        const { testKey } = await t.newMerchant();
        for (let round = 0; round < 5; round++) {
          const batch = await create(testKey, [line(), line()]);
          const [cancel, approve] = await Promise.all([
            send(testKey, 'POST', `/bulk-payments/${batch.id}/cancel/`, undefined, { idempotencyKey: null }),
            validate(testKey, batch.id),
          ]);
          const final = (await send(testKey, 'GET', `/bulk-payments/${batch.id}/`)).json();
          const events = ((await send(testKey, 'GET', `/events?reference=${batch.id}`)).json().data as Wire[]).map((e) => e.type);
          if (final.status === 'cancelled') {
            assert.deepEqual([cancel.statusCode, approve.statusCode], [200, 409], `round ${round}`);
            assert.deepEqual(events, ['bulk_payment.cancelled']);
          } else {
            assert.equal(final.status, 'processing');
            assert.deepEqual([cancel.statusCode, approve.statusCode], [409, 200], `round ${round}`);
            assert.deepEqual(events, ['bulk_payment.processing']);
          }
        }
        await work();
      });

      it('charges each line the fee fixed when it was drafted, even when the catalog’s fee differs at execution', async () => {
        const { testKey } = await t.newMerchant();
        const batch = await create(testKey, [line({ amount: 1_000_000 }), line({ amount: 2_000_000 })]);
        // The fee the catalog gives today, with the operators' fees since raised by 7.77 FCFA a line:
        // the state a catalog change between draft and approval leaves.
        const raise = 777;
        const { db } = t.services.database;
        await db
          .updateTable('bulk_batch_items')
          .set((eb) => ({ fee_minor: eb('fee_minor', '+', raise) }))
          .where('batch_id', '=', batch.id)
          .execute();
        await db
          .updateTable('bulk_batches')
          .set((eb) => ({ total_fee_minor: eb('total_fee_minor', '+', 2 * raise) }))
          .where('id', '=', batch.id)
          .execute();
        const drafted = await itemsOf(testKey, batch.id);
        const before = await balance(testKey);

        assert.equal((await validate(testKey, batch.id)).statusCode, 200);
        await work();
        for (const item of drafted) {
          const payout = await payoutOf(testKey, item.reference);
          assert.equal(payout.status, 'COMPLETED');
          assert.equal(payout.fee_minor, item.fee_minor, `line ${item.row}: the payout charges the drafted fee`);
        }
        const approved = (await send(testKey, 'GET', `/bulk-payments/${batch.id}/`)).json();
        assert.equal(approved.totals.completed.fee_minor, batch.total_fee_minor + 2 * raise);
        assert.equal(
          before.available_minor - (await balance(testKey)).available_minor,
          approved.total_amount_minor + approved.total_fee_minor,
          'the balance paid what the batch showed',
        );
      });

      it('leaves invalid a line whose reference was taken since the draft, and pays the others', async () => {
        const { testKey } = await t.newMerchant();
        const batch = await create(testKey, [line({ reference: 'TAKEN-LATER' }), line()]);
        const payout = await send(testKey, 'POST', '/payout/mobile-money/', { amount: 500_000, phone: '0197000000', country: 'BJ', operator: 'mtn_bj', reference: 'TAKEN-LATER' });
        assert.equal(payout.statusCode, 201);
        assert.equal((await validate(testKey, batch.id)).statusCode, 200);
        await execute();
        const [taken, paid] = await itemsOf(testKey, batch.id);
        assert.equal(taken!.status, 'invalid');
        assert.equal(taken!.payout_id, null);
        assert.deepEqual(
          taken!.problems.map((p: Wire) => [p.row, p.field, p.code]),
          [[1, 'reference', 'duplicate_reference']],
        );
        assert.equal(paid!.status, 'processing');
        await work();
        assert.equal((await send(testKey, 'GET', `/bulk-payments/${batch.id}/`)).json().status, 'partially_completed');
      });

      it("resumes a run that died after a line's payout committed, without paying that line twice", async () => {
        const { testKey, merchantId } = await t.newMerchant();
        const batch = await create(testKey, [line(), line(), line()]);
        const [first] = await itemsOf(testKey, batch.id);
        // The state an interrupted run leaves: the batch processing, line 1's payout committed
        // (with the line's id) but the line not yet updated, lines 2 and 3 untouched.
        const merchant = await t.services.merchants.getMerchant(merchantId);
        await t.services.database.db.updateTable('bulk_batches').set({ status: 'processing', version: 2 }).where('id', '=', batch.id).execute();
        const before = await balance(testKey);
        await t.services.payouts.create(
          { merchantId, environment: 'test', merchant },
          { id: first!.id, reference: first!.reference, amountMinor: first!.amount, phone: first!.phone, country: first!.country, operator: first!.operator },
        );

        const res = await validate(testKey, batch.id);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().totals.pending.count, 3, 'a processing batch is answered as it is');
        await execute();
        const items = await itemsOf(testKey, batch.id);
        assert.deepEqual(
          items.map((i) => [i.status, i.payout_id]),
          items.map((i) => ['processing', i.id]),
        );
        const payouts = (await send(testKey, 'GET', '/payout/mobile-money/?limit=100')).json().data as Wire[];
        assert.equal(payouts.length, 3, 'one payout per line');
        const everyLineOnce = items.reduce((sum, i) => sum + i.amount + i.fee_minor, 0);
        assert.equal(before.available_minor - (await balance(testKey)).available_minor, everyLineOnce, 'each line reserved once, line 1 before the crash');
        await work();
        assert.equal((await send(testKey, 'GET', `/bulk-payments/${batch.id}/`)).json().status, 'completed');
      });

      it('never marks invalid a line whose payout exists: a worker that lost the race for it leaves it to be linked', async () => {
        const { testKey, merchantId } = await t.newMerchant();
        const batch = await create(testKey, [line()]);
        assert.equal((await validate(testKey, batch.id)).statusCode, 200);
        const [item] = await itemsOf(testKey, batch.id);
        // Another worker made this line's payout meanwhile; this one is refused it (say, the balance
        // it read was already spent by that very payout).
        const merchant = await t.services.merchants.getMerchant(merchantId);
        await t.services.payouts.create(
          { merchantId, environment: 'test', merchant },
          { id: item!.id, reference: item!.reference, amountMinor: item!.amount, phone: item!.phone, country: item!.country, operator: item!.operator },
        );
        const payouts = t.services.payouts;
        const original = payouts.createMany.bind(payouts);
        payouts.createMany = async (...args: Parameters<typeof original>) =>
          args[1].map(() => ({ error: new AkweError('insufficient_balance', 'The available balance cannot cover it.') }));
        try {
          await t.services.bulk.followDue(100);
        } finally {
          payouts.createMany = original;
        }
        assert.equal((await itemsOf(testKey, batch.id))[0]!.status, 'pending', 'not invalid: its payout exists');
        await execute();
        const [linked] = await itemsOf(testKey, batch.id);
        assert.deepEqual([linked!.status, linked!.payout_id], ['processing', item!.id]);
      });

      it("visits every processing batch in turn: one waiting on its payouts does not keep a later batch, another merchant's, from running", async () => {
        const early = await t.newMerchant();
        // Phone suffix 0002: the sandbox keeps the payout PROCESSING for good, so the batch waits forever.
        const waiting = await create(early.testKey, [line({ phone: '0197000002' })]);
        assert.equal((await validate(early.testKey, waiting.id)).statusCode, 200);
        const processing = () => t.services.database.db.selectFrom('bulk_batches').select(['id', 'updated_at']).where('status', '=', 'processing').execute();
        // One batch per pass: as many passes as there are batches reach every one of them.
        const visitEach = async () => {
          for (let pass = (await processing()).length; pass > 0; pass--) await t.services.bulk.followDue(1);
        };
        await visitEach();
        assert.equal((await itemsOf(early.testKey, waiting.id))[0]!.status, 'processing');
        clock.advance(1_000);

        const later = await t.newMerchant();
        const next = await create(later.testKey, [line()]);
        assert.equal((await validate(later.testKey, next.id)).statusCode, 200);
        const updatedBefore = (await processing()).find((b) => b.id === waiting.id)!.updated_at;
        clock.advance(1_000);
        await visitEach();
        assert.equal((await itemsOf(later.testKey, next.id))[0]!.status, 'processing', 'the later batch ran');
        assert.equal((await processing()).find((b) => b.id === waiting.id)!.updated_at, updatedBefore, 'a visit that moved nothing leaves updated_at as it was');
      });

      it('a batch whose execution fails does not stop the pass: the others are still visited, then the error is thrown', async () => {
        const { testKey } = await t.newMerchant();
        const failing = await create(testKey, [line()]);
        const healthy = await create(testKey, [line()]);
        for (const batch of [failing, healthy]) assert.equal((await validate(testKey, batch.id)).statusCode, 200);
        const failingLine = (await itemsOf(testKey, failing.id))[0]!.id as string;
        const payouts = t.services.payouts;
        const original = payouts.createMany.bind(payouts);
        payouts.createMany = async (...args: Parameters<typeof original>) => {
          if (args[1].some((input) => input.id === failingLine)) throw new Error('this batch cannot be executed');
          return original(...args);
        };
        try {
          await assert.rejects(t.services.bulk.followDue(100), /this batch cannot be executed/);
        } finally {
          payouts.createMany = original;
        }
        assert.equal((await itemsOf(testKey, healthy.id))[0]!.status, 'processing', 'the healthy batch ran in the same pass');
        assert.equal((await itemsOf(testKey, failing.id))[0]!.status, 'pending');
        await execute();
        assert.equal((await itemsOf(testKey, failing.id))[0]!.status, 'processing', 'and the failing one runs once it can');
      });

      it("a worker that dies mid-batch, after a group's payouts committed and before its lines were marked, is resumed by the next pass", async () => {
        const { testKey } = await t.newMerchant();
        const batch = await create(
          testKey,
          Array.from({ length: 5 }, () => line()),
        );
        const before = await balance(testKey);
        assert.equal((await validate(testKey, batch.id)).statusCode, 200);
        const payouts = t.services.payouts;
        const original = payouts.createMany.bind(payouts);
        payouts.createMany = async (...args: Parameters<typeof original>) => {
          await original(...args);
          throw new Error("worker died after the group's payouts committed");
        };
        try {
          await assert.rejects(t.services.bulk.followDue(), /worker died/);
        } finally {
          payouts.createMany = original;
        }
        const halfway = (await itemsOf(testKey, batch.id)).map((i) => i.status);
        assert.deepEqual(halfway, ['pending', 'pending', 'pending', 'pending', 'pending'], 'paid but not marked');
        assert.equal(((await send(testKey, 'GET', '/payout/mobile-money/?limit=100')).json().data as Wire[]).length, 5, 'the payouts committed');
        await work();
        const items = await itemsOf(testKey, batch.id);
        assert.deepEqual(
          items.map((i) => [i.status, i.payout_id]),
          items.map((i) => ['completed', i.id]),
        );
        const made = (await send(testKey, 'GET', '/payout/mobile-money/?limit=100')).json().data as Wire[];
        assert.equal(made.length, 5, 'one payout per line');
        assert.equal(
          before.available_minor - (await balance(testKey)).available_minor,
          items.reduce((sum, i) => sum + i.amount + i.fee_minor, 0),
          'each line paid once',
        );
        assert.equal((await send(testKey, 'GET', `/bulk-payments/${batch.id}/`)).json().status, 'completed');
      });
    });

    describe('access', () => {
      it('needs bulk:read and bulk:write', async () => {
        const reader = await t.newMerchant({ scopes: ['bulk:read'] });
        const writer = await t.newMerchant({ scopes: ['bulk:write'] });
        const payouts = await t.newMerchant({ scopes: ['payout:read', 'payout:write'] });
        assert.equal((await send(reader.testKey, 'POST', '/bulk-payments/', batchBody([line()]))).json().error.code, 'insufficient_scope');
        assert.equal((await importCsv(reader.testKey, 'x')).json().error.code, 'insufficient_scope');
        assert.equal((await send(reader.testKey, 'GET', '/bulk-payments/')).statusCode, 200);
        assert.equal((await send(reader.testKey, 'GET', '/bulk-payments/template.csv')).statusCode, 200);
        assert.equal((await send(writer.testKey, 'POST', '/bulk-payments/', batchBody([line()]))).statusCode, 201);
        assert.equal((await send(writer.testKey, 'GET', '/bulk-payments/')).json().error.code, 'insufficient_scope');
        assert.equal((await send(payouts.testKey, 'GET', '/bulk-payments/')).statusCode, 403);
      });

      it('gates live batches like payouts (kyc_required, account_inactive); test is open', async () => {
        const pending = await t.newMerchant({ kyc: 'pending' });
        assert.equal((await send(pending.testKey, 'POST', '/bulk-payments/', batchBody([line()]))).statusCode, 201);
        const live = await send(pending.liveKey, 'POST', '/bulk-payments/', batchBody([line()]));
        assert.equal(live.statusCode, 403);
        assert.equal(live.json().error.code, 'kyc_required');
        const liveCsv = await importCsv(pending.liveKey, 'beneficiary_name;phone;amount;currency;reference;country;operator\nA;0197000000;2500000;XOF;G-1;BJ;mtn_bj\n');
        assert.equal(liveCsv.json().error.code, 'kyc_required');

        const validated = await t.newMerchant();
        assert.equal((await send(validated.liveKey, 'POST', '/bulk-payments/', batchBody([line()]))).statusCode, 201);
        await t.services.merchants.updateMerchant(validated.merchantId, { status: 'suspended' });
        const suspended = await send(validated.liveKey, 'POST', '/bulk-payments/', batchBody([line()]));
        assert.equal(suspended.json().error.code, 'account_inactive');
        // Decided (docs/decisions.md, issue 29): test mode keeps working for a suspended merchant.
        const testBatch = await send(validated.testKey, 'POST', '/bulk-payments/', batchBody([line()]));
        assert.equal(testBatch.statusCode, 201, testBatch.body);
        const validatedTest = await send(validated.testKey, 'POST', `/bulk-payments/${testBatch.json().id}/validate/`);
        assert.equal(validatedTest.statusCode, 200, validatedTest.body);
        assert.equal(validatedTest.json().status, 'processing');
      });
    });
  });
}
