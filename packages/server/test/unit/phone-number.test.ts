import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { normalizePhone, sandboxExampleNumbers, type PhoneCheck } from '../../src/core/phones/phone-number.js';
import { countryCodes, type CountryCode } from '../../src/core/catalog/operator-catalog.js';

function assertAccepted(country: CountryCode, raw: string, e164: string): void {
  assert.deepEqual(normalizePhone(country, raw), { ok: true, e164 } satisfies PhoneCheck, `${country} ${JSON.stringify(raw)}`);
}

/** Asserts a refusal and returns its message for further checks. */
function assertRefused(country: CountryCode, raw: string, message?: string | RegExp): string {
  const result = normalizePhone(country, raw);
  assert.equal(result.ok, false, `${country} ${JSON.stringify(raw)} should be refused, got ${JSON.stringify(result)}`);
  if (result.ok) throw new Error('unreachable');
  if (typeof message === 'string') assert.equal(result.message, message);
  else if (message !== undefined) assert.match(result.message, message);
  return result.message;
}

describe('normalizePhone: valid numbers of each country', () => {
  it('accepts Benin 10-digit national numbers (01 + mobile range) and returns E.164 with the 01 kept', () => {
    assertAccepted('BJ', '0197000000', '+2290197000000');
    assertAccepted('BJ', '0161234567', '+2290161234567');
    assertAccepted('BJ', '0140000000', '+2290140000000');
  });

  it('accepts Togo 8-digit national numbers (T-Money 90/70, Flooz 96-99/79)', () => {
    assertAccepted('TG', '90000001', '+22890000001');
    assertAccepted('TG', '70123456', '+22870123456');
    assertAccepted('TG', '96123456', '+22896123456');
    assertAccepted('TG', '79123456', '+22879123456');
  });

  it("accepts Côte d'Ivoire 10-digit national numbers (07 Orange, 05 MTN, 01 Moov)", () => {
    assertAccepted('CI', '0700000001', '+2250700000001');
    assertAccepted('CI', '0501234567', '+2250501234567');
    assertAccepted('CI', '0101234567', '+2250101234567');
  });

  it('accepts E.164 for each country and returns it unchanged', () => {
    assertAccepted('BJ', '+2290197000000', '+2290197000000');
    assertAccepted('TG', '+22890000001', '+22890000001');
    assertAccepted('CI', '+2250700000001', '+2250700000001');
  });

  it('accepts the international 00 prefix for each country', () => {
    assertAccepted('BJ', '002290197000000', '+2290197000000');
    assertAccepted('TG', '0022890000001', '+22890000001');
    assertAccepted('CI', '002250700000001', '+2250700000001');
  });

  it('ignores spaces, dashes, dots, parentheses and surrounding whitespace', () => {
    assertAccepted('BJ', '01 97 00 00 00', '+2290197000000');
    assertAccepted('BJ', '01-97-00-00-00', '+2290197000000');
    assertAccepted('BJ', '01.97.00.00.00', '+2290197000000');
    assertAccepted('BJ', '(+229) 01 97 00 00 00', '+2290197000000');
    assertAccepted('TG', '  +228 90 00 00 01\t', '+22890000001');
    assertAccepted('CI', '00 225 07-00-00-00-01', '+2250700000001');
  });

  it('accepts a range the library cannot split between fixed and mobile (Benin 0129)', () => {
    // libphonenumber-js types 0129xxxxxx as FIXED_LINE_OR_MOBILE; refusing it would refuse wallets.
    assertAccepted('BJ', '0129000000', '+2290129000000');
  });
});

describe('normalizePhone: sandbox numbers', () => {
  it('exports one national sandbox example per country, each ending in 0000', () => {
    assert.deepEqual(Object.keys(sandboxExampleNumbers).sort(), [...countryCodes].sort());
    for (const country of countryCodes) assert.match(sandboxExampleNumbers[country], /0000$/, country);
  });

  it('accepts the sandbox numbers ending in 0000, 0001, 0002 and 0003 in every country, national and E.164', () => {
    // The sandbox picks outcomes from these suffixes, so each variant must be a valid mobile number.
    for (const country of countryCodes) {
      const stem = sandboxExampleNumbers[country].slice(0, -4);
      for (const suffix of ['0000', '0001', '0002', '0003']) {
        const national = `${stem}${suffix}`;
        const result = normalizePhone(country, national);
        assert.ok(result.ok, `${country} ${national}: ${JSON.stringify(result)}`);
        assert.ok(result.e164.endsWith(suffix), result.e164);
        assertAccepted(country, result.e164, result.e164);
      }
    }
  });

  it('accepts the sandbox numbers named in the spec (BJ 0197000001, TG 90000001, CI 0700000001)', () => {
    assertAccepted('BJ', '0197000001', '+2290197000001');
    assertAccepted('TG', '90000001', '+22890000001');
    assertAccepted('CI', '0700000001', '+2250700000001');
  });
});

describe('normalizePhone: old 8-digit plans', () => {
  const benin = /^Benin numbers have 10 digits since 30 November 2024: add 01 in front of the old 8-digit number/;

  it('refuses an old 8-digit Benin number with a message that says so', () => {
    assertRefused('BJ', '97000000', 'Benin numbers have 10 digits since 30 November 2024: add 01 in front of the old 8-digit number (0197000000).');
  });

  it('refuses an old 8-digit Benin number in E.164, 00, formatted and "229 without +" forms with the same explanation', () => {
    for (const raw of ['+22997000000', '0022997000000', '97 00 00 00', '22997000000']) {
      assertRefused('BJ', raw, benin);
    }
  });

  it("refuses an old 8-digit Côte d'Ivoire number with a message that gives the operator prefixes", () => {
    const expected = "Côte d'Ivoire numbers have 10 digits since 2021: add the operator prefix in front of the old 8-digit number (07 Orange, 05 MTN, 01 Moov).";
    assertRefused('CI', '07000000', expected);
    assertRefused('CI', '+22507000000', expected);
  });

  it('does not treat 8-digit Togo numbers as an old plan (Togo still has 8 digits)', () => {
    assertAccepted('TG', '97000000', '+22897000000');
  });
});

describe('normalizePhone: wrong country', () => {
  it('refuses a valid Ivorian number in E.164 given with country BJ, naming the real country', () => {
    assertRefused('BJ', '+2250700000001', "This is a Côte d'Ivoire (CI) number (+225), not a Benin (BJ) one.");
    assertRefused('BJ', '002250700000001', /Côte d'Ivoire \(CI\)/);
  });

  it('refuses a Benin number in E.164 given with country TG', () => {
    assertRefused('TG', '+2290197000000', 'This is a Benin (BJ) number (+229), not a Togo (TG) one.');
  });

  it('refuses a national number of another served country and says which one it is valid in', () => {
    assertRefused('BJ', '0700000001', "Not a valid Benin number; it is a valid Côte d'Ivoire (CI) number: check the country.");
    assertRefused('TG', '0197000000', 'Not a valid Togo number; it is a valid Benin (BJ) number: check the country.');
  });

  it('refuses a number of a country Akwe does not serve', () => {
    assertRefused('BJ', '+33612345678', 'Expected a Benin number starting with +229.');
  });
});

describe('normalizePhone: non-mobile numbers', () => {
  it('refuses fixed-line numbers, which cannot hold a wallet', () => {
    assertRefused('BJ', '0121300000', 'This is a Benin fixed-line number; Mobile Money needs a mobile number.');
    assertRefused('TG', '22212345', 'This is a Togo fixed-line number; Mobile Money needs a mobile number.');
    assertRefused('CI', '2721234567', "This is a Côte d'Ivoire fixed-line number; Mobile Money needs a mobile number.");
  });

  it('refuses numbers of the right length outside any allocated range', () => {
    assertRefused('CI', '0800000000', "Not a valid Côte d'Ivoire number (e.g. 0700000000).");
    assertRefused('TG', '74000000', 'Not a valid Togo number (e.g. 90000000).');
    // 03... is allocated in neither Benin nor Côte d'Ivoire (0100000000 would be a valid CI number).
    assertRefused('BJ', '0300000000', 'Not a valid Benin number (e.g. 0197000000).');
  });
});

describe('normalizePhone: length', () => {
  it('refuses too short and too long national numbers, giving the expected digit count', () => {
    assertRefused('BJ', '019700000', 'Benin numbers have 10 digits; got 9.');
    assertRefused('BJ', '01970000000', 'Benin numbers have 10 digits; got 11.');
    assertRefused('TG', '9000000', 'Togo numbers have 8 digits; got 7.');
    assertRefused('TG', '900000001', 'Togo numbers have 8 digits; got 9.');
    assertRefused('CI', '070000000', "Côte d'Ivoire numbers have 10 digits; got 9.");
  });

  it('counts digits after the country code for international input', () => {
    assertRefused('TG', '+2289000000112', 'Togo numbers have 8 digits after +228; got 10.');
    assertRefused('BJ', '+229019700', 'Benin numbers have 10 digits after +229; got 6.');
  });

  it('refuses input longer than 32 characters before parsing it', () => {
    assertRefused('BJ', `0197000000${' '.repeat(30)}1`, 'Phone number is too long (more than 32 characters).');
  });
});

describe('normalizePhone: malformed input', () => {
  const onlyDigits = 'Phone number may contain only digits, spaces, dashes, dots, parentheses and a leading +.';

  it('refuses empty and blank input', () => {
    assertRefused('BJ', '', 'Phone number is empty.');
    assertRefused('BJ', '   ', 'Phone number is empty.');
  });

  it('refuses letters and other characters, even around a valid number (the library alone would accept some)', () => {
    // libphonenumber-js extracts "0197000000" from "0197000000abc" and reads " ext 1" as an extension.
    for (const raw of ['abc', '0197000000abc', '0197000000 ext 1', '01970000O0', '+229/0197000000', '0197000000#']) {
      assertRefused('BJ', raw, onlyDigits);
    }
  });

  it('refuses a lone or doubled +', () => {
    assertRefused('BJ', '+', onlyDigits);
    assertRefused('BJ', '++2290197000000', onlyDigits);
    assertRefused('BJ', '0197+000000', onlyDigits);
  });

  it('refuses a country code written without + or 00, pointing to the E.164 form', () => {
    assertRefused('BJ', '2290197000000', 'Country code without + or 00: send +2290197000000 or the national form.');
    assertRefused('TG', '22890000001', 'Country code without + or 00: send +22890000001 or the national form.');
  });

  it('refuses an unknown country passed by unchecked callers', () => {
    assertRefused('NG' as CountryCode, '0197000000', 'Unknown country; expected one of BJ, TG, CI.');
  });
});

describe('normalizePhone: answers kept for numbers seen before', () => {
  it('gives the same answer the second time, and an answer no caller can change for the next one', () => {
    for (const raw of ['0197000000', '97000000', '+2290197000000']) {
      const first = normalizePhone('BJ', raw);
      const second = normalizePhone('BJ', raw);
      assert.deepEqual(second, first);
      assert.ok(Object.isFrozen(second), 'kept answers are frozen');
      assert.throws(() => Object.assign(second as Record<string, unknown>, { ok: true, e164: '+22900000000' }));
      assert.deepEqual(normalizePhone('BJ', raw), first);
    }
  });

  it('keeps answers per country: the same digits mean different numbers in two countries', () => {
    assert.deepEqual(normalizePhone('TG', '90000000'), { ok: true, e164: '+22890000000' });
    assert.equal(normalizePhone('BJ', '90000000').ok, false);
    assert.deepEqual(normalizePhone('TG', '90000000'), { ok: true, e164: '+22890000000' });
  });
});
