/**
 * Every list refuses a cursor that is not an object id with 400 invalid_cursor (it used to answer
 * page 1 again, with has_more, and a client following cursors looped forever), and reads an
 * upper-case copy of an id as the id itself. On every database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectClient, direct } from '../support/collect-client.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

type Wire = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

for (const target of testDatabases()) {
  describe(`list cursors on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;
    const lists: string[] = [];

    before(async () => {
      t = await buildTestApp(target);
      key = (await t.newMerchant()).testKey;
      const api = collectClient(t.app, key);
      const post = async (url: string, payload: object) => {
        const res = await t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}`, 'idempotency-key': `k-${Math.random()}` }, payload });
        assert.ok(res.statusCode < 300, res.body);
        return res.json() as Wire;
      };
      const payment = (await api.create(direct())).json() as Wire;
      await api.post(payment.reference, 'refunds', {}, `r-${payment.id}`);
      const endpoint = await post('/webhook-endpoints', { url: 'https://shop.example/hooks' });
      const batch = await post('/bulk-payments/', { name: 'Cursors', items: [{ beneficiary_name: 'A', phone: '+2290197000000', amount: 2_500_000, currency: 'XOF', reference: `C-${payment.id}` }] });
      await post('/payout/mobile-money/', { reference: `P-${payment.id}`, amount: 500_000, phone: '0197000000', country: 'BJ', operator: 'mtn_bj' });
      // Events become deliveries to the endpoint (what the fan-out worker does).
      while ((await t.services.webhooks.fanOut()) > 0);
      lists.push(
        '/collect/payments',
        `/collect/payments/${payment.reference}/refunds`,
        '/payout/mobile-money/',
        '/events',
        '/webhook-endpoints',
        `/webhook-endpoints/${endpoint.id}/deliveries`,
        '/balance-transactions',
        '/bulk-payments/',
        `/bulk-payments/${batch.id}/items/`,
      );
    });
    after(() => t.close());

    const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}` } });

    it('refuses a cursor that is not an object id, on every list, naming the parameter', async () => {
      for (const list of lists) {
        for (const parameter of ['starting_after', 'ending_before']) {
          for (const bad of ['abc', 'page-2', '0']) {
            const res = await get(`${list}?${parameter}=${bad}`);
            assert.equal(res.statusCode, 400, `${list} ${parameter}=${bad}: ${res.body}`);
            assert.equal(res.json().error.code, 'invalid_cursor');
            assert.equal(res.json().error.field, parameter);
          }
        }
      }
    });

    it('reads an id in upper case as the id, and follows real cursors to the end', async () => {
      for (const list of lists) {
        const first = (await get(`${list}?limit=1`)).json() as Wire;
        assert.equal(first.data.length, 1, list);
        const id = first.data[0].id as string;
        const lower = (await get(`${list}?limit=5&starting_after=${id}`)).json() as Wire;
        const upper = (await get(`${list}?limit=5&starting_after=${id.toUpperCase()}`)).json() as Wire;
        assert.deepEqual(upper, lower, list);
        assert.ok(!lower.data.some((object: Wire) => object.id === id), `${list}: the cursor's object is not on the next page`);
      }
    });
  });
}
