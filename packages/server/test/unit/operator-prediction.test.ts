/**
 * Operator prediction against the regulators' numbering plans, prefix by prefix. The expected
 * tables below are written out by hand from the plans (ARCEP Bénin's 10-digit plan: 01 + the old
 * 8-digit number; ARCEP Togo; ARTCI's PNN-10), independently of the catalog file they check.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { predictForE164, predictOperator } from '../../src/core/phones/operator-prediction.js';

const catalog = loadDefaultCatalog();

const expected: Record<'BJ' | 'TG' | 'CI', { callingCode: string; length: number; prefixes: Record<string, string[]> }> = {
  BJ: {
    callingCode: '229',
    length: 10,
    prefixes: {
      mtn_bj: ['0142', '0146', '015', '0161', '0162', '0166', '0167', '0169', '0190', '0191', '0196', '0197'],
      moov_bj: ['0145', '0155', '0158', '0160', '0163', '0164', '0165', '0168', '0194', '0195', '0198', '0199'],
      celtiis_bj: ['0140', '0141', '0143', '0144', '0147', '0148'],
    },
  },
  TG: {
    callingCode: '228',
    length: 8,
    prefixes: { tmoney_tg: ['70', '71', '90', '91', '92', '93', '97'], flooz_tg: ['79', '96', '98', '99'] },
  },
  CI: { callingCode: '225', length: 10, prefixes: { moov_ci: ['01'], mtn_ci: ['05'], orange_ci: ['07'] } },
};

describe('operator prediction: the numbering plans, prefix by prefix', () => {
  for (const [code, plan] of Object.entries(expected)) {
    it(`${code}: every prefix of the plan predicts its operator, and the catalog holds no other`, () => {
      const country = catalog.country(code)!;
      const written = new Map(Object.entries(plan.prefixes).flatMap(([slug, prefixes]) => prefixes.map((prefix): [string, string] => [prefix, slug])));
      assert.deepEqual(new Map([...country.numbering!.prefixes].sort()), new Map([...written].sort()));
      // A longer prefix within a shorter one (Benin 0155 in 015) wins for the numbers it covers.
      const longestIn = (national: string) => [...written.keys()].filter((prefix) => national.startsWith(prefix)).sort((a, b) => b.length - a.length)[0];
      for (const prefix of written.keys()) {
        for (const filler of ['0', '5', '9']) {
          const national = prefix.padEnd(plan.length, filler);
          assert.equal(predictForE164(country, `+${plan.callingCode}${national}`).operator, written.get(longestIn(national)!), `${code} ${national}`);
        }
        assert.equal(predictForE164(country, `+${plan.callingCode}${prefix.padEnd(plan.length, '0')}`).operator, written.get(prefix) ?? null, `${code} ${prefix}…0`);
      }
    });
  }

  it('names the plan and its date, and says when a number may have been ported', () => {
    const benin = predictForE164(catalog.country('BJ')!, '+2290197000000');
    assert.deepEqual([benin.operator, benin.confidence, benin.mayBePorted, benin.operatorsPossible], ['mtn_bj', 'high', false, ['mtn_bj']]);
    assert.match(benin.source!, /ARCEP Bénin.*checked \d{4}-\d{2}-\d{2}/);
    const ivory = predictForE164(catalog.country('CI')!, '+2250701020304');
    assert.deepEqual([ivory.operator, ivory.confidence, ivory.mayBePorted], ['orange_ci', 'medium', true]);
    assert.deepEqual(ivory.operatorsPossible, ['orange_ci', 'moov_ci', 'mtn_ci', 'wave_ci'], 'ported anywhere, and Wave takes any number');
    const unknown = predictForE164(catalog.country('BJ')!, '+2290129000000');
    assert.deepEqual([unknown.operator, unknown.confidence], [null, 'none']);
    assert.deepEqual(
      unknown.operatorsPossible,
      ['celtiis_bj', 'mtn_bj', 'moov_bj'].filter((slug) => unknown.operatorsPossible.includes(slug)),
    );
  });
});

describe('predictOperator: what it takes', () => {
  it('takes a national number with its country, or an international one alone', () => {
    for (const [phone, country] of [
      ['0197000000', 'BJ'],
      ['+229 01 97 00 00 00', undefined],
      ['00229 0197000000', undefined],
    ] as const) {
      const result = predictOperator(catalog, phone, country);
      assert.ok(result.ok, JSON.stringify(result));
      assert.deepEqual([result.prediction.phone, result.prediction.operator], ['+2290197000000', 'mtn_bj']);
    }
    const togo = predictOperator(catalog, '90000000', 'tg');
    assert.ok(togo.ok && togo.prediction.operator === 'tmoney_tg' && togo.prediction.confidence === 'high');
  });

  it('takes a national number alone when it fits one served country’s plan only', () => {
    for (const [phone, e164] of [
      ['90 00 00 00', '+22890000000'],
      ['0700000000', '+2250700000000'],
      ['0500000000', '+2250500000000'],
    ] as const) {
      const result = predictOperator(catalog, phone);
      assert.ok(result.ok, `${phone}: ${JSON.stringify(result)}`);
      assert.equal(result.prediction.phone, e164);
    }
    // 01… is a number of Benin and of Côte d'Ivoire alike: the country must be said.
    const both = predictOperator(catalog, '0197000000');
    assert.ok(!both.ok);
    assert.deepEqual([both.code, both.field], ['validation_error', 'country']);
    assert.match(both.message, /national number of Benin and of Côte d'Ivoire/);
  });

  it('refuses what it cannot read, saying which field', () => {
    const cases: Array<[string, string | undefined, string, string]> = [
      ['0197000000', undefined, 'validation_error', 'country'],
      ['0197000000', 'SN', 'invalid_operator', 'country'],
      ['+2250701020304', 'BJ', 'invalid_phone', 'phone'],
      ['+33612345678', undefined, 'invalid_phone', 'phone'],
      ['0197', 'BJ', 'invalid_phone', 'phone'],
      // A national number that no served country's plan takes: the number is wrong, not the country missing.
      ['12345', undefined, 'invalid_phone', 'phone'],
      ['0800000000000', undefined, 'invalid_phone', 'phone'],
    ];
    for (const [phone, country, code, field] of cases) {
      const result = predictOperator(catalog, phone, country);
      assert.ok(!result.ok, `${phone} ${country}`);
      assert.deepEqual([result.code, result.field], [code, field], `${phone} ${country}`);
    }
  });
});
