/**
 * No credential reaches a log line (issue 29, point 3): a secret sent in the query string, in
 * every way a request can end (401, 404, 400 for a bad URL or an unknown parameter, a checkout
 * page, a request that succeeds), never appears in the request log, whose lines still name the
 * parameter. The API key in its header stays out too. On every database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { capturedLog } from '../support/captured-log.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`credentials in logged URLs on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    const log = capturedLog('debug');

    before(async () => {
      t = await buildTestApp(target, { logger: log.logger });
    });
    after(() => t.close());

    it('writes no secret from a query string into any log line, whatever the answer', async () => {
      const { testKey } = await t.newMerchant();
      const auth = { authorization: `Bearer ${testKey}` };
      const secret = (n: number) => `ak_test_QUERYSECRET${n}xyz`;
      const requests: Array<{ url: string; headers?: Record<string, string>; status: number }> = [
        { url: `/api/v1/account?api_key=${secret(1)}`, status: 401 },
        { url: `/api/v1/collect/payments?key=${secret(2)}`, status: 401 },
        { url: `/api/v1/no-such-route?token=${secret(3)}`, headers: auth, status: 404 },
        { url: `/api/v1/collect/payments?access_token=${secret(4)}`, headers: auth, status: 400 },
        { url: `/api/v1/%E0%A4%A?client_secret=${secret(5)}`, headers: auth, status: 400 },
        { url: `/api/v1/account?api%5Fkey=${secret(6)}`, headers: auth, status: 200 },
        { url: `/checkout/not-a-token?password=${secret(7)}`, status: 404 },
        { url: `/health?secret=${secret(8)}`, status: 200 },
        { url: `/api/v1/collect/payments?limit=1&apiKey=${secret(9)}&apiKey=${secret(10)}`, headers: auth, status: 400 },
      ];
      for (const request of requests) {
        const res = await t.app.inject({ method: 'GET', url: request.url, headers: request.headers ?? {} });
        assert.equal(res.statusCode, request.status, `${request.url}: ${res.body}`);
      }
      const text = log.lines.join('');
      assert.ok(log.lines.length >= requests.length, 'the requests were logged');
      for (let n = 1; n <= 10; n++) assert.ok(!text.includes(`QUERYSECRET${n}x`), `secret ${n} reached the log`);
      assert.ok(!text.includes(testKey), 'the API key in its header reached the log');
      assert.ok(text.includes('api_key=[redacted]'), 'the parameter is still named');
      assert.ok(text.includes('access_token=[redacted]'));
    });
  });
}
