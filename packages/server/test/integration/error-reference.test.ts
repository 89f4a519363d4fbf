/** Every error body of our shape links to its code's entry in the error reference the server serves. */
import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { errorCatalog } from '../../src/core/errors/index.js';
import { errorShapeProblem } from '../support/error-shape.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const PUBLIC_URL = 'https://pay.example.com';

for (const target of testDatabases()) {
  describe(`error reference on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;
    let page: string;

    before(async () => {
      t = await buildTestApp(target, {
        // A trailing slash in PUBLIC_URL must not double the one before docs/.
        env: { PUBLIC_URL: `${PUBLIC_URL}/`, BODY_LIMIT_BYTES: '2048', RATE_LIMIT_READ_PER_MINUTE: '2' },
        apiExtensions: (api) => {
          api.get('/probe/crash', async () => {
            throw new Error('a bug with secret details');
          });
        },
      });
      key = (await t.newMerchant()).testKey;
      page = (await t.app.inject({ url: '/docs/errors' })).body;
    });
    after(() => t.close());

    it('serves the error reference at /docs/errors without a key, with one anchor per catalog code', async () => {
      const res = await t.app.inject({ url: '/docs/errors' });
      assert.equal(res.statusCode, 200);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      for (const [code, { status }] of Object.entries(errorCatalog)) {
        assert.match(res.body, new RegExp(`<section id="${code}">\\s*<h2>.*HTTP ${status}`), code);
      }
      const anchors = [...res.body.matchAll(/<section id="([a-z_]+)">/g)].map((match) => match[1]);
      assert.deepEqual(anchors.sort(), Object.keys(errorCatalog).sort());
    });

    /** The answer is in our shape, its doc_url is PUBLIC_URL/docs/errors#code, and the page has that anchor. */
    function assertLinked(res: LightMyRequestResponse, code: string, status: number) {
      assert.equal(res.statusCode, status, res.body);
      assert.equal(errorShapeProblem(res, 'current'), undefined, res.body);
      const error = res.json().error;
      assert.equal(error.code, code);
      assert.equal(error.doc_url, `${PUBLIC_URL}/docs/errors#${code}`);
      const anchor = new URL(error.doc_url).hash.slice(1);
      assert.ok(page.includes(`<section id="${anchor}">`), `no anchor ${anchor} on the page`);
    }

    it('links framework answers: 404 route_not_found, 405, 413, 415, invalid_json, 401, 500', async () => {
      const auth = { 'x-api-key': key };
      assertLinked(await t.app.inject({ url: '/api/v1/nowhere', headers: auth }), 'route_not_found', 404);
      assertLinked(await t.app.inject({ method: 'DELETE', url: '/api/v1/collect/payments/operators/', headers: auth }), 'method_not_allowed', 405);
      const big = JSON.stringify({ reference: 'x'.repeat(3000) });
      assertLinked(
        await t.app.inject({ method: 'POST', url: '/api/v1/collect/payments', headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'big' }, payload: big }),
        'payload_too_large',
        413,
      );
      assertLinked(
        await t.app.inject({ method: 'POST', url: '/api/v1/collect/payments', headers: { ...auth, 'content-type': 'text/plain', 'idempotency-key': 'txt' }, payload: 'hello' }),
        'unsupported_media_type',
        415,
      );
      assertLinked(
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/collect/payments',
          headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'bad' },
          payload: '{"a":',
        }),
        'invalid_json',
        400,
      );
      assertLinked(await t.app.inject({ url: '/api/v1/collect/payments/ORDER-1' }), 'unauthenticated', 401);
      const crash = await t.app.inject({ url: '/api/v1/probe/crash', headers: auth });
      assertLinked(crash, 'internal_error', 500);
      assert.doesNotMatch(crash.body, /secret details/);
    });

    it('links route answers: validation_error, not_found, missing_idempotency_key, 429 rate_limited', async () => {
      const auth = { 'x-api-key': key };
      assertLinked(
        await t.app.inject({ method: 'POST', url: '/api/v1/collect/payments', headers: { ...auth, 'idempotency-key': 'v' }, payload: { reference: 'A' } }),
        'validation_error',
        400,
      );
      const payout = { amount: 10_000, phone: '+22961000000', country: 'BJ', operator: 'mtn_bj', reference: 'P-1' };
      assertLinked(await t.app.inject({ method: 'POST', url: '/api/v1/payout/mobile-money/', headers: auth, payload: payout }), 'missing_idempotency_key', 400);
      // The read budget is 2 per minute: the third read is over it.
      const limited = await t.newMerchant();
      const read = () => t.app.inject({ url: '/api/v1/payout/mobile-money/NOPE/', headers: { 'x-api-key': limited.testKey } });
      assertLinked(await read(), 'not_found', 404);
      await read();
      assertLinked(await read(), 'rate_limited', 429);
    });

    it('keeps the earlier contract’s body exactly {error, code, detail}, with no doc_url', async () => {
      const res = await t.app.inject({ url: '/api/v1/collect/mobile-money/NOPE/', headers: { 'x-api-key': key } });
      assert.equal(res.statusCode, 404);
      assert.deepEqual(Object.keys(res.json()).sort(), ['code', 'detail', 'error']);
    });

    it('links an answer given before any request exists (headers too large), through a real socket', async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = t.app.server.address() as AddressInfo;
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('error', () => resolve(text));
        socket.on('close', () => resolve(text));
        socket.on('connect', () => socket.write(`GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
      });
      assert.match(answer, /^HTTP\/1.1 431/);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
      assert.equal(body.error.doc_url, `${PUBLIC_URL}/docs/errors#headers_too_large`);
    });
  });
}
