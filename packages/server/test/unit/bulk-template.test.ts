import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { batchColumns } from '../../src/core/bulk/batch-columns.js';
import { checkBatchCsv } from '../../src/core/bulk/batch-csv-check.js';
import { batchExampleCsv, batchTemplateCsv } from '../../src/core/bulk/batch-template.js';

const catalog = loadDefaultCatalog();

describe('batchTemplateCsv', () => {
  it('is a UTF-8 BOM and a semicolon header of every English column name, ending in CRLF, and nothing else', () => {
    const template = batchTemplateCsv();
    assert.ok(template.startsWith('\ufeff'));
    assert.deepEqual(template.slice(1).split('\r\n'), [batchColumns.join(';'), '']);
  });

  it('pays nobody as downloaded: rows appended to it are the whole batch', async () => {
    const checked = await checkBatchCsv([`${batchTemplateCsv()}Kofi Adé;+228 90 00 00 01;1 000 000;XOF;paie-1;;tmoney_tg;\r\n`], catalog);
    assert.deepEqual(checked.problems, []);
    assert.deepEqual(
      checked.items.map((item) => [item.row, item.beneficiaryName]),
      [[2, 'Kofi Adé']],
    );
  });

  for (const delimiter of [';', ','] as const) {
    it(`the documented example round-trips through the reader and the checks (delimiter ${delimiter}): its line is a valid payout`, async () => {
      const checked = await checkBatchCsv([Buffer.from(batchExampleCsv(delimiter), 'utf8')], catalog);
      assert.deepEqual(checked.problems, []);
      assert.equal(checked.items.length, 1);
      assert.deepEqual(checked.items[0], {
        row: 2,
        beneficiaryName: 'Afi Mensah',
        phone: '+2290197000000',
        amountMinor: 2_500_000,
        feeMinor: 30_000,
        currency: 'XOF',
        reference: 'paie-2026-06-0001',
        country: 'BJ',
        operator: 'mtn_bj',
        description: 'Salaire juin 2026 (25 000 FCFA)',
        metadata: {},
      });
    });
  }

  it('takes filled-in lines appended the way a spreadsheet saves them', async () => {
    const filled = `${batchExampleCsv()}Kofi Adé;+228 90 00 00 01;1 000 000;XOF;paie-2026-06-0002;;tmoney_tg;"Prime; juin"\r\n`;
    const checked = await checkBatchCsv([filled], catalog);
    assert.deepEqual(checked.problems, []);
    assert.deepEqual(
      checked.items.map((item) => [item.row, item.beneficiaryName, item.country, item.description]),
      [
        [2, 'Afi Mensah', 'BJ', 'Salaire juin 2026 (25 000 FCFA)'],
        [3, 'Kofi Adé', 'TG', 'Prime; juin'],
      ],
    );
  });
});
