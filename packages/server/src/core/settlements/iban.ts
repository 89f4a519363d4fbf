// Bank account numbers of settlement accounts: an IBAN (ISO 13616), or a UEMOA RIB turned into one.
//
// Every IBAN is checked for its check digits (ISO 7064 MOD 97-10) and its country's length and
// format. For most countries the format comes from ibantools' table. The UEMOA countries (Benin,
// Burkina Faso, Côte d'Ivoire, Mali, Niger, Senegal, Togo) share one BBAN, the BCEAO's 24-character
// RIB, and ibantools' entry for Côte d'Ivoire (one letter, 23 digits) refuses the bank codes Ivorian
// banks use today (CI + 3 digits, as in CI93 CI00 8011 1301 1342 9120 0589): for those countries the
// RIB rule below is used instead, with its own check key.
//
// The RIB: bank code (5: the country's two letters and 3 digits, or in the older form one letter and
// 4 digits), branch code (5 digits), account number (12 digits), RIB key (2 digits). The key is
// 97 - (N × 100 mod 97), N being the first 22 characters read as a number once each letter of the
// bank code is a digit (A-I 1-9, J-R 1-9, S-Z 2-9, as for French RIBs). A RIB carries no IBAN check
// digits, so its key is what catches a mistyped RIB: it is checked on IBANs of these countries too.
import { validateIBAN, ValidationErrorsIBAN } from 'ibantools';

export type IbanCheck = { ok: true; iban: string; country: string } | { ok: false; message: string };

/** The countries whose IBANs carry a BCEAO RIB (Guinea-Bissau's, 25 characters, does not). */
export const uemoaRibCountries: readonly string[] = ['BJ', 'BF', 'CI', 'ML', 'NE', 'SN', 'TG'];

const UEMOA_IBAN_LENGTH = 28;
const RIB_LENGTH = 24;
/** Bank code (a letter, a letter or digit, 3 digits), branch (5), account (12), key (2). */
const ribShape = /^[A-Z][A-Z0-9][0-9]{22}$/;
/** What people type between groups; anything else is refused rather than silently dropped. */
const separators = /[\s-]/g;
const maxInputLength = 64;

const refuse = (message: string): IbanCheck => ({ ok: false, message });

/** Upper case, separators removed; undefined when something other than letters, digits and separators is there. */
function compact(raw: string): string | undefined {
  if (raw.length > maxInputLength) return undefined;
  const text = raw.replace(separators, '').toUpperCase();
  return /^[A-Z0-9]*$/.test(text) ? text : undefined;
}

/** The number a string of digits and letters stands for, modulo 97 (letters A-Z as 10-35, ISO 13616). */
function mod97(text: string): number {
  let rest = 0;
  for (const char of text) {
    const value = char >= 'A' ? char.charCodeAt(0) - 55 : Number(char);
    rest = (value >= 10 ? rest * 100 : rest * 10) + value;
    rest %= 97;
  }
  return rest;
}

/** The two IBAN check digits of a country and BBAN. */
export function ibanCheckDigits(country: string, bban: string): string {
  return String(98 - mod97(`${bban}${country}00`)).padStart(2, '0');
}

/** The digit a RIB letter stands for: A-I 1-9, J-R 1-9, S-Z 2-9. */
function ribLetterDigit(letter: string): number {
  const index = letter.charCodeAt(0) - 65;
  if (index < 9) return index + 1;
  if (index < 18) return index - 8;
  return index - 16;
}

/** The RIB key the first 22 characters of a RIB call for, as two digits. */
export function ribKey(rib: string): string {
  let rest = 0;
  for (const char of rib.slice(0, 22)) rest = (rest * 10 + (char >= 'A' ? ribLetterDigit(char) : Number(char))) % 97;
  return String(97 - ((rest * 100) % 97)).padStart(2, '0');
}

/** Why a RIB (the BBAN of a UEMOA IBAN) does not have a RIB's shape, or undefined when it does. */
function ribShapeProblem(country: string, rib: string, what: 'RIB' | 'IBAN'): string | undefined {
  if (ribShape.test(rib)) return undefined;
  return `A ${country} ${what === 'RIB' ? 'RIB' : 'IBAN’s account part (its RIB)'} is the bank code (5 characters: 2 letters and 3 digits), the branch code (5 digits), the account number (12 digits) and the RIB key (2 digits).`;
}

/** Why a RIB of the right shape is not one of `country`, or undefined when it is. */
function ribProblem(country: string, rib: string): string | undefined {
  // The current form of a bank code starts with its country: a RIB given with the wrong country shows here.
  if (/^[A-Z]{2}/.test(rib) && rib.slice(0, 2) !== country) return `The bank code ${rib.slice(0, 5)} is of ${rib.slice(0, 2)}, not ${country}.`;
  if (ribKey(rib) !== rib.slice(22)) return `The RIB key ${rib.slice(22)} does not match the bank, branch and account numbers: a character is mistyped.`;
  return undefined;
}

/** An IBAN as a bank writes it (spaces allowed, any letter case) -> compact and upper case, once valid. */
export function checkIban(raw: string): IbanCheck {
  const iban = compact(raw);
  if (iban === undefined) return refuse('An IBAN holds letters and digits only (spaces and dashes between groups are allowed).');
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]+$/.test(iban)) return refuse('An IBAN starts with its country’s two letters and two check digits.');
  const country = iban.slice(0, 2);
  if (uemoaRibCountries.includes(country)) {
    if (iban.length !== UEMOA_IBAN_LENGTH) return refuse(`A ${country} IBAN has ${UEMOA_IBAN_LENGTH} characters; this one has ${iban.length}.`);
    const shape = ribShapeProblem(country, iban.slice(4), 'IBAN');
    if (shape !== undefined) return refuse(shape);
    if (mod97(iban.slice(4) + iban.slice(0, 4)) !== 1) return refuse('The IBAN’s check digits do not match: a character is mistyped.');
    const problem = ribProblem(country, iban.slice(4));
    return problem === undefined ? { ok: true, iban, country } : refuse(problem);
  }
  const { valid, errorCodes } = validateIBAN(iban);
  if (valid) return { ok: true, iban, country };
  if (errorCodes.includes(ValidationErrorsIBAN.NoIBANCountry)) return refuse(`${country} is not a country that issues IBANs.`);
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) return refuse(`The IBAN has the wrong length for ${country}.`);
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANFormat)) return refuse(`The IBAN does not have the format of ${country}’s.`);
  return refuse('The IBAN’s check digits do not match: a character is mistyped.');
}

/** A UEMOA RIB (24 characters) of `country` -> its IBAN, once the RIB and its key are valid. */
export function ribToIban(country: string, raw: string): IbanCheck {
  const code = country.toUpperCase();
  if (!uemoaRibCountries.includes(code)) return refuse(`A RIB is accepted for the UEMOA countries (${uemoaRibCountries.join(', ')}); for ${country}, send the IBAN.`);
  const rib = compact(raw);
  if (rib === undefined) return refuse('A RIB holds letters and digits only (spaces and dashes between groups are allowed).');
  if (rib.length !== RIB_LENGTH) return refuse(`A UEMOA RIB has ${RIB_LENGTH} characters; this one has ${rib.length}.`);
  const problem = ribShapeProblem(code, rib, 'RIB') ?? ribProblem(code, rib);
  if (problem !== undefined) return refuse(problem);
  return checkIban(`${code}${ibanCheckDigits(code, rib)}${rib}`);
}
