import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defaultFees, loadDefaultCatalog, OperatorCatalog } from '../../src/core/catalog/operator-catalog.js';

// A small valid catalog, independent of the shipped data, that each validation test breaks in
// one place. Two countries so that paths like countries[1]... are exercised.
function validData() {
  const capability = () => ({ supported: true, min_amount_minor: 10000, max_amount_minor: 200000000 });
  const operator = (slug: string, aliases: string[] = [], requiresOtp = false) => ({
    slug,
    label: slug.toUpperCase(),
    gateway_code: slug.toUpperCase(),
    aliases,
    requires_otp: requiresOtp,
    collect: capability(),
    payout: capability(),
  });
  return {
    version: 'test.1',
    countries: [
      { code: 'BJ', name: 'Benin', currencies: ['XOF'], default_currency: 'XOF', operators: [operator('mtn_bj'), operator('moov_bj')] },
      { code: 'TG', name: 'Togo', currencies: ['XOF'], default_currency: 'XOF', operators: [operator('tmoney_tg', ['togocom_tg'])] },
    ],
  };
}

/** Asserts that fromData refuses `data` with exactly `message` (the path is the point of the test). */
function assertRefused(data: unknown, message: string | RegExp): void {
  assert.throws(() => OperatorCatalog.fromData(data), { name: 'Error', message });
}

const remove = Symbol('remove');

/**
 * The valid fixture with one value replaced (or removed) at a catalog path such as
 * `countries[1].operators[0].slug`, for values of the wrong type that the fixture type forbids.
 */
function withValue(path: string, value: unknown): unknown {
  const data: unknown = validData();
  const keys = path.match(/[^.[\]]+/g) ?? [];
  let node = data as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  const last = keys.at(-1) ?? '';
  if (value === remove) delete node[last];
  else node[last] = value;
  return data;
}

describe('default operator catalog (operators.json)', () => {
  const catalog = loadDefaultCatalog();

  it('loads with its version and the three countries BJ, TG, CI in order', () => {
    assert.equal(catalog.version, '2026-06.1');
    assert.deepEqual(
      catalog.countries().map((c) => c.code),
      ['BJ', 'TG', 'CI'],
    );
  });

  it('takes XOF only in every country, with XOF as default', () => {
    for (const country of catalog.countries()) {
      assert.deepEqual(country.currencies, ['XOF'], country.code);
      assert.equal(country.defaultCurrency, 'XOF', country.code);
    }
  });

  it('lists the operators of each country (docs/operators.md)', () => {
    const slugs = (code: string) => catalog.country(code)?.operators.map((op) => op.slug);
    assert.deepEqual(slugs('BJ'), ['mtn_bj', 'moov_bj', 'celtiis_bj']);
    assert.deepEqual(slugs('TG'), ['tmoney_tg', 'flooz_tg']);
    assert.deepEqual(slugs('CI'), ['orange_ci', 'mtn_ci', 'moov_ci', 'wave_ci']);
  });

  it('requires an OTP for orange_ci and for no other operator', () => {
    const withOtp = catalog
      .countries()
      .flatMap((c) => c.operators)
      .filter((op) => op.requiresOtp)
      .map((op) => op.slug);
    assert.deepEqual(withOtp, ['orange_ci']);
  });

  it('sets collect and payout minimums at 10000 centimes (100 XOF) with min <= max everywhere', () => {
    for (const op of catalog.countries().flatMap((c) => c.operators)) {
      for (const capability of [op.collect, op.payout]) {
        assert.equal(capability.minAmountMinor, 10000, op.slug);
        assert.ok(capability.minAmountMinor <= capability.maxAmountMinor, op.slug);
        assert.ok(Number.isSafeInteger(capability.maxAmountMinor), op.slug);
      }
    }
    assert.equal(catalog.findOperator('CI', 'wave_ci')?.collect.maxAmountMinor, 150000000);
  });

  it('uses upper-case gateway codes', () => {
    for (const op of catalog.countries().flatMap((c) => c.operators)) {
      assert.match(op.gatewayCode, /^[A-Z][A-Z0-9_]*$/, op.slug);
    }
  });

  it('resolves aliases to the canonical operator (togocom_tg -> tmoney_tg, moov_tg -> flooz_tg)', () => {
    assert.equal(catalog.findOperator('TG', 'togocom_tg')?.slug, 'tmoney_tg');
    assert.equal(catalog.findOperator('TG', 'moov_tg')?.slug, 'flooz_tg');
    // Same object as the slug lookup, so callers can compare or reuse it freely.
    assert.equal(catalog.findOperator('TG', 'togocom_tg'), catalog.findOperator('TG', 'tmoney_tg'));
  });

  it('looks operators up case-insensitively, slug or alias', () => {
    assert.equal(catalog.findOperator('BJ', 'MTN_BJ')?.slug, 'mtn_bj');
    assert.equal(catalog.findOperator('TG', 'TogoCom_TG')?.slug, 'tmoney_tg');
    assert.equal(catalog.findOperator('CI', 'Orange_CI')?.requiresOtp, true);
  });

  it('returns undefined for an unknown operator or an unknown country', () => {
    assert.equal(catalog.findOperator('BJ', 'airtel_bj'), undefined);
    assert.equal(catalog.findOperator('BJ', ''), undefined);
    assert.equal(catalog.findOperator('NG', 'mtn_bj'), undefined);
    assert.equal(catalog.country('NG'), undefined);
  });

  it('does not find an operator of another country (mtn_ci in BJ, moov_tg in BJ)', () => {
    assert.equal(catalog.findOperator('BJ', 'mtn_ci'), undefined);
    assert.equal(catalog.findOperator('BJ', 'moov_tg'), undefined);
    assert.ok(catalog.findOperator('CI', 'mtn_ci'), 'control: mtn_ci exists in CI');
  });

  it('matches country codes in any case, like operator slugs, and gives the canonical country', () => {
    assert.equal(catalog.country('BJ')?.name, 'Benin');
    assert.equal(catalog.country('bj')?.code, 'BJ');
    assert.equal(catalog.findOperator('bj', 'mtn_bj')?.slug, 'mtn_bj');
    assert.equal(catalog.country('zz'), undefined);
    assert.equal(catalog.country('ben'), undefined);
  });

  it('is frozen: callers cannot change the shared catalog', () => {
    const country = catalog.country('TG');
    assert.ok(country);
    const operator = country.operators[0];
    assert.ok(operator);
    // ESM code is strict mode, so writes to frozen objects throw instead of failing silently.
    assert.throws(() => (catalog.countries() as unknown[]).push({}), TypeError);
    assert.throws(() => (country.operators as unknown[]).pop(), TypeError);
    assert.throws(() => ((operator as { slug: string }).slug = 'x'), TypeError);
    assert.throws(() => (operator.aliases as string[]).push('x'), TypeError);
    assert.throws(() => ((operator.collect as { maxAmountMinor: number }).maxAmountMinor = 1), TypeError);
  });

  it('returns the same catalog instance on each load (it is immutable, so sharing is safe)', () => {
    assert.equal(loadDefaultCatalog(), catalog);
  });
});

describe('OperatorCatalog.fromData validation', () => {
  it('accepts the valid fixture and maps snake_case fields to the typed shape', () => {
    const catalog = OperatorCatalog.fromData(validData());
    assert.equal(catalog.version, 'test.1');
    assert.deepEqual(catalog.findOperator('TG', 'togocom_tg'), {
      slug: 'tmoney_tg',
      label: 'TMONEY_TG',
      gatewayCode: 'TMONEY_TG',
      aliases: ['togocom_tg'],
      requiresOtp: false,
      collect: { supported: true, minAmountMinor: 10000, maxAmountMinor: 200000000, fee: { percentBps: 150, fixedMinor: 0 } },
      payout: { supported: true, minAmountMinor: 10000, maxAmountMinor: 200000000, fee: { percentBps: 100, fixedMinor: 5000 } },
    });
  });

  it('reads fees per direction, defaults them when absent, and refuses impossible ones', () => {
    const noFee = OperatorCatalog.fromData(withValue('countries[0].operators[0].collect.fee', remove));
    assert.deepEqual(noFee.countries()[0]!.operators[0]!.collect.fee, defaultFees.collect);
    assert.throws(
      () => OperatorCatalog.fromData(withValue('countries[0].operators[0].payout.fee', { percent_bps: 10_000, fixed_minor: 0 })),
      /payout\.fee\.percent_bps must be below 10000/,
    );
    assert.throws(() => OperatorCatalog.fromData(withValue('countries[0].operators[0].payout.fee', { percent_bps: 100, fixed_minor: -1 })), /fixed_minor must be a whole number/);
  });

  it('treats missing aliases as none (aliases are optional in the contract)', () => {
    const data = withValue('countries[0].operators[0].aliases', remove);
    assert.deepEqual(OperatorCatalog.fromData(data).findOperator('BJ', 'mtn_bj')?.aliases, []);
  });

  it('allows the same slug in two countries (uniqueness is per country)', () => {
    const data = validData();
    data.countries[1]!.operators[0]!.slug = 'mtn_bj';
    assert.equal(OperatorCatalog.fromData(data).findOperator('TG', 'mtn_bj')?.gatewayCode, 'TMONEY_TG');
  });

  it('refuses a non-object root', () => {
    assertRefused(null, 'catalog: root must be an object');
    assertRefused([], 'catalog: root must be an object');
  });

  it('refuses a missing version, naming the path', () => {
    assertRefused(withValue('version', remove), 'catalog: version must be a non-empty string');
  });

  it('refuses an empty country list', () => {
    const data = validData();
    data.countries = [];
    assertRefused(data, 'catalog: countries must not be empty');
  });

  it('refuses an empty slug, naming its path (countries[1].operators[0].slug)', () => {
    const data = validData();
    data.countries[1]!.operators[0]!.slug = '';
    assertRefused(data, 'catalog: countries[1].operators[0].slug must be a non-empty string');
  });

  it('refuses a slug that is not a lower-case slug', () => {
    const data = validData();
    data.countries[0]!.operators[1]!.slug = 'Moov BJ';
    assertRefused(data, /^catalog: countries\[0\]\.operators\[1\]\.slug must be a lower-case slug/);
  });

  it('refuses a badly formed alias, naming its index', () => {
    assertRefused(withValue('countries[1].operators[0].aliases', ['togocom_tg', 42]), 'catalog: countries[1].operators[0].aliases[1] must be a non-empty string');
  });

  it('refuses a missing label and a non-string gateway_code', () => {
    assertRefused(withValue('countries[0].operators[0].label', remove), 'catalog: countries[0].operators[0].label must be a non-empty string');
    assertRefused(withValue('countries[0].operators[1].gateway_code', 7), 'catalog: countries[0].operators[1].gateway_code must be a non-empty string');
  });

  it('refuses a non-boolean requires_otp', () => {
    assertRefused(withValue('countries[0].operators[0].requires_otp', 'yes'), 'catalog: countries[0].operators[0].requires_otp must be a boolean');
  });

  it('refuses an unknown field so that typos do not silently drop data', () => {
    assertRefused(withValue('countries[0].operators[0].alias', ['mtn']), 'catalog: countries[0].operators[0].alias is not a known field');
  });

  it('refuses a duplicate slug within a country', () => {
    const data = validData();
    data.countries[0]!.operators[1]!.slug = 'mtn_bj';
    assertRefused(data, 'catalog: countries[0].operators[1].slug "mtn_bj" is already used by operator mtn_bj in BJ');
  });

  it('refuses an alias equal to another operator slug in the same country', () => {
    const data = validData();
    data.countries[0]!.operators[1]!.aliases = ['mtn_bj'];
    assertRefused(data, 'catalog: countries[0].operators[1].aliases[0] "mtn_bj" is already used by operator mtn_bj in BJ');
  });

  it('refuses the same alias on two operators of a country', () => {
    const data = validData();
    data.countries[0]!.operators[0]!.aliases = ['momo'];
    data.countries[0]!.operators[1]!.aliases = ['momo'];
    assertRefused(data, 'catalog: countries[0].operators[1].aliases[0] "momo" is already used by operator mtn_bj in BJ');
  });

  it('refuses an unknown country code', () => {
    assertRefused(withValue('countries[1].code', 'NG'), 'catalog: countries[1].code must be one of BJ, TG, CI');
  });

  it('refuses a lower-case country code (codes are exact)', () => {
    assertRefused(withValue('countries[0].code', 'bj'), 'catalog: countries[0].code must be one of BJ, TG, CI');
  });

  it('refuses the same country twice', () => {
    const data = validData();
    data.countries[1]!.code = 'BJ';
    assertRefused(data, 'catalog: countries[1].code duplicates countries[0].code (BJ)');
  });

  it('refuses an unknown currency', () => {
    assertRefused(withValue('countries[0].currencies', ['EUR']), 'catalog: countries[0].currencies[0] must be one of XOF, XAF');
  });

  it('refuses a default_currency that is not among the country currencies', () => {
    const data = validData();
    data.countries[1]!.default_currency = 'XAF';
    assertRefused(data, "catalog: countries[1].default_currency must be one of the country's currencies (XOF)");
  });

  it('refuses a country without operators', () => {
    const data = validData();
    data.countries[0]!.operators = [];
    assertRefused(data, 'catalog: countries[0].operators must not be empty');
  });

  it('refuses min_amount_minor greater than max_amount_minor', () => {
    const data = validData();
    data.countries[0]!.operators[1]!.payout.min_amount_minor = 300000000;
    assertRefused(data, 'catalog: countries[0].operators[1].payout.min_amount_minor (300000000) must not exceed max_amount_minor (200000000)');
  });

  it('refuses amounts that are not positive integers (centimes are whole)', () => {
    for (const bad of [0, -1, 100.5, '10000']) {
      assertRefused(
        withValue('countries[0].operators[0].collect.max_amount_minor', bad),
        'catalog: countries[0].operators[0].collect.max_amount_minor must be a positive integer (minor units)',
      );
    }
  });

  it('refuses a missing collect capability', () => {
    assertRefused(withValue('countries[1].operators[0].collect', remove), 'catalog: countries[1].operators[0].collect must be an object');
  });
});

describe('OperatorCatalog.fromFile', () => {
  it('names the file when it cannot be read', () => {
    // A path under a directory that cannot exist; nothing is created.
    const missing = join(tmpdir(), 'akwe-no-such-dir-7f3c', 'operators.json');
    assert.throws(
      () => OperatorCatalog.fromFile(missing),
      (err: unknown) => {
        assert.ok(err instanceof Error);
        assert.ok(err.message.startsWith(`catalog ${missing}: cannot read file`), err.message);
        return true;
      },
    );
  });

  it('names the file when it is not a JSON file', () => {
    // This test file is readable and certainly not JSON.
    const notJson = fileURLToPath(import.meta.url);
    assert.throws(
      () => OperatorCatalog.fromFile(notJson),
      (err: unknown) => {
        assert.ok(err instanceof Error);
        assert.ok(err.message.startsWith(`catalog ${notJson}: invalid JSON`), err.message);
        return true;
      },
    );
  });
});
