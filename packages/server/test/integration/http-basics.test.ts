/** The API's frame: the /api/v1 prefix, health and readiness, request ids, error bodies, body limit. */
import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Type } from 'typebox';
import { buildApp } from '../../src/app.js';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { createServices } from '../../src/services.js';
import { buildTestApp, testConfig, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`HTTP basics on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;

    before(async () => {
      t = await buildTestApp(target, {
        env: { BODY_LIMIT_BYTES: '2048' },
        // A JSON echo under the prefix, public, so body parsing and its errors can be exercised
        // before the first real POST route exists.
        beforeReady: (app) => {
          app.register(
            async (api) => {
              api.post('/probe/echo', { config: { public: true }, schema: { body: Type.Object({ n: Type.Integer() }) } }, async (request) => request.body);
            },
            { prefix: '/api/v1' },
          );
        },
      });
      key = (await t.newMerchant()).testKey;
    });
    after(() => t.close());

    it('serves the API under /api/v1 and nothing at the bare path', async () => {
      const prefixed = await t.app.inject({ url: '/api/v1/collect/payments/operators/', headers: { 'x-api-key': key } });
      assert.equal(prefixed.statusCode, 200);
      const bare = await t.app.inject({ url: '/collect/payments/operators/', headers: { 'x-api-key': key } });
      assert.equal(bare.statusCode, 404);
      assert.equal(bare.json().error.code, 'route_not_found');
    });

    it('accepts paths with or without the trailing slash', async () => {
      const withSlash = await t.app.inject({ url: '/api/v1/collect/operators/', headers: { 'x-api-key': key } });
      const without = await t.app.inject({ url: '/api/v1/collect/operators', headers: { 'x-api-key': key } });
      assert.equal(withSlash.statusCode, 200);
      assert.equal(without.statusCode, 200);
      assert.deepEqual(without.json(), withSlash.json());
    });

    it('answers /health without a key', async () => {
      const res = await t.app.inject({ url: '/health' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'ok' });
    });

    it('answers /ready when the database is reachable and migrated', async () => {
      const res = await t.app.inject({ url: '/ready' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.json(), { status: 'ready' });
    });

    it('answers /ready with 503 while migrations are pending', async () => {
      const fresh = await target.open({ migrate: false });
      try {
        const services = createServices({ database: fresh.database, catalog: loadDefaultCatalog() });
        const app = await buildApp({ config: testConfig(), services });
        const res = await app.inject({ url: '/ready' });
        assert.equal(res.statusCode, 503);
        assert.match(res.json().reason, /0001-foundation/);
        await app.close();
      } finally {
        await fresh.close();
      }
    });

    it('answers /ready with 503 when the database is gone', async () => {
      const doomed = await target.open();
      const services = createServices({ database: doomed.database, catalog: loadDefaultCatalog() });
      const app = await buildApp({ config: testConfig(), services });
      await doomed.close();
      const res = await app.inject({ url: '/ready' });
      assert.equal(res.statusCode, 503);
      assert.equal(res.json().status, 'not_ready');
      await app.close();
    });

    it('puts a request id on every response and reuses a safe incoming one', async () => {
      const generated = await t.app.inject({ url: '/health' });
      assert.match(String(generated.headers['x-request-id']), /^[0-9a-f-]{36}$/);
      const kept = await t.app.inject({ url: '/health', headers: { 'x-request-id': 'abc-123' } });
      assert.equal(kept.headers['x-request-id'], 'abc-123');
      const unsafe = await t.app.inject({ url: '/health', headers: { 'x-request-id': 'bad id\twith spaces' } });
      assert.notEqual(unsafe.headers['x-request-id'], 'bad id\twith spaces');
    });

    it('answers unknown routes 404 in the error shape with the request id', async () => {
      const res = await t.app.inject({ url: '/api/v1/nothing-here', headers: { 'x-api-key': key } });
      assert.equal(res.statusCode, 404);
      const body = res.json();
      assert.equal(body.error.code, 'route_not_found');
      assert.equal(body.error.request_id, res.headers['x-request-id']);
    });

    it('answers a known path asked with another method 405 method_not_allowed with Allow, in the error shape', async () => {
      const cases: Array<[string, string, string]> = [
        ['DELETE', '/api/v1/collect/payments', 'GET, HEAD, POST'],
        ['PUT', '/api/v1/collect/payments/ORDER-1/', 'GET, HEAD'],
        ['GET', '/api/v1/collect/payments/ORDER-1/cancel', 'POST'],
        ['POST', '/api/v1/events', 'GET, HEAD'],
      ];
      for (const [method, url, allow] of cases) {
        const res = await t.app.inject({ method: method as 'GET', url, headers: { 'x-api-key': key } });
        assert.equal(res.statusCode, 405, `${method} ${url}: ${res.body}`);
        assert.equal(res.headers.allow, allow, `${method} ${url}`);
        const body = res.json();
        assert.equal(body.error.code, 'method_not_allowed');
        assert.match(body.error.message, new RegExp(`${method} is not allowed`));
        assert.equal(body.error.request_id, res.headers['x-request-id']);
      }
      // An unknown path is still 404.
      assert.equal((await t.app.inject({ method: 'DELETE', url: '/api/v1/nothing-here', headers: { 'x-api-key': key } })).statusCode, 404);
    });

    it('answers a wrong method, an unknown path, and a body that cannot be parsed on the way there, in the earlier contract’s shape on its paths', async () => {
      const wrongMethod = await t.app.inject({ method: 'PUT', url: '/api/v1/collect/operators/', headers: { 'x-api-key': key } });
      assert.equal(wrongMethod.statusCode, 405);
      assert.equal(wrongMethod.headers.allow, 'GET, HEAD');
      assert.deepEqual(wrongMethod.json(), {
        error: 'Method Not Allowed',
        code: 'method_not_allowed',
        detail: 'PUT is not allowed on /api/v1/collect/operators/; allowed: GET, HEAD.',
      });
      const unknown = await t.app.inject({ method: 'GET', url: '/api/v1/collect/mobile-money/a/b/', headers: { 'x-api-key': key } });
      assert.equal(unknown.statusCode, 404);
      assert.equal(unknown.json().code, 'route_not_found');
      const unparsable = await t.app.inject({
        method: 'DELETE',
        url: '/api/v1/collect/mobile-money/',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        payload: '{"__proto__":{"polluted":1}}',
      });
      assert.equal(unparsable.statusCode, 400);
      assert.deepEqual(Object.keys(unparsable.json()).sort(), ['code', 'detail', 'error']);
      assert.equal(unparsable.json().code, 'invalid_json');
    });

    it('answers a malformed percent escape and a path segment over 100 characters with 400 validation_error in the shape of the path’s contract', async () => {
      for (const url of ['/api/v1/collect/payments/x%ZZ', `/api/v1/collect/payments/${'a'.repeat(101)}`]) {
        const res = await t.app.inject({ url, headers: { 'x-api-key': key } });
        assert.equal(res.statusCode, 400, url);
        const { error } = res.json();
        assert.equal(error.code, 'validation_error');
        assert.equal(error.field, 'path');
        assert.equal(error.request_id, res.headers['x-request-id']);
      }
      // The earlier contract's paths answer in its validation shape.
      for (const url of ['/api/v1/collect/mobile-money/x%ZZ/', `/api/v1/collect/mobile-money/${'a'.repeat(101)}/`]) {
        const res = await t.app.inject({ url, headers: { 'x-api-key': key } });
        assert.equal(res.statusCode, 400, url);
        assert.deepEqual(Object.keys(res.json()), ['path']);
        assert.match(res.json().path[0], /path/);
      }
      // The longest reference there can be still reaches its route.
      const longest = await t.app.inject({ url: `/api/v1/collect/payments/${'a'.repeat(100)}`, headers: { 'x-api-key': key } });
      assert.equal(longest.statusCode, 404);
      assert.equal(longest.json().error.code, 'not_found');
    });

    it('answers a request arriving while the app closes with 503 service_unavailable in the error shape and Connection: close', async () => {
      const services = createServices({ database: t.db.database, catalog: loadDefaultCatalog() });
      const app = await buildApp({ config: testConfig(), services });
      let release: (() => void) | undefined;
      // A preClose hook registered after ours holds the close open while a request arrives.
      app.addHook('preClose', () => new Promise<void>((resolve) => (release = resolve)));
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const closed = app.close();
      while (!release) await new Promise((resolve) => setImmediate(resolve));
      // Through a socket: inject refuses to run once close has begun.
      const res = await fetch(`${url}/api/v1/collect/payments/operators/`, { headers: { 'x-api-key': key } });
      release();
      await closed;
      assert.equal(res.status, 503);
      assert.equal(res.headers.get('connection'), 'close');
      const { error } = (await res.json()) as { error: { code: string; request_id: string } };
      assert.equal(error.request_id, res.headers.get('x-request-id'));
      assert.equal(error.code, 'service_unavailable');
    });

    it('answers headers over the size limit with 431 and a malformed request line with 400, in the error shape, through a real socket', async () => {
      const services = createServices({ database: t.db.database, catalog: loadDefaultCatalog() });
      const app = await buildApp({ config: testConfig(), services });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      /** Sends raw bytes and reads everything until the server closes the connection. */
      const exchange = (raw: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = connect(port, '127.0.0.1');
          let answer = '';
          socket.setEncoding('utf8');
          socket.on('data', (chunk: string) => (answer += chunk));
          socket.on('error', () => resolve(answer)); // the server may reset while we still write
          socket.on('close', () => resolve(answer));
          socket.on('connect', () => socket.write(raw));
          setTimeout(() => reject(new Error(`no answer; got ${answer}`)), 5000).unref();
        });
      try {
        const cases: Array<[string, number, string]> = [
          [`GET /health HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
          ['NOT A REQUEST\r\n\r\n', 400, 'malformed_request'],
        ];
        for (const [raw, status, code] of cases) {
          const answer = await exchange(raw);
          assert.match(answer, new RegExp(`^HTTP/1\\.1 ${status} `), answer);
          assert.match(answer, /content-type: application\/json/i);
          const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { error: { code: string; message: string } };
          assert.equal(body.error.code, code);
          assert.ok(body.error.message.length > 0);
        }
      } finally {
        await app.close();
      }
    });

    it('refuses a body over the size limit with 413 payload_too_large', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/probe/echo',
        payload: JSON.stringify({ n: 1, pad: 'x'.repeat(4096) }),
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(res.statusCode, 413);
      assert.equal(res.json().error.code, 'payload_too_large');
    });

    it('refuses malformed JSON with 400 invalid_json', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/probe/echo', payload: '{"n": 1', headers: { 'content-type': 'application/json' } });
      assert.equal(res.statusCode, 400);
      assert.equal(res.json().error.code, 'invalid_json');
    });

    it('refuses a body that is not JSON with 415 unsupported_media_type', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/probe/echo', payload: 'n=1', headers: { 'content-type': 'text/plain' } });
      assert.equal(res.statusCode, 415);
      assert.equal(res.json().error.code, 'unsupported_media_type');
    });

    it('reports schema failures as validation_error naming the field, without coercing "1" into 1', async () => {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/probe/echo', payload: { n: '1' } });
      assert.equal(res.statusCode, 400);
      const { error } = res.json();
      assert.equal(error.code, 'validation_error');
      assert.equal(error.field, 'n');
      assert.deepEqual(
        error.details.map((d: { field: string }) => d.field),
        ['n'],
      );
    });

    describe('the NUL character (PostgreSQL text cannot hold it)', () => {
      const nulError = (res: { statusCode: number; json(): { error: { code: string; field: string; message: string } } }, field: string) => {
        assert.equal(res.statusCode, 400);
        const { error } = res.json();
        assert.equal(error.code, 'validation_error');
        assert.equal(error.field, field);
        assert.match(error.message, /NUL character/);
      };

      it('refuses it in a path parameter and in the query with 400 validation_error naming them', async () => {
        const headers = { 'x-api-key': key };
        nulError(await t.app.inject({ url: '/api/v1/collect/payments/ORDER%00-1', headers }), 'reference_or_id');
        nulError(await t.app.inject({ url: '/api/v1/events?type=collect%00', headers }), 'type');
        nulError(await t.app.inject({ url: '/api/v1/webhook-endpoints/%00', headers }), 'id');
        // The checkout page answers people: the same refusal, as an HTML page.
        const page = await t.app.inject({ url: '/checkout/%00' });
        assert.equal(page.statusCode, 400);
        assert.match(String(page.headers['content-type']), /^text\/html/);
      });

      it('refuses it in a nested body string, stores nothing, and still answers 401 first to a request without a key', async () => {
        const body = { reference: 'NUL-1', amount: 3000, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '0197000000\u0000' } };
        const res = await t.app.inject({ method: 'POST', url: '/api/v1/collect/payments', headers: { 'x-api-key': key, 'idempotency-key': 'nul-1' }, payload: body });
        nulError(res, 'customer.phone');
        const stored = await t.db.database.db.selectFrom('payments').select('id').where('reference', '=', 'NUL-1').execute();
        assert.deepEqual(stored, []);
        const claims = await t.db.database.db.selectFrom('idempotency_records').select('idempotency_key').where('idempotency_key', '=', 'nul-1').execute();
        assert.deepEqual(claims, []);
        const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/collect/payments', payload: body });
        assert.equal(anonymous.statusCode, 401);
      });

      it('answers the earlier contract in its own validation shape', async () => {
        const res = await t.app.inject({ url: '/api/v1/collect/mobile-money/ORDER%00-1/', headers: { 'x-api-key': key } });
        assert.equal(res.statusCode, 400);
        assert.deepEqual(res.json(), { reference: ['reference must not contain the NUL character (U+0000)'] });
      });
    });
  });
}
