/**
 * Strict-Transport-Security (issue 29, point 8): on every answer served over HTTPS (behind a
 * TLS-terminating proxy named in TRUST_PROXY, X-Forwarded-Proto says so), never over plain HTTP,
 * never on a client's own claim of HTTPS, and not when configured off (the development default).
 * On every database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`Strict-Transport-Security on ${target.name}`, { skip: target.skip }, () => {
    let behindProxy: TestApp;
    let untrusted: TestApp;
    let development: TestApp;
    let key: string;

    before(async () => {
      behindProxy = await buildTestApp(target, { env: { HSTS_MAX_AGE: '31536000', HSTS_INCLUDE_SUBDOMAINS: 'true', TRUST_PROXY: '127.0.0.1' } });
      untrusted = await buildTestApp(target, { env: { HSTS_MAX_AGE: '31536000', TRUST_PROXY: '10.0.0.1' } });
      development = await buildTestApp(target, { env: { TRUST_PROXY: '127.0.0.1' } });
      key = (await behindProxy.newMerchant()).testKey;
    });
    after(async () => {
      await behindProxy?.close();
      await untrusted?.close();
      await development?.close();
    });

    const get = (t: TestApp, url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers, remoteAddress: '127.0.0.1' });

    it('sends it on the checkout page, the API, its errors and the docs when the trusted proxy says HTTPS', async () => {
      const https = { 'x-forwarded-proto': 'https' };
      for (const [url, status, headers] of [
        ['/checkout/no-such-token', 404, https],
        ['/api/v1/account', 200, { ...https, authorization: `Bearer ${key}` }],
        ['/api/v1/account', 401, https],
        ['/api/v1/openapi.json', 200, https],
      ] as const) {
        const res = await get(behindProxy, url, headers);
        assert.equal(res.statusCode, status, `${url}: ${res.body.slice(0, 200)}`);
        assert.equal(res.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains', url);
      }
    });

    it("never sends it over plain HTTP, on an untrusted client's claim of HTTPS, or when off (the development default)", async () => {
      assert.equal((await get(behindProxy, '/checkout/no-such-token')).headers['strict-transport-security'], undefined, 'plain HTTP');
      assert.equal((await get(behindProxy, '/checkout/no-such-token', { 'x-forwarded-proto': 'http' })).headers['strict-transport-security'], undefined, 'proxy says http');
      assert.equal((await get(untrusted, '/checkout/no-such-token', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security'], undefined, 'untrusted claim');
      assert.equal((await get(development, '/checkout/no-such-token', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security'], undefined, 'off in development');
    });
  });
}
