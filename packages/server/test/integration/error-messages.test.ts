/**
 * Error messages a developer can act on: an unsupported currency names what the country accepts,
 * amount errors name the unit of the contract and give the conversion. On every contract; the
 * earlier collect contract keeps its own body shapes.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { errorShapeProblem } from '../support/error-shape.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`error messages on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;

    before(async () => {
      t = await buildTestApp(target);
      key = (await t.newMerchant()).testKey;
    });
    after(() => t.close());

    /** Every error answer is checked for its contract's shape (ours: with its doc_url). */
    const post = async (url: string, payload: object) => {
      const res = await t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { 'x-api-key': key, 'idempotency-key': newId() }, payload });
      if (res.statusCode >= 400) assert.equal(errorShapeProblem(res, url.startsWith('/collect/mobile-money/') ? 'legacy' : 'current'), undefined, res.body);
      return res;
    };
    const collect = (overrides: object) =>
      post('/collect/payments', { reference: `C-${newId()}`, amount: 1000, country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '0197000000' }, ...overrides });
    const legacy = (overrides: object) =>
      post('/collect/mobile-money/', { reference: `L-${newId()}`, amount: 100_000, country: 'BJ', operator: 'mtn_bj', phone: '0197000000', ...overrides });
    const payout = (overrides: object) =>
      post('/payout/mobile-money/', { reference: `P-${newId()}`, amount: 10_000, country: 'BJ', operator: 'mtn_bj', phone: '0197000000', ...overrides });
    const bulkLine = (overrides: object) =>
      post('/bulk-payments/', {
        name: 'Batch',
        items: [{ beneficiary_name: 'Afi', phone: '0197000000', amount: 2_500_000, currency: 'XOF', reference: `B-${newId()}`, country: 'BJ', operator: 'mtn_bj', ...overrides }],
      });

    describe('unsupported currency', () => {
      it('current collect: 400 unsupported_currency naming what the country accepts, for an unknown currency and for one the country does not take', async () => {
        for (const currency of ['EUR', 'XAF']) {
          const res = await collect({ currency });
          assert.equal(res.statusCode, 400, res.body);
          assert.deepEqual([res.json().error.code, res.json().error.field, res.json().error.message], ['unsupported_currency', 'currency', `BJ accepts XOF; got ${currency}.`]);
        }
      });

      it('earlier collect: the same message in its {error, code, detail} body', async () => {
        const res = await legacy({ currency: 'EUR' });
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json(), { error: 'Bad Request', code: 'unsupported_currency', detail: 'BJ accepts XOF; got EUR.' });
      });

      it('payouts: an optional currency must be the country’s', async () => {
        const res = await payout({ currency: 'EUR' });
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual([res.json().error.code, res.json().error.message], ['unsupported_currency', 'BJ accepts XOF; got EUR.']);
        assert.equal((await payout({ currency: 'XOF' })).statusCode, 201);
      });

      it('bulk lines: the line problem names what the country accepts', async () => {
        const res = await bulkLine({ currency: 'EUR' });
        assert.equal(res.statusCode, 400, res.body);
        const problem = res.json().error.details.find((detail: { field: string }) => detail.field === 'currency');
        assert.deepEqual([problem.code, problem.message], ['unsupported_currency', 'BJ accepts XOF; got EUR.']);
      });
    });

    describe('amounts name their unit and the conversion', () => {
      it('payouts speak centimes', async () => {
        const res = await payout({ amount: 100 });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().error.code, 'amount_too_low');
        assert.equal(res.json().error.message, 'amount is in centimes: 100 FCFA is 10000; the minimum payout is 10000 centimes (100 FCFA); got 100 (1 FCFA).');
        const high = await payout({ amount: 99_000_000_000 });
        assert.equal(high.json().error.code, 'amount_too_high');
        assert.match(high.json().error.message, /^amount is in centimes: 100 FCFA is 10000; the maximum payout is \d+ centimes \(\d+ FCFA\)/);
      });

      it('the current collect contract speaks major units', async () => {
        const res = await collect({ amount: 50 });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().error.code, 'amount_too_low');
        assert.equal(
          res.json().error.message,
          'amount is in major units (FCFA): the minimum payment through mtn_bj is 100 (100 FCFA); got 50; centimes are not used in this contract.',
        );
      });

      it('the earlier collect contract speaks centimes, in its own body', async () => {
        const res = await legacy({ amount: 5000 });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.json().code, 'amount_too_low');
        assert.equal(res.json().detail, 'amount is in centimes: 5000 FCFA is 500000; the minimum payment through mtn_bj is 10000 centimes (100 FCFA); got 5000 (50 FCFA).');
      });

      it('bulk lines speak centimes', async () => {
        const res = await bulkLine({ amount: 100 });
        const problem = res.json().error.details.find((detail: { field: string }) => detail.field === 'amount');
        assert.equal(problem.code, 'amount_too_low');
        assert.match(problem.message, /^amount is in centimes: 100 FCFA is 10000; the minimum payout through mtn_bj is 10000 centimes/);
      });

      it('schema complaints about an amount (not an integer, negative, too large) add the unit of the contract', async () => {
        const major = /amount is in major units \(FCFA\)/;
        const centimes = /amount is in centimes: 100 FCFA is 10000/;
        for (const amount of [10.5, -1, 10_000_000_000]) {
          const res = await collect({ amount });
          // The current contract's schema has no minimum: a negative amount is below the catalog's.
          assert.ok(['validation_error', 'amount_too_low'].includes(res.json().error.code), String(amount));
          assert.match(res.json().error.message, major, String(amount));
          assert.match((await payout({ amount })).json().error.message, centimes, String(amount));
          const earlier = await legacy({ amount });
          assert.match(earlier.json().amount?.[0] ?? earlier.json().detail, centimes, `${amount}: ${earlier.body}`);
        }
        const payment = await collect({});
        assert.equal(payment.statusCode, 201, payment.body);
        const refund = await post(`/collect/payments/${payment.json().reference}/refunds`, { amount: 0.5 });
        assert.equal(refund.json().error.code, 'validation_error');
        assert.match(refund.json().error.message, major);
      });
    });
  });
}
