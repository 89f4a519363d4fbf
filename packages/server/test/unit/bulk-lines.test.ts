import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadDefaultCatalog, OperatorCatalog } from '../../src/core/catalog/operator-catalog.js';
import { readAmount } from '../../src/core/bulk/batch-amount.js';
import { checkBatchCsv } from '../../src/core/bulk/batch-csv-check.js';
import { BatchLineChecker, type BatchLineInput } from '../../src/core/bulk/batch-lines.js';

const catalog = loadDefaultCatalog();

const validLine: BatchLineInput = {
  beneficiaryName: 'Afi Mensah',
  phone: '0197000000',
  amount: '2500000',
  currency: 'XOF',
  reference: 'pay-1',
  country: 'BJ',
  operator: 'mtn_bj',
};

/** The [field, code] pairs of the problems of one line, checked alone. */
function problemsOf(line: BatchLineInput, checker = new BatchLineChecker(catalog)): Array<[string, string]> {
  const check = checker.check(2, line);
  return check.ok ? [] : check.problems.map((p) => [p.field, p.code]);
}

describe('BatchLineChecker: a valid line', () => {
  it('becomes an item with the E.164 number, the canonical operator slug and the payout fee', () => {
    const check = new BatchLineChecker(catalog).check(7, { ...validLine, operator: 'MTN_BJ', currency: 'xof', description: ' June ', metadata: { team: 'north' } });
    assert.deepEqual(check, {
      ok: true,
      item: {
        row: 7,
        beneficiaryName: 'Afi Mensah',
        phone: '+2290197000000',
        amountMinor: 2_500_000,
        feeMinor: 30_000, // 1 % of 2 500 000 plus 5 000 fixed (the catalog's payout fee)
        currency: 'XOF',
        reference: 'pay-1',
        country: 'BJ',
        operator: 'mtn_bj',
        description: 'June',
        metadata: { team: 'north' },
      },
    });
  });

  it('maps an alias to its canonical slug (togocom_tg is tmoney_tg)', () => {
    const check = new BatchLineChecker(catalog).check(2, { ...validLine, country: 'TG', phone: '90000000', operator: 'togocom_tg' });
    assert.equal(check.ok && check.item.operator, 'tmoney_tg');
  });

  it('takes a JSON item whose amount is a number', () => {
    const check = new BatchLineChecker(catalog).check(0, { ...validLine, amount: 2_500_000 });
    assert.equal(check.ok && check.item.amountMinor, 2_500_000);
  });
});

describe('BatchLineChecker: the country', () => {
  it('derives it from an international number (+229 BJ, +228 TG, 00225 CI)', () => {
    const checker = new BatchLineChecker(catalog);
    const countryOf = (phone: string, operator: string, reference: string) => {
      const check = checker.check(2, { ...validLine, country: undefined, phone, operator, reference });
      assert.ok(check.ok, JSON.stringify(check));
      return [check.item.country, check.item.phone];
    };
    assert.deepEqual(countryOf('+229 01 97 00 00 00', 'mtn_bj', 'a'), ['BJ', '+2290197000000']);
    assert.deepEqual(countryOf('+22890000000', 'flooz_tg', 'b'), ['TG', '+22890000000']);
    assert.deepEqual(countryOf('002250700000000', 'orange_ci', 'c'), ['CI', '+2250700000000']);
  });

  it('is required for a national number, and refused for a number outside the served countries', () => {
    assert.deepEqual(problemsOf({ ...validLine, country: undefined }), [['country', 'validation_error']]);
    assert.deepEqual(problemsOf({ ...validLine, country: undefined, phone: '+33612345678' }), [['phone', 'invalid_phone']]);
  });

  it('refuses a country Akwe does not serve with invalid_operator, as payouts do', () => {
    assert.deepEqual(problemsOf({ ...validLine, country: 'FR' }), [['country', 'invalid_operator']]);
  });

  it('refuses a number of another country than the one given', () => {
    const check = new BatchLineChecker(catalog).check(2, { ...validLine, phone: '+22890000000' });
    assert.ok(!check.ok);
    assert.deepEqual(
      check.problems.map((p) => [p.field, p.code]),
      [['phone', 'invalid_phone']],
    );
    assert.match(check.problems[0]!.message, /Togo/);
  });
});

describe('BatchLineChecker: operator, currency and amount', () => {
  it('predicts the operator from the number when none is given, lets an explicit one win, and refuses one that does not pay out in the country', () => {
    const predicted = new BatchLineChecker(catalog).check(2, { ...validLine, operator: undefined });
    assert.ok(predicted.ok && predicted.item.operator === 'mtn_bj', JSON.stringify(predicted));
    const moov = new BatchLineChecker(catalog).check(2, { ...validLine, operator: undefined, phone: '0199000000' });
    assert.ok(moov.ok && moov.item.operator === 'moov_bj', JSON.stringify(moov));
    const explicit = new BatchLineChecker(catalog).check(2, { ...validLine, operator: 'moov_bj' });
    assert.ok(explicit.ok && explicit.item.operator === 'moov_bj', 'a ported number: the line’s operator wins');
    assert.deepEqual(problemsOf({ ...validLine, operator: undefined, phone: '0129000000' }), [['operator', 'operator_required']]);
    assert.deepEqual(problemsOf({ ...validLine, operator: 'orange_ci' }), [['operator', 'invalid_operator']]);
    assert.deepEqual(problemsOf({ ...validLine, operator: 'nope' }), [['operator', 'invalid_operator']]);
  });

  it('refuses an operator whose catalog entry does not pay out', () => {
    const path = fileURLToPath(new URL('../../src/core/catalog/operators.json', import.meta.url));
    const data = JSON.parse(readFileSync(path, 'utf8'));
    data.countries[0].operators[0].payout.supported = false; // mtn_bj
    const noPayouts = OperatorCatalog.fromData(data);
    assert.deepEqual(problemsOf(validLine, new BatchLineChecker(noPayouts)), [['operator', 'invalid_operator']]);
  });

  it('accepts XOF in any letter case, refuses another currency and one the country does not pay out in', () => {
    assert.deepEqual(problemsOf({ ...validLine, currency: 'EUR' }), [['currency', 'unsupported_currency']]);
    assert.deepEqual(problemsOf({ ...validLine, currency: 'XAF' }), [['currency', 'unsupported_currency']]);
  });

  it("holds the amount within the operator's payout limits", () => {
    assert.deepEqual(problemsOf({ ...validLine, amount: '9999' }), [['amount', 'amount_too_low']]);
    assert.deepEqual(problemsOf({ ...validLine, amount: '10000' }), []);
    assert.deepEqual(problemsOf({ ...validLine, amount: '200000000' }), []);
    assert.deepEqual(problemsOf({ ...validLine, amount: '200000001' }), [['amount', 'amount_too_high']]);
    // Celtiis pays out less at most than MTN (catalog: 100 000 000 centimes).
    assert.deepEqual(problemsOf({ ...validLine, operator: 'celtiis_bj', amount: '100000001' }), [['amount', 'amount_too_high']]);
  });
});

describe('readAmount: whole centimes', () => {
  it('accepts digits, and thousands grouped by spaces as French spreadsheets write them', () => {
    for (const [text, centimes] of [
      ['2500000', 2_500_000],
      ['2 500 000', 2_500_000],
      ['2\u00a0500\u00a0000', 2_500_000],
      ['2\u202f500\u202f000', 2_500_000],
      [' 10000 ', 10_000],
      ['007', 7],
    ] as const) {
      assert.deepEqual(readAmount(text), { ok: true, amountMinor: centimes }, text);
    }
  });

  it('refuses decimals, comma or dot groups, signs, zero, badly grouped digits and words', () => {
    for (const text of ['100.50', '100,50', '1 000,00', '1,000', '1.000', '-500', '+500', '0', '10 00', '1  000', '12abc', 'dix', '9'.repeat(20)]) {
      assert.equal(readAmount(text).ok, false, text);
    }
    assert.match((readAmount('100,50') as { message: string }).message, /without a decimal part/);
    assert.equal(readAmount(0).ok, false);
    assert.equal(readAmount(12.5).ok, false);
  });

  it('names the unit in every refusal, so an amount in FCFA sent for centimes is caught', () => {
    for (const raw of ['100,50', '0', '9'.repeat(20), 'dix', 0, -5, 12.5]) {
      const reading = readAmount(raw);
      assert.ok(!reading.ok && /whole centimes \(2500000 = 25 000 FCFA\)/.test(reading.message), String(raw));
    }
  });
});

describe('BatchLineChecker: references and the other fields', () => {
  it('refuses a reference used by an earlier line, naming that row, and keeps the first', () => {
    const checker = new BatchLineChecker(catalog);
    assert.ok(checker.check(2, validLine).ok);
    const second = checker.check(5, { ...validLine, phone: '0197000001' });
    assert.ok(!second.ok);
    assert.deepEqual(second.problems, [{ row: 5, field: 'reference', code: 'duplicate_reference', message: 'Reference pay-1 is already used on row 2.' }]);
  });

  it('counts the reference of an invalid line too', () => {
    const checker = new BatchLineChecker(catalog);
    assert.ok(!checker.check(2, { ...validLine, phone: 'bad' }).ok);
    assert.deepEqual(problemsOf(validLine, checker), [['reference', 'duplicate_reference']]);
  });

  it('refuses a reference with characters that do not fit in a URL, or too long', () => {
    assert.deepEqual(problemsOf({ ...validLine, reference: 'pay 1' }), [['reference', 'validation_error']]);
    assert.deepEqual(problemsOf({ ...validLine, reference: 'r'.repeat(101) }), [['reference', 'validation_error']]);
  });

  it('bounds the name, the description and metadata values', () => {
    assert.deepEqual(problemsOf({ ...validLine, beneficiaryName: 'n'.repeat(201), description: 'd'.repeat(256), metadata: { team: 'v'.repeat(501) } }), [
      ['beneficiary_name', 'validation_error'],
      ['description', 'validation_error'],
      ['metadata.team', 'validation_error'],
    ]);
  });

  it('reports every problem of a line at once', () => {
    assert.deepEqual(problemsOf({ phone: '0197', amount: '12,5', currency: 'EUR', country: 'BJ', operator: 'orange_ci', reference: 'a b' }), [
      ['beneficiary_name', 'validation_error'],
      ['reference', 'validation_error'],
      ['amount', 'validation_error'],
      ['currency', 'unsupported_currency'],
      ['phone', 'invalid_phone'],
      ['operator', 'invalid_operator'],
    ]);
    assert.deepEqual(problemsOf({}), [
      ['beneficiary_name', 'validation_error'],
      ['reference', 'validation_error'],
      ['amount', 'validation_error'],
      ['currency', 'validation_error'],
      ['phone', 'validation_error'],
    ]);
  });

  it('puts problems found while reading the row first', () => {
    const earlier = [{ row: 3, field: 'column I', code: 'validation_error' as const, message: 'Column I holds "x" but has no heading.' }];
    const check = new BatchLineChecker(catalog).check(3, { ...validLine, amount: '1' }, earlier);
    assert.ok(!check.ok);
    assert.deepEqual(
      check.problems.map((p) => p.field),
      ['column I', 'amount'],
    );
  });
});

describe('checkBatchCsv: a whole file', () => {
  it('reports every problem of every line with its row number, and totals the valid lines per currency', async () => {
    const file = [
      'Nom;Téléphone;Montant;Devise;Référence;Pays;Opérateur',
      'Afi;01 97 00 00 00;2 500 000;XOF;pay-1;BJ;mtn_bj', // row 2: valid
      ';0197;12,5;XOF;pay-2;BJ;mtn_bj', // row 3: name, amount, phone
      'Kofi;90000000;1000000;XAF;pay-3;TG;flooz_tg', // row 4: currency
      '', // row 5: blank
      'Ama;0700000000;5000;XOF;pay-1;CI;moov_bj', // row 6: reference taken, operator not in CI (so no limit check)
      'Yao;+22890000001;100000;XOF;pay-5;;moov_tg', // row 7: valid, country from the number
      'Zoé;0197000002;300000000;XOF;pay-6;BJ;mtn_bj', // row 8: too high
    ].join('\r\n');
    const checked = await checkBatchCsv([file], catalog);
    assert.equal(checked.lineCount, 6);
    assert.deepEqual(
      checked.items.map((item) => [item.row, item.reference, item.country, item.operator]),
      [
        [2, 'pay-1', 'BJ', 'mtn_bj'],
        [7, 'pay-5', 'TG', 'flooz_tg'],
      ],
    );
    assert.deepEqual(
      checked.problems.map((p) => [p.row, p.field, p.code]),
      [
        [3, 'beneficiary_name', 'validation_error'],
        [3, 'amount', 'validation_error'],
        [3, 'phone', 'invalid_phone'],
        [4, 'currency', 'unsupported_currency'],
        [6, 'reference', 'duplicate_reference'],
        [6, 'operator', 'invalid_operator'],
        [8, 'amount', 'amount_too_high'],
      ],
    );
    // 2 500 000 + 100 000; fees 1 % + 5 000 each: 30 000 + 6 000.
    assert.deepEqual(checked.totals, [{ currency: 'XOF', lines: 2, amountMinor: 2_600_000, feeMinor: 36_000 }]);
  });

  it('checks 10 000 generated lines', async () => {
    const lines = ['beneficiary_name,phone,amount,currency,reference,operator'];
    for (let i = 0; i < 10_000; i += 1) lines.push(`Worker ${i},+2290197${String(i).padStart(6, '0')},100000,XOF,pay-${i},mtn_bj`);
    const checked = await checkBatchCsv([lines.join('\n')], catalog);
    assert.equal(checked.problems.length, 0, JSON.stringify(checked.problems.slice(0, 3)));
    assert.equal(checked.items.length, 10_000);
    assert.deepEqual(checked.totals, [{ currency: 'XOF', lines: 10_000, amountMinor: 1_000_000_000, feeMinor: 60_000_000 }]);
  });
});
