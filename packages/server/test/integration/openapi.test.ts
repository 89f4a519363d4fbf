/** The OpenAPI document is generated from the routes and valid under a real validator. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import SwaggerParser from '@apidevtools/swagger-parser';
import { errorCatalog } from '../../src/core/errors/index.js';
import { buildTestApp, type TestApp } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

const sqlite = testDatabases().find((d) => d.name === 'sqlite')!;

describe('OpenAPI document', () => {
  let t: TestApp;
  let document: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

  before(async () => {
    t = await buildTestApp(sqlite);
    const res = await t.app.inject({ url: '/api/v1/collect/openapi.json' });
    assert.equal(res.statusCode, 200);
    document = res.json();
  });
  after(() => t.close());

  it('is served without an API key as OpenAPI 3.1', () => {
    assert.equal(document.openapi, '3.1.0');
  });

  it('passes the swagger-parser validator', async () => {
    await SwaggerParser.validate(structuredClone(document) as never);
  });

  it('lists the served routes with their prefix and hides health probes', () => {
    const paths = Object.keys(document.paths);
    for (const path of ['/api/v1/collect/payments/operators/', '/api/v1/collect/operators/', '/api/v1/payout/operators/', '/api/v1/account', '/api/v1/events/{id}']) {
      assert.ok(paths.includes(path), `${path} missing from ${paths.join(', ')}`);
    }
    assert.ok(!paths.includes('/health') && !paths.includes('/ready'));
  });

  it('declares both ways of sending the key and names each operation’s scope', () => {
    assert.deepEqual(Object.keys(document.components.securitySchemes).sort(), ['apiKeyHeader', 'bearerAuth']);
    const catalog = document.paths['/api/v1/collect/payments/operators/'].get;
    assert.match(catalog.description, /collect:read/);
    assert.match(document.paths['/api/v1/payout/operators/'].get.description, /payout:read/);
  });

  it('marks the earlier contract deprecated', () => {
    assert.equal(document.paths['/api/v1/collect/operators/'].get.deprecated, true);
  });

  it('lists every error code of the catalog', () => {
    for (const code of Object.keys(errorCatalog)) assert.ok(document.info.description.includes(`\`${code}\``), code);
  });
});
