/**
 * Liveness and readiness are distinct: /health answers while the process runs, /ready only while
 * the database answers. Shown on a database closed under the app, and on a PostgreSQL server that
 * nothing listens for, and on one that accepts connections but never answers.
 */
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadDefaultCatalog } from '../../src/core/catalog/operator-catalog.js';
import { createServices } from '../../src/services.js';
import { openDatabase } from '../../src/storage/database.js';
import { parseSamples, sampleValue } from '../support/prometheus-text.js';
import { testConfig } from '../support/test-app.js';
import { testDatabases } from '../support/test-databases.js';

for (const target of testDatabases()) {
  describe(`probes on ${target.name}`, { skip: target.skip }, () => {
    it('stays live but not ready once the database is closed under the app, and the scrape says so', async () => {
      const doomed = await target.open();
      const services = createServices({ database: doomed.database, catalog: loadDefaultCatalog() });
      const app = await buildApp({ config: testConfig(), services });
      try {
        assert.equal((await app.inject({ url: '/ready' })).statusCode, 200, 'ready while the database answers');
        await doomed.close();
        const ready = await app.inject({ url: '/ready' });
        assert.equal(ready.statusCode, 503);
        assert.deepEqual(ready.json(), { status: 'not_ready', reason: 'database unreachable' });
        const live = await app.inject({ url: '/health' });
        assert.equal(live.statusCode, 200);
        assert.deepEqual(live.json(), { status: 'ok' });
        // The scrape still answers: the storage gauges are absent and akwe_database_up says why.
        const samples = parseSamples((await services.metrics.scrape()).body);
        assert.equal(sampleValue(samples, 'akwe_database_up'), 0);
        assert.equal(sampleValue(samples, 'akwe_payments', { environment: 'test', status: 'pending' }), undefined);
      } finally {
        await app.close();
      }
    });
  });
}

describe('probes with a PostgreSQL server that is not there', () => {
  it('answers /ready 503 and /health 200', async () => {
    // Port 1 on loopback: nothing listens, the connection is refused at once.
    const database = openDatabase({ kind: 'postgres', url: 'postgres://akwe@127.0.0.1:1/akwe' });
    const app = await buildApp({ config: testConfig(), services: createServices({ database, catalog: loadDefaultCatalog() }) });
    try {
      const ready = await app.inject({ url: '/ready' });
      assert.equal(ready.statusCode, 503);
      assert.equal(ready.json().reason, 'database unreachable');
      assert.equal((await app.inject({ url: '/health' })).statusCode, 200);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('probes with a PostgreSQL server that accepts connections and never answers', () => {
  it('answers /ready 503 once READY_TIMEOUT_MS has passed, naming the wait, instead of hanging', { timeout: 30_000 }, async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    const database = openDatabase({ kind: 'postgres', url: `postgres://akwe@127.0.0.1:${port}/akwe` });
    const app = await buildApp({ config: testConfig({ READY_TIMEOUT_MS: '300' }), services: createServices({ database, catalog: loadDefaultCatalog() }) });
    try {
      const ready = await app.inject({ url: '/ready' });
      assert.equal(ready.statusCode, 503);
      assert.deepEqual(ready.json(), { status: 'not_ready', reason: 'database did not answer within 300 ms' });
      assert.ok(sockets.length > 0, 'the probe did reach the silent server');
      assert.equal((await app.inject({ url: '/health' })).statusCode, 200);
    } finally {
      for (const socket of sockets) socket.destroy();
      await app.close();
      await database.close().catch(() => {});
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
