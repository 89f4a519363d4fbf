/**
 * Webhook endpoint URLs and payments' callback_url are checked when registered (create and update),
 * not only at delivery: a live URL always, and a test URL on a server without the development
 * setting, must be https, carry no credentials, and reach only public addresses. Refused means
 * 400 `validation_error` naming the field, and nothing written. On every database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectClient, hosted } from '../support/collect-client.js';
import { exampleHostsResolver } from '../support/example-hosts.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

/** Names the test resolver answers with a private or mixed set of addresses. */
const resolver = exampleHostsResolver({
  'intranet.example': ['10.1.2.3'],
  'mixed.example': ['93.184.216.34', '192.168.1.9'],
  'metadata.example': ['fd00::1'],
});

const refusedEverywhereButDevTest: Array<[url: string, reason: RegExp]> = [
  ['http://shop.example/hooks', /https:\/\//],
  ['https://127.0.0.1/x', /127\.0\.0\.1 is loopback/],
  ['https://169.254.169.254/', /169\.254\.169\.254 is link-local/],
  ['https://[::1]/x', /::1 is loopback/],
  ['https://intranet.example/x', /intranet\.example resolves to 10\.1\.2\.3, which is private/],
  ['https://mixed.example/x', /mixed\.example resolves to 192\.168\.1\.9, which is private/],
  ['https://metadata.example/x', /fd00::1, which is unique-local/],
  ['https://nowhere.invalid/x', /cannot resolve nowhere\.invalid: ENOTFOUND/],
  ['https://localhost/x', /localhost resolves to 127\.0\.0\.1, which is loopback/],
];

const refusedAlways: Array<[url: string, reason: RegExp]> = [
  ['https://user:pw@shop.example/x', /credentials/],
  ['ftp://shop.example/x', /https:\/\//],
  ['http://a:99999/', /absolute http\(s\) URL/],
  ['http://1.2.3.4.5/', /absolute http\(s\) URL/],
];

for (const target of testDatabases()) {
  describe(`URLs checked at registration on ${target.name}`, { skip: target.skip }, () => {
    let dev: TestApp;
    let production: TestApp;
    before(async () => {
      dev = await buildTestApp(target, { resolver });
      production = await buildTestApp(target, { resolver, env: { AKWE_DEV: 'false' } });
    });
    after(async () => {
      await dev?.close();
      await production?.close();
    });

    const call = (t: TestApp, key: string, method: 'POST' | 'PATCH', url: string, payload: object) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}`, 'idempotency-key': `k-${Math.random()}` }, payload });
    const endpointCount = async (t: TestApp, merchantId: string) =>
      (await t.db.database.db.selectFrom('webhook_endpoints').select('id').where('merchant_id', '=', merchantId).execute()).length;
    const paymentCount = async (t: TestApp, merchantId: string) =>
      (await t.db.database.db.selectFrom('payments').select('id').where('merchant_id', '=', merchantId).execute()).length;

    function assertRefused(
      res: { statusCode: number; body: string; json(): { error: { code: string; field?: string; message: string } } },
      field: string,
      reason: RegExp,
      what: string,
    ) {
      assert.equal(res.statusCode, 400, `${what}: ${res.body}`);
      const { error } = res.json();
      assert.equal(error.code, 'validation_error', what);
      assert.equal(error.field, field, what);
      assert.match(error.message, reason, what);
    }

    it('refuses a live webhook endpoint that is http, carries credentials, or names or resolves to a private, loopback or link-local address; writes nothing', async () => {
      const merchant = await dev.newMerchant();
      for (const [url, reason] of [...refusedEverywhereButDevTest, ...refusedAlways]) {
        assertRefused(await call(dev, merchant.liveKey, 'POST', '/webhook-endpoints', { url }), 'url', reason, url);
      }
      assert.equal(await endpointCount(dev, merchant.merchantId), 0);
    });

    it('refuses the same as a live payment’s callback_url, writing no payment', async () => {
      const merchant = await dev.newMerchant();
      const live = collectClient(dev.app, merchant.liveKey);
      for (const [url, reason] of [...refusedEverywhereButDevTest, ...refusedAlways]) {
        assertRefused(await live.create(hosted({ callback_url: url })), 'callback_url', reason, url);
      }
      assert.equal(await paymentCount(dev, merchant.merchantId), 0);
    });

    it('accepts a live https URL whose name resolves to public addresses only', async () => {
      const merchant = await dev.newMerchant();
      const created = await call(dev, merchant.liveKey, 'POST', '/webhook-endpoints', { url: 'https://shop.example/hooks' });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json().url, 'https://shop.example/hooks');
      const payment = await collectClient(dev.app, merchant.liveKey).createOk(hosted({ callback_url: 'https://93.184.216.34/cb' }));
      assert.equal(payment.callback_url, 'https://93.184.216.34/cb');
    });

    it('lets test URLs reach local receivers over http on a development server, but never with credentials or an unparsable URL', async () => {
      const merchant = await dev.newMerchant();
      const endpoint = await call(dev, merchant.testKey, 'POST', '/webhook-endpoints', { url: 'http://localhost:9/hooks' });
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      const payment = await collectClient(dev.app, merchant.testKey).create(hosted({ callback_url: 'http://10.0.0.7:8080/cb' }));
      assert.equal(payment.statusCode, 201, payment.body);
      for (const [url, reason] of refusedAlways) {
        assertRefused(await call(dev, merchant.testKey, 'POST', '/webhook-endpoints', { url }), 'url', reason, url);
        assertRefused(await collectClient(dev.app, merchant.testKey).create(hosted({ callback_url: url })), 'callback_url', reason, url);
      }
      assert.equal(await endpointCount(dev, merchant.merchantId), 1);
      assert.equal(await paymentCount(dev, merchant.merchantId), 1);
    });

    it('holds test URLs to the live rules when the development setting is off', async () => {
      const merchant = await production.newMerchant();
      for (const [url, reason] of [...refusedEverywhereButDevTest, ...refusedAlways, ['http://localhost:9/hooks', /https:\/\//] as [string, RegExp]]) {
        assertRefused(await call(production, merchant.testKey, 'POST', '/webhook-endpoints', { url }), 'url', reason, url);
        assertRefused(await collectClient(production.app, merchant.testKey).create(hosted({ callback_url: url })), 'callback_url', reason, url);
      }
      assert.equal(await endpointCount(production, merchant.merchantId), 0);
      assert.equal(await paymentCount(production, merchant.merchantId), 0);
      assert.equal((await call(production, merchant.testKey, 'POST', '/webhook-endpoints', { url: 'https://shop.example/hooks' })).statusCode, 201);
    });

    it('keeps live URLs to ports 443 and 8443 (endpoints created and updated, callback_url); test URLs keep any port', async () => {
      const merchant = await production.newMerchant();
      const refusedPorts = [
        'https://1.1.1.1:6379/a',
        'https://shop.example:80/hooks',
        'https://shop.example:8080/hooks',
        'https://shop.example:22/x',
        'https://[2606:4700::1111]:25/x',
      ];
      for (const url of refusedPorts) {
        assertRefused(await call(production, merchant.liveKey, 'POST', '/webhook-endpoints', { url }), 'url', /port \d+ is not allowed \(only 443 or 8443\) for a live URL/, url);
        assertRefused(await collectClient(production.app, merchant.liveKey).create(hosted({ callback_url: url })), 'callback_url', /port \d+ is not allowed/, url);
      }
      assert.equal(await endpointCount(production, merchant.merchantId), 0);
      assert.equal(await paymentCount(production, merchant.merchantId), 0);
      for (const url of ['https://shop.example/hooks', 'https://shop.example:443/hooks', 'https://shop.example:8443/hooks']) {
        const created = await call(production, merchant.liveKey, 'POST', '/webhook-endpoints', { url });
        assert.equal(created.statusCode, 201, `${url}: ${created.body}`);
        const payment = await collectClient(production.app, merchant.liveKey).create(hosted({ callback_url: url }));
        assert.equal(payment.statusCode, 201, `${url}: ${payment.body}`);
      }
      const endpoint = (await call(production, merchant.liveKey, 'POST', '/webhook-endpoints', { url: 'https://shop.example/p' })).json();
      assertRefused(
        await call(production, merchant.liveKey, 'PATCH', `/webhook-endpoints/${endpoint.id}`, { url: 'https://1.1.1.1:6379/a' }),
        'url',
        /port 6379 is not allowed/,
        'update',
      );
      for (const url of ['https://1.1.1.1:6379/a', 'https://shop.example:8080/hooks']) {
        assert.equal((await call(production, merchant.testKey, 'POST', '/webhook-endpoints', { url })).statusCode, 201, `test ${url}`);
      }
    });

    it('checks a changed URL the same way on update, and leaves the endpoint as it was when refused', async () => {
      const merchant = await production.newMerchant();
      for (const key of [merchant.liveKey, merchant.testKey]) {
        const endpoint = (await call(production, key, 'POST', '/webhook-endpoints', { url: 'https://shop.example/a', description: 'before' })).json();
        for (const [url, reason] of [...refusedEverywhereButDevTest, ...refusedAlways]) {
          assertRefused(await call(production, key, 'PATCH', `/webhook-endpoints/${endpoint.id}`, { url, description: 'after' }), 'url', reason, url);
        }
        const row = await production.db.database.db.selectFrom('webhook_endpoints').select(['url', 'description']).where('id', '=', endpoint.id).executeTakeFirstOrThrow();
        assert.deepEqual(row, { url: 'https://shop.example/a', description: 'before' });
        const changed = await call(production, key, 'PATCH', `/webhook-endpoints/${endpoint.id}`, { url: 'https://shop.example/b' });
        assert.equal(changed.json().url, 'https://shop.example/b', changed.body);
      }
    });
  });
}
