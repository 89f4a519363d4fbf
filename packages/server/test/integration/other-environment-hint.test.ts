/**
 * A 404 on an object the key's own merchant holds in the other environment says so (code and
 * status unchanged); another merchant's object gets the plain 404, as if it did not exist.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { newId } from '../../src/core/shared/ids.js';
import { errorShapeProblem } from '../support/error-shape.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`other-environment hint on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let mine: Awaited<ReturnType<TestApp['newMerchant']>>;
    let theirs: Awaited<ReturnType<TestApp['newMerchant']>>;
    /** Paths (method, path) of objects made with `mine.testKey`. */
    let paths: [method: 'GET' | 'POST' | 'DELETE', path: string, id: string][];

    /** Every error answer is checked for our shape, doc_url included. */
    const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, key: string, payload?: object) => {
      const res = await t.app.inject({ method, url: `/api/v1${url}`, headers: { 'x-api-key': key, 'idempotency-key': newId() }, ...(payload ? { payload } : {}) });
      if (res.statusCode >= 400) assert.equal(errorShapeProblem(res, 'current'), undefined, res.body);
      return res;
    };

    before(async () => {
      t = await buildTestApp(target);
      mine = await t.newMerchant();
      theirs = await t.newMerchant({ name: 'Other' });
      const reference = `ORDER-${newId()}`;
      const payment = await call('POST', '/collect/payments', mine.testKey, {
        reference,
        amount: 1000,
        country: 'BJ',
        mode: 'direct',
        operator: 'mtn_bj',
        customer: { phone: '0197000000' },
      });
      assert.equal(payment.statusCode, 201, payment.body);
      const payout = await call('POST', '/payout/mobile-money/', mine.testKey, {
        reference: `PAY-${newId()}`,
        amount: 10_000,
        country: 'BJ',
        operator: 'mtn_bj',
        phone: '0197000000',
      });
      assert.equal(payout.statusCode, 201, payout.body);
      const batch = await call('POST', '/bulk-payments/', mine.testKey, {
        name: 'B',
        items: [{ beneficiary_name: 'Afi', phone: '0197000000', amount: 2_500_000, currency: 'XOF', reference: `L-${newId()}`, country: 'BJ', operator: 'mtn_bj' }],
      });
      assert.equal(batch.statusCode, 201, batch.body);
      const endpoint = await call('POST', '/webhook-endpoints', mine.testKey, { url: 'https://shop.example/hooks' });
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      const paymentId = payment.json().id as string;
      paths = [
        ['GET', `/collect/payments/${reference}`, reference],
        ['GET', `/collect/payments/${paymentId}`, paymentId],
        ['POST', `/collect/payments/${reference}/cancel`, reference],
        ['POST', `/collect/payments/${reference}/refunds`, reference],
        ['GET', `/payout/mobile-money/${payout.json().reference}/`, payout.json().reference],
        ['GET', `/bulk-payments/${batch.json().id}/`, batch.json().id],
        ['POST', `/bulk-payments/${batch.json().id}/validate/`, batch.json().id],
        ['GET', `/webhook-endpoints/${endpoint.json().id}`, endpoint.json().id],
        ['DELETE', `/webhook-endpoints/${endpoint.json().id}`, endpoint.json().id],
      ];
    });
    after(() => t.close());

    it('says the object exists in the other environment, keeping 404 not_found', async () => {
      for (const [method, path, id] of paths) {
        const res = await call(method, path, mine.liveKey);
        assert.equal(res.statusCode, 404, `${method} ${path}: ${res.body}`);
        assert.equal(res.json().error.code, 'not_found');
        assert.match(res.json().error.message, new RegExp(`^No [a-z ]+ ${id} in live; your merchant has one in test: use a test key\\.$`), path);
      }
    });

    it('gives another merchant’s objects the plain 404, with no hint', async () => {
      for (const key of [theirs.testKey, theirs.liveKey]) {
        for (const [method, path, id] of paths) {
          const res = await call(method, path, key);
          assert.equal(res.statusCode, 404, `${method} ${path}`);
          assert.match(res.json().error.message, new RegExp(`^No [a-z ]+ ${id}\\.$`), path);
        }
      }
    });

    it('gives a plain 404 for what exists nowhere', async () => {
      const res = await call('GET', '/collect/payments/NO-SUCH-ORDER', mine.liveKey);
      assert.equal(res.json().error.message, 'No payment NO-SUCH-ORDER.');
    });

    it('puts the hint in the earlier contract’s detail, keeping its body shape', async () => {
      const reference = paths[0]![2];
      const res = await t.app.inject({ url: `/api/v1/collect/mobile-money/${reference}/`, headers: { 'x-api-key': mine.liveKey } });
      assert.equal(res.statusCode, 404);
      assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'detail', 'error']);
      assert.equal(res.json().code, 'not_found');
      assert.match(res.json().detail, /in live; your merchant has one in test: use a test key/);
    });
  });
}
