// Which operator a mobile number most likely belongs to, from the regulators' numbering plans kept
// in the catalog (prefix of the national number -> operator). A prefix says who the number was
// issued to; where numbers can be ported (Côte d'Ivoire since 2018) it may have moved since, so
// the answer says so and lists every operator it could be with.
import { getCountryCallingCode } from 'libphonenumber-js/max';
import { countryCodes, type CatalogCountry, type CountryCode, type OperatorCatalog } from '../catalog/operator-catalog.js';
import { normalizePhone } from './phone-number.js';

export interface OperatorPrediction {
  /** E.164. */
  phone: string;
  country: CountryCode;
  /** The canonical slug of the operator the number's prefix was issued to; null when none is known. */
  operator: string | null;
  /** high: issued to it, no portability; medium: issued to it, but it may have been ported; none: unknown. */
  confidence: 'high' | 'medium' | 'none';
  mayBePorted: boolean;
  /** Every operator the number could be with, the predicted one first. */
  operatorsPossible: string[];
  /** The numbering plan used (regulator and date), when the country has one. */
  source: string | null;
}

export type PredictionResult =
  { ok: true; prediction: OperatorPrediction } | { ok: false; code: 'validation_error' | 'invalid_phone' | 'invalid_operator'; field: string; message: string };

/** Calling code -> country, for international numbers (+229 is Benin). */
const countryOfCallingCode: ReadonlyMap<string, CountryCode> = new Map(countryCodes.map((code) => [getCountryCallingCode(code), code]));

/** The digits after + or 00 of an international number, or undefined for a national one. */
export function internationalDigits(phone: string): string | undefined {
  const compact = phone.replace(/[\s.\-()]/g, '');
  if (compact.startsWith('+')) return compact.slice(1);
  if (compact.startsWith('00')) return compact.slice(2);
  return undefined;
}

/** The served country an international number belongs to (by its calling code), if any. */
export function countryOfInternationalNumber(phone: string): CountryCode | undefined {
  const digits = internationalDigits(phone);
  if (digits === undefined) return undefined;
  return [...countryOfCallingCode].find(([callingCode]) => digits.startsWith(callingCode))?.[1];
}

/** The operator the plan gives the national number's longest matching prefix. */
function issuedTo(country: CatalogCountry, national: string): string | undefined {
  const prefixes = country.numbering?.prefixes;
  if (!prefixes) return undefined;
  for (let length = Math.min(6, national.length); length > 0; length--) {
    const slug = prefixes.get(national.slice(0, length));
    if (slug !== undefined) return slug;
  }
  return undefined;
}

/** Predicts for an already valid E.164 number of the country. */
export function predictForE164(country: CatalogCountry, e164: string): OperatorPrediction {
  const national = e164.slice(1 + getCountryCallingCode(country.code).length);
  const plan = country.numbering;
  const operator = issuedTo(country, national) ?? null;
  const mayBePorted = plan?.portability ?? false;
  const networks = plan ? [...new Set(plan.prefixes.values())] : country.operators.map((o) => o.slug);
  const possible = operator === null || mayBePorted ? [...(operator ? [operator] : []), ...networks] : [operator];
  return {
    phone: e164,
    country: country.code,
    operator,
    confidence: operator === null ? 'none' : mayBePorted ? 'medium' : 'high',
    mayBePorted,
    operatorsPossible: [...new Set([...possible, ...(plan?.anyNumber ?? [])])],
    source: plan ? `${plan.source} (checked ${plan.asOf})` : null,
  };
}

export type PhoneCountry =
  { ok: true; country: CatalogCountry } | { ok: false; code: 'validation_error' | 'invalid_phone' | 'invalid_operator'; field: 'country' | 'phone'; message: string };

/**
 * The served country of a number: the one named, else its international prefix's (+229 is Benin),
 * else `fallback` (a batch's country), else the one served country whose plan the national number
 * fits (Togo's 8 digits); a national number that fits several (Benin's and Côte d'Ivoire's 01…) or
 * none is refused.
 */
export function countryOfPhone(catalog: OperatorCatalog, phone: string, named?: string, fallback?: string): PhoneCountry {
  const served = () =>
    catalog
      .countries()
      .map((c) => c.code)
      .join(', ');
  const byCode = (code: string): PhoneCountry => {
    const country = catalog.country(code);
    return country ? { ok: true, country } : { ok: false, code: 'invalid_operator', field: 'country', message: `Country ${code} is not served; the countries are ${served()}.` };
  };
  if (named !== undefined) return byCode(named);
  if (internationalDigits(phone) === undefined) {
    if (fallback !== undefined) return byCode(fallback);
    const fits = catalog.countries().filter((country) => normalizePhone(country.code, phone).ok);
    if (fits.length === 1) return { ok: true, country: fits[0]! };
    if (fits.length === 0) {
      // No country would take it: naming a country could not help, the number itself is wrong.
      return {
        ok: false,
        code: 'invalid_phone',
        field: 'phone',
        message: `${phone} fits the numbering plan of no served country (${served()}): check the number, or write it in international form (+229…, +228…, +225…).`,
      };
    }
    const which = fits.length > 1 ? `${phone} is a national number of ${fits.map((c) => c.name).join(' and of ')}: ` : '';
    return {
      ok: false,
      code: 'validation_error',
      field: 'country',
      message: `${which}country is required when the phone number is in national form (or write it as +229…, +228…, +225…).`,
    };
  }
  const code = countryOfInternationalNumber(phone);
  const country = code === undefined ? undefined : catalog.country(code);
  return country ? { ok: true, country } : { ok: false, code: 'invalid_phone', field: 'phone', message: `This number is not in a served country (${served()}).` };
}

/**
 * Predicts the operator of a number given in national form with its country, or in international
 * form (the country then comes from it; a country given as well must agree).
 */
export function predictOperator(catalog: OperatorCatalog, phone: string, countryCode?: string): PredictionResult {
  const found = countryOfPhone(catalog, phone, countryCode);
  if (!found.ok) return found;
  const { country } = found;
  const fromNumber = countryOfInternationalNumber(phone);
  if (fromNumber !== undefined && fromNumber !== country.code) {
    return { ok: false, code: 'invalid_phone', field: 'phone', message: `This is a number of ${fromNumber}, not of ${country.code}.` };
  }
  const check = normalizePhone(country.code, phone);
  if (!check.ok) return { ok: false, code: 'invalid_phone', field: 'phone', message: check.message };
  return { ok: true, prediction: predictForE164(country, check.e164) };
}
