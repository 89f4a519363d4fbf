/**
 * The metrics listener over real sockets: `akwe serve` with METRICS_PORT answers GET /metrics there
 * (process metrics included) and nowhere on the API port; the listener serves nothing else.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { parseSamples, sampleValue } from '../support/prometheus-text.js';

describe('the metrics listener (akwe serve, SQLite)', () => {
  let dataDir: string;
  let running: RunningServer;
  let metricsUrl: string;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'akwe-metrics-'));
    const config = loadConfig({ AKWE_DEV: 'true', AKWE_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', METRICS_PORT: '0', AKWE_RUN_WORKERS: 'false', LOG_LEVEL: 'silent' });
    running = await startServer(config, { logger: createLogger({ level: 'silent' }), announce: () => undefined });
    assert.ok(running.metricsServer, 'METRICS_PORT starts the listener');
    metricsUrl = running.metricsServer.url;
  });
  after(async () => {
    await running?.shutdown();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('listens on loopback, on a port other than the API', () => {
    assert.match(metricsUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.notEqual(new URL(metricsUrl).port, new URL(running.url).port);
  });

  it('serves the API requests and the process metrics at /metrics', async () => {
    assert.equal((await fetch(`${running.url}/ready`)).status, 200);
    const res = await fetch(`${metricsUrl}/metrics`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const samples = parseSamples(await res.text());
    assert.equal(sampleValue(samples, 'akwe_http_requests_total', { route: '/ready', method: 'GET', status_code: '200' }), 1);
    assert.ok(sampleValue(samples, 'process_cpu_seconds_total')! > 0, 'process metrics included');
    assert.ok(samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds'));
    assert.equal(sampleValue(samples, 'akwe_database_up'), 1);
  });

  it('refuses metrics on the API port', async () => {
    const res = await fetch(`${running.url}/metrics`);
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { error: { code: string } }).error.code, 'route_not_found');
  });

  it('serves nothing but GET /metrics', async () => {
    assert.equal((await fetch(`${metricsUrl}/`)).status, 404);
    assert.equal((await fetch(`${metricsUrl}/api/v1/account`)).status, 404);
    const posted = await fetch(`${metricsUrl}/metrics`, { method: 'POST' });
    assert.equal(posted.status, 405);
    assert.equal(posted.headers.get('allow'), 'GET, HEAD');
  });
});

describe('akwe serve without METRICS_PORT', () => {
  it('opens no metrics listener', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'akwe-metrics-off-'));
    const config = loadConfig({ AKWE_DEV: 'true', AKWE_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', AKWE_RUN_WORKERS: 'false', LOG_LEVEL: 'silent' });
    const running = await startServer(config, { logger: createLogger({ level: 'silent' }), announce: () => undefined });
    try {
      assert.equal(running.metricsServer, undefined);
      assert.equal((await fetch(`${running.url}/metrics`)).status, 404);
    } finally {
      await running.shutdown();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
