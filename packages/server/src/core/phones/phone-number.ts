// Phone numbers of Mobile Money wallets: parse what the merchant sent, return E.164 or a short,
// precise reason for refusal. Validity comes from libphonenumber-js with its full ("max")
// metadata, which knows the number ranges and their types, not only their lengths.
//
// Accepted forms: national ("0197000000"), E.164 ("+2290197000000") and the international
// "00" prefix ("002290197000000"); spaces, dashes, dots and parentheses are ignored.
// The country code without "+" or "00" ("2290197000000") is refused with a hint: the contract
// asks for national or E.164 form, and guessing would hide client bugs.
//
// Decision on number types: a wallet lives on a mobile line, so only numbers the library types
// as MOBILE are accepted, plus FIXED_LINE_OR_MOBILE (ranges the library cannot split, e.g.
// Benin 0129xxxxxx) because refusing those would refuse real wallets. FIXED_LINE and every
// other type (toll-free, VoIP, ...) are refused.
//
// Numbering plans: Benin moved to 10 digits (01 + old 8 digits) on 30 November 2024; Côte
// d'Ivoire moved to 10 digits in 2021 (07 Orange, 05 MTN, 01 Moov for mobiles); Togo has
// 8 digits. None of the three has a national trunk prefix: the leading 0 in Benin and Côte
// d'Ivoire is part of the number and stays in E.164 (+2290197000000).
import { getCountryCallingCode, parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js/max';
import { LRUCache } from 'lru-cache';
import { countryCodes, type CountryCode } from '../catalog/operator-catalog.js';

export type PhoneCheck = Readonly<{ ok: true; e164: string } | { ok: false; message: string }>;

/**
 * Numbers the sandbox outcome rules are tested with (national form). Their last four digits
 * (0000 completed, 0001 failed, ...) pick the simulated outcome; every variant ending in
 * 0000-0003 is in a mobile range libphonenumber-js accepts.
 */
export const sandboxExampleNumbers: Record<CountryCode, string> = {
  BJ: '0197000000',
  TG: '90000000',
  CI: '0700000000',
};

interface NumberingPlan {
  name: string;
  nationalLength: number;
  /** Message for a number of the pre-migration 8-digit plan, if the country migrated. */
  oldEightDigit?: (old: string) => string;
}

const plans: Record<CountryCode, NumberingPlan> = {
  BJ: {
    name: 'Benin',
    nationalLength: 10,
    oldEightDigit: (old) => `Benin numbers have 10 digits since 30 November 2024: add 01 in front of the old 8-digit number (01${old}).`,
  },
  TG: { name: 'Togo', nationalLength: 8 },
  CI: {
    name: "Côte d'Ivoire",
    nationalLength: 10,
    oldEightDigit: () => "Côte d'Ivoire numbers have 10 digits since 2021: add the operator prefix in front of the old 8-digit number (07 Orange, 05 MTN, 01 Moov).",
  },
};

// Far above any real formatted number; keeps pathological input out of the parser.
const maxInputLength = 32;
const formatting = /[\s.\-()]/g;

const refuse = (message: string): PhoneCheck => ({ ok: false, message });

function isCountryCode(value: unknown): value is CountryCode {
  return typeof value === 'string' && (countryCodes as readonly string[]).includes(value);
}

function label(country: CountryCode): string {
  return `${plans[country].name} (${country})`;
}

function isWalletType(number: PhoneNumber): boolean {
  const type = number.getType();
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE';
}

/** Parses national digits as a number of `country`; undefined when the digits are not valid there. */
function parseNational(country: CountryCode, national: string): PhoneNumber | undefined {
  // No trunk prefix in these countries, so "+<calling code><national digits>" is exact and keeps
  // the library from re-interpreting the digits (e.g. stripping what looks like a country code).
  const parsed = parsePhoneNumberFromString(`+${getCountryCallingCode(country)}${national}`);
  return parsed !== undefined && parsed.isValid() && parsed.country === country ? parsed : undefined;
}

/**
 * The same numbers come back again and again (a merchant's customers pay often), and parsing one
 * with the full metadata costs more than the rest of a creation's validation: answers are kept,
 * by country and input, for inputs no longer than the parser accepts.
 */
const checked = new LRUCache<string, PhoneCheck>({ max: 10_000 });

export function normalizePhone(country: CountryCode, raw: string): PhoneCheck {
  if (typeof raw !== 'string' || raw.length > maxInputLength || !isCountryCode(country)) return checkPhone(country, raw);
  const key = `${country}:${raw}`;
  let check = checked.get(key);
  if (check === undefined) {
    check = Object.freeze(checkPhone(country, raw));
    checked.set(key, check);
  }
  return check;
}

function checkPhone(country: CountryCode, raw: string): PhoneCheck {
  // Both guards protect callers that pass unchecked request data despite the types.
  if (!isCountryCode(country)) return refuse(`Unknown country; expected one of ${countryCodes.join(', ')}.`);
  if (typeof raw !== 'string') return refuse('Phone number must be a string.');

  const plan = plans[country];
  const callingCode = getCountryCallingCode(country);
  const trimmed = raw.trim();
  if (trimmed === '') return refuse('Phone number is empty.');
  if (trimmed.length > maxInputLength) return refuse(`Phone number is too long (more than ${maxInputLength} characters).`);

  const compact = trimmed.replace(formatting, '');
  if (!/^\+?\d+$/.test(compact)) {
    return refuse('Phone number may contain only digits, spaces, dashes, dots, parentheses and a leading +.');
  }

  const international = compact.startsWith('+') ? compact.slice(1) : compact.startsWith('00') ? compact.slice(2) : undefined;
  let national: string;
  if (international !== undefined) {
    if (!international.startsWith(callingCode)) {
      const foreign = parsePhoneNumberFromString(`+${international}`);
      if (foreign?.country !== undefined && isCountryCode(foreign.country)) {
        return refuse(`This is a ${label(foreign.country)} number (+${foreign.countryCallingCode}), not a ${label(country)} one.`);
      }
      return refuse(`Expected a ${plan.name} number starting with +${callingCode}.`);
    }
    national = international.slice(callingCode.length);
  } else {
    national = compact;
    // National numbers never start with their own calling code at this length, so this is an
    // international number missing its "+"; an old 8-digit one gets the migration message.
    const withoutCode = national.slice(callingCode.length);
    if (national.startsWith(callingCode)) {
      if (plan.oldEightDigit !== undefined && withoutCode.length === 8) return refuse(plan.oldEightDigit(withoutCode));
      if (withoutCode.length === plan.nationalLength) {
        return refuse(`Country code without + or 00: send +${national} or the national form.`);
      }
    }
  }

  const parsed = parseNational(country, national);
  if (parsed === undefined) {
    // The specific explanations come first: old plan, then "valid, but in another country".
    if (plan.oldEightDigit !== undefined && national.length === 8) return refuse(plan.oldEightDigit(national));
    if (international === undefined) {
      const elsewhere = countryCodes.find((other) => other !== country && parseNational(other, national) !== undefined);
      if (elsewhere !== undefined) {
        return refuse(`Not a valid ${plan.name} number; it is a valid ${label(elsewhere)} number: check the country.`);
      }
    }
    if (national.length !== plan.nationalLength) {
      const where = international === undefined ? '' : ` after +${callingCode}`;
      return refuse(`${plan.name} numbers have ${plan.nationalLength} digits${where}; got ${national.length}.`);
    }
    return refuse(`Not a valid ${plan.name} number (e.g. ${sandboxExampleNumbers[country]}).`);
  }

  if (!isWalletType(parsed)) {
    return parsed.getType() === 'FIXED_LINE'
      ? refuse(`This is a ${plan.name} fixed-line number; Mobile Money needs a mobile number.`)
      : refuse(`Not a ${plan.name} mobile number.`);
  }
  return { ok: true, e164: parsed.number };
}
