/**
 * IBANs and UEMOA RIBs of bank settlement accounts (core/settlements/iban.ts): real-shaped numbers of
 * the served countries are accepted and stored compact; one character changed is refused, by the IBAN
 * check digits or by the RIB key.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkIban, ibanCheckDigits, ribKey, ribToIban, type IbanCheck } from '../../src/core/settlements/iban.js';

/** Published example IBANs of UEMOA countries (the current and the older form of bank code). */
const examples = {
  BJ: 'BJ66BJ0610100100144390000769',
  BJ_OLD_BANK_CODE: 'BJ11B00610100400271101192591',
  CI: 'CI93CI0080111301134291200589',
  TG: 'TG53TG0090604310346500400070',
  SN: 'SN08SN0100152000048500003035',
  BF: 'BF42BF0840101300463574000390',
};

function accepted(result: IbanCheck): { iban: string; country: string } {
  assert.equal(result.ok, true, JSON.stringify(result));
  if (!result.ok) throw new Error('unreachable');
  return { iban: result.iban, country: result.country };
}

function refused(result: IbanCheck, message?: RegExp): string {
  assert.equal(result.ok, false, `should be refused: ${JSON.stringify(result)}`);
  if (result.ok) throw new Error('unreachable');
  if (message) assert.match(result.message, message);
  return result.message;
}

/** The same number with the digit at `index` moved by one. */
function oneDigitChanged(text: string, index: number): string {
  const digit = Number(text[index]);
  assert.ok(Number.isInteger(digit), `${text}[${index}] is a digit`);
  return `${text.slice(0, index)}${(digit + 1) % 10}${text.slice(index + 1)}`;
}

describe('checkIban', () => {
  it('accepts the UEMOA examples, Côte d’Ivoire’s CI + 3-digit bank codes included', () => {
    for (const iban of Object.values(examples)) assert.deepEqual(accepted(checkIban(iban)), { iban, country: iban.slice(0, 2) });
  });

  it('stores the IBAN compact and upper case, as a bank prints it or not', () => {
    assert.equal(accepted(checkIban('bj66 bj06 1010 0100 1443 9000 0769')).iban, examples.BJ);
    assert.equal(accepted(checkIban('CI93-CI00-8011-1301-1342-9120-0589')).iban, examples.CI);
    assert.equal(accepted(checkIban(' TG53 TG00 9060 4310 3465 0040 0070 ')).iban, examples.TG);
  });

  it('refuses each example with one digit changed, wherever it is', () => {
    for (const iban of Object.values(examples)) {
      for (const index of [2, 3, 7, 12, 20, 27]) refused(checkIban(oneDigitChanged(iban, index)), /mistyped/);
    }
  });

  it('refuses two swapped digits, the usual typing slip', () => {
    const swapped = `${examples.BJ.slice(0, 10)}${examples.BJ[11]}${examples.BJ[10]}${examples.BJ.slice(12)}`;
    assert.notEqual(swapped, examples.BJ);
    refused(checkIban(swapped), /mistyped/);
  });

  it('catches a changed account digit with consistent IBAN check digits through the RIB key', () => {
    const rib = oneDigitChanged(examples.TG.slice(4), 15);
    const iban = `TG${ibanCheckDigits('TG', rib)}${rib}`;
    refused(checkIban(iban), /RIB key/);
  });

  it('refuses a wrong length, a wrong shape, stray characters and an unknown country', () => {
    refused(checkIban(examples.BJ.slice(0, 27)), /28 characters/);
    refused(checkIban(`${examples.BJ}0`), /28 characters/);
    refused(checkIban('BJ66BJ06101001001443900007A9'), /bank code .*branch code/);
    refused(checkIban('BJ66 BJ06/1010'), /letters and digits only/);
    refused(checkIban('6666BJ0610100100144390000769'), /two letters and two check digits/);
    refused(checkIban('ZZ00123456789'), /not a country that issues IBANs/);
    refused(checkIban(''), /two letters/);
    refused(checkIban('X'.repeat(65)), /letters and digits only/);
  });

  it('refuses a UEMOA IBAN whose bank code names another country', () => {
    const rib = `CI${examples.BJ.slice(6)}`;
    refused(checkIban(`BJ${ibanCheckDigits('BJ', rib)}${rib}`), /of CI, not BJ/);
  });

  it('checks other countries with their own format (ibantools)', () => {
    assert.equal(accepted(checkIban('FR76 3000 6000 0112 3456 7890 189')).country, 'FR');
    refused(checkIban('FR7630006000011234567890188'), /mistyped/);
    refused(checkIban('FR763000600001123456789018'), /length for FR/);
  });
});

describe('ribToIban', () => {
  it('turns a 24-character RIB of the account’s country into its IBAN', () => {
    assert.deepEqual(accepted(ribToIban('BJ', 'BJ061 01001 001443900007 69')), { iban: examples.BJ, country: 'BJ' });
    assert.deepEqual(accepted(ribToIban('ci', examples.CI.slice(4))), { iban: examples.CI, country: 'CI' });
    assert.deepEqual(accepted(ribToIban('TG', examples.TG.slice(4).toLowerCase())), { iban: examples.TG, country: 'TG' });
    assert.equal(accepted(ribToIban('BJ', examples.BJ_OLD_BANK_CODE.slice(4))).iban, examples.BJ_OLD_BANK_CODE);
  });

  it('computes the key of each example RIB as its bank did', () => {
    for (const iban of Object.values(examples)) assert.equal(ribKey(iban.slice(4)), iban.slice(26), iban);
  });

  it('refuses a RIB with one digit changed (its key no longer matches)', () => {
    const rib = examples.CI.slice(4);
    for (const index of [2, 6, 11, 18, 22, 23]) refused(ribToIban('CI', oneDigitChanged(rib, index)), /RIB key/);
  });

  it('refuses a RIB of another length or shape, given with another country, or for a country without RIBs', () => {
    refused(ribToIban('BJ', examples.BJ.slice(4, 27)), /24 characters; this one has 23/);
    refused(ribToIban('BJ', `1${examples.BJ.slice(5)}`), /bank code/);
    refused(ribToIban('TG', examples.BJ.slice(4)), /of BJ, not TG/);
    refused(ribToIban('FR', examples.BJ.slice(4)), /send the IBAN/);
  });
});
