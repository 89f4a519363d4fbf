/** The checkout page's pure parts: language choice, amounts as written in West Africa, the masked phone, escaping, form tokens, the action limits. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { esc } from '../../src/http/checkout/checkout-page.js';
import { formatAmount, maskPhone, phoneFormats } from '../../src/http/checkout/checkout-format.js';
import { formToken, formTokenMatches, overLimit } from '../../src/http/checkout/checkout-security.js';
import { pickLanguage } from '../../src/http/checkout/checkout-texts.js';
import { normalizePhone, sandboxExampleNumbers } from '../../src/core/phones/phone-number.js';
import { MemoryRateLimitCounter } from '../../src/http/plugins/rate-limit-store.js';
import { looksLikeCheckoutToken, newCheckoutToken } from '../../src/core/payments/checkout-token.js';

describe('checkout page parts', () => {
  it('picks the language: ?lang first, then Accept-Language by preference, French otherwise', () => {
    assert.equal(pickLanguage(undefined, undefined), 'fr');
    assert.equal(pickLanguage(undefined, 'en-US,en;q=0.9'), 'en');
    assert.equal(pickLanguage(undefined, 'fr;q=0.4, en;q=0.8'), 'en');
    assert.equal(pickLanguage(undefined, 'de, en;q=0, fr;q=0.1'), 'fr');
    assert.equal(pickLanguage(undefined, 'es, pt'), 'fr');
    assert.equal(pickLanguage('en', 'fr'), 'en');
    assert.equal(pickLanguage('de', 'en'), 'en', 'an unknown ?lang is ignored');
  });

  it('writes amounts as people there do: 3 000 FCFA, whatever the language', () => {
    assert.equal(formatAmount(300_000, 'XOF'), '3\u202f000\u00a0FCFA');
    assert.equal(formatAmount(100_000_000, 'XAF'), '1\u202f000\u202f000\u00a0FCFA');
    assert.equal(formatAmount(10_050, 'XOF'), '100,5\u00a0FCFA');
    assert.equal(formatAmount(10_000, 'EUR'), '100\u00a0EUR');
  });

  it('the client-side pattern of each country takes the numbers the server takes (sandbox examples)', () => {
    for (const [country, format] of Object.entries(phoneFormats) as [keyof typeof phoneFormats, (typeof phoneFormats)['BJ']][]) {
      const example = format.example.replace(/\s/g, '');
      assert.match(example, new RegExp(format.pattern), country);
      assert.equal(example.length, format.digits);
      assert.ok(normalizePhone(country, example).ok, `${country} example is valid`);
      assert.match(sandboxExampleNumbers[country], new RegExp(format.pattern));
    }
  });

  it('masks all but the last four digits of the customer’s number', () => {
    assert.equal(maskPhone('+2250500000002'), '•• •• 00 02');
    assert.equal(maskPhone(null), '');
  });

  it('escapes what could open a tag or leave an attribute', () => {
    assert.equal(esc(`<a href="x" onclick='y'>&`), '&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;');
  });

  it('checkout tokens are 32 random bytes in base64url; form tokens are bound to one checkout and one secret', () => {
    const token = newCheckoutToken();
    assert.ok(looksLikeCheckoutToken(token));
    assert.ok(!looksLikeCheckoutToken(`${token}=`) && !looksLikeCheckoutToken('0199a3b4-5c6d-7e8f-9012-3456789abcde'));
    const secret = 'a'.repeat(32);
    const form = formToken(secret, token);
    assert.ok(formTokenMatches(secret, token, form));
    assert.ok(!formTokenMatches(secret, newCheckoutToken(), form));
    assert.ok(!formTokenMatches('b'.repeat(32), token, form));
    assert.ok(!formTokenMatches(secret, token, undefined) && !formTokenMatches(secret, token, ['x']) && !formTokenMatches(secret, token, ''));
  });

  it('limits actions per token and per address, and lets them through when the counters fail', async () => {
    const counter = new MemoryRateLimitCounter();
    const limits = { perToken: 2, perAddress: 3 };
    const noError = () => assert.fail('no error expected');
    assert.equal(await overLimit(counter, limits, 't1', 'ip', noError), undefined);
    assert.equal(await overLimit(counter, limits, 't1', 'ip', noError), undefined);
    assert.ok((await overLimit(counter, limits, 't1', 'ip', noError))! >= 1);
    assert.ok((await overLimit(counter, limits, 't2', 'ip', noError))! >= 1, 'the address is over its budget');
    let reported: unknown;
    const broken = { hit: async () => Promise.reject(new Error('redis down')), close: async () => {} };
    assert.equal(await overLimit(broken, limits, 't1', 'ip', (error) => (reported = error)), undefined);
    assert.match(String(reported), /redis down/);
  });
});
