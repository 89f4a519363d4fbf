/**
 * A JSON body nested deeper than MAX_JSON_NESTING_DEPTH is refused with 400 before it is parsed,
 * on both contracts in their own error shapes; before, a few thousand levels overflowed a
 * recursive walk of the body and answered 500. On every database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { MAX_JSON_NESTING_DEPTH } from '../../src/http/plugins/json-depth.js';
import { direct } from '../support/collect-client.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

/** `{"<field>": [[[ … 0 … ]]]}` with `depth` levels in all, the outer object included. */
function nested(field: string, depth: number): string {
  return `{"${field}":${'['.repeat(depth - 1)}0${']'.repeat(depth - 1)}}`;
}

const TOO_DEEP_MESSAGE = `body nests deeper than ${MAX_JSON_NESTING_DEPTH} levels of objects and arrays`;

for (const target of testDatabases()) {
  describe(`JSON nesting depth on ${target.name}`, { skip: target.skip }, () => {
    let t: TestApp;
    let key: string;
    before(async () => {
      t = await buildTestApp(target);
      key = (await t.newMerchant()).testKey;
    });
    after(() => t.close());

    const post = (url: string, payload: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1${url}`,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': `k-${Math.random()}` },
        payload,
      });

    const currentRoutes = ['/collect/payments', '/webhook-endpoints', '/collect/payments/nope/refunds'];

    it('refuses a body nested thousands of levels deep with 400 validation_error, field body, on current routes', async () => {
      for (const url of currentRoutes) {
        for (const depth of [MAX_JSON_NESTING_DEPTH + 1, 5_000, 100_000]) {
          const res = await post(url, nested('extra', depth));
          assert.equal(res.statusCode, 400, `${url} at ${depth}: ${res.body}`);
          const { error } = res.json();
          assert.deepEqual({ code: error.code, field: error.field, message: error.message }, { code: 'validation_error', field: 'body', message: TOO_DEEP_MESSAGE });
          assert.equal(error.request_id, res.headers['x-request-id']);
        }
      }
    });

    it('refuses it in the earlier contract’s field -> messages shape', async () => {
      for (const url of ['/collect/mobile-money/', '/collect/mobile-money/confirm/']) {
        const res = await post(url, nested('phone', 5_000));
        assert.equal(res.statusCode, 400, res.body);
        assert.deepEqual(res.json(), { body: [TOO_DEEP_MESSAGE] });
      }
    });

    it('lets a body at the limit through to validation, and does not count brackets inside strings', async () => {
      const atLimit = await post('/collect/payments', nested('extra', MAX_JSON_NESTING_DEPTH));
      assert.equal(atLimit.statusCode, 400);
      assert.notEqual(atLimit.json().error.field, 'body', atLimit.body);
      // An escaped quote and backslash first: the scan must stay inside the string past them.
      const brackets = '"\\' + '[{'.repeat(120);
      const created = await post('/collect/payments', JSON.stringify(direct({ description: brackets })));
      assert.equal(created.statusCode, 201, created.body);
    });
  });
}
