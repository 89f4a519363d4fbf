/**
 * Search by phone on the payment and payout lists (the dashboard's search): an E.164 number, spaces
 * ignored; only the key's merchant and environment; a national number is refused with 400, since it
 * cannot be matched without its country.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectClient, direct } from '../support/collect-client.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`search by phone on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    before(async () => {
      t = await buildTestApp(target);
    });
    after(() => t.close());

    const get = (url: string, key: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}` } });
    const payout = (key: string, phone: string, reference: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/payout/mobile-money/',
        headers: { authorization: `Bearer ${key}`, 'idempotency-key': `k-${reference}` },
        payload: { amount: 100_000, phone, country: 'BJ', operator: 'mtn_bj', reference },
      });

    it('finds a customer’s payments and a beneficiary’s payouts by their number, and only them', async () => {
      const merchant = await t.newMerchant();
      const other = await t.newMerchant();
      const api = collectClient(t.app, merchant.testKey);
      const first = await api.createOk(direct({ customer: { phone: '0197000010' } }));
      await api.createOk(direct({ customer: { phone: '0197000020' } }));
      const second = await api.createOk(direct({ customer: { phone: '01 97 00 00 10' } }));
      await collectClient(t.app, other.testKey).createOk(direct({ customer: { phone: '0197000010' } }));

      const found = await get(`/collect/payments?phone=${encodeURIComponent('+229 01 97 00 00 10')}`, merchant.testKey);
      assert.equal(found.statusCode, 200, found.body);
      assert.deepEqual(
        found.json().data.map((p: { id: string }) => p.id),
        [second.id, first.id],
        'newest first, this merchant’s only',
      );
      assert.equal((await get('/collect/payments?phone=%2B2290197000099', merchant.testKey)).json().data.length, 0);
      assert.equal((await get('/collect/payments?phone=%2B2290197000010', merchant.liveKey)).json().data.length, 0, 'not in live');
      const national = await get('/collect/payments?phone=0197000010', merchant.testKey);
      assert.equal(national.statusCode, 400);
      assert.equal(national.json().error.code, 'validation_error');

      for (const [phone, reference] of [
        ['0197000030', `PH-${Date.now()}-1`],
        ['0197000040', `PH-${Date.now()}-2`],
      ] as const) {
        assert.equal((await payout(merchant.testKey, phone, reference)).statusCode, 201);
      }
      const payouts = await get('/payout/mobile-money/?phone=%2B2290197000030', merchant.testKey);
      assert.equal(payouts.statusCode, 200, payouts.body);
      assert.deepEqual(
        payouts.json().data.map((p: { phone: string }) => p.phone),
        ['+2290197000030'],
      );
      assert.equal((await get('/payout/mobile-money/?phone=0197000030', merchant.testKey)).statusCode, 400);
    });
  });
}
