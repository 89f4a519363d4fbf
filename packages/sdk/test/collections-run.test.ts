/**
 * The checked-in collections run from start to end against a fresh server, each with its own
 * runner: examples/akwe.postman_collection.json through newman (its Node API, the Tour folder) and
 * examples/bruno through `bru run tour` (Bruno's CLI, the Local environment). Every request of the
 * tour is sent and every assertion (the status each request expects) passes.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { mailedToken, PASSWORD, uniqueEmail } from '../../server/test/support/dashboard.js';
// @ts-expect-error the generator is a plain .mjs script without type declarations
import { TOUR, TOUR_FOLDER } from '../scripts/collection-tour.mjs';
// @ts-expect-error the generator is a plain .mjs script without type declarations
import { BRUNO_COLLECTION_DIR } from '../scripts/generate-bruno.mjs';
// @ts-expect-error the generator is a plain .mjs script without type declarations
import { POSTMAN_COLLECTION_PATH } from '../scripts/generate-postman.mjs';
import { startRealServer, type RealServer } from './support/real-server.js';

const require = createRequire(import.meta.url);
/** Bruno's CLI, wherever npm installed it (its package's `bin`). */
const BRU = join(dirname(require.resolve('@usebruno/cli/package.json')), (require('@usebruno/cli/package.json') as { bin: { bru: string } }).bin.bru);

interface NewmanSummary {
  run: {
    executions: { item: { name: string }; response?: { code: number } }[];
    failures: { error: { message: string; test?: string }; source?: { name?: string } }[];
    stats: { assertions: { total: number; failed: number }; requests: { total: number; failed: number } };
  };
}

describe('the API collections, run by their own runners against a fresh server', () => {
  let server: RealServer;
  let dataDir: string;
  let variables: Record<string, string>;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'akwe-collections-'));
    server = await startRealServer({ AKWE_DATA_DIR: dataDir, RATE_LIMIT_DASHBOARD_AUTH_PER_IP: '1000000' });
    const { testKey } = await server.testApp.newMerchant({ name: 'Collections tour' });
    // A dashboard user whose address is verified: signed up, then the mailed link followed.
    const email = uniqueEmail('tour');
    const { app } = server.testApp;
    const signUp = await app.inject({
      method: 'POST',
      url: '/api/v1/dashboard/auth/sign-up',
      payload: { email, password: PASSWORD, name: 'Tour', merchant_name: 'Tour receiver' },
    });
    assert.equal(signUp.statusCode, 202, signUp.body);
    const verified = await app.inject({ method: 'POST', url: '/api/v1/dashboard/auth/verify-email', payload: { token: mailedToken(dataDir, email, 'verify-email') } });
    assert.equal(verified.statusCode, 204, verified.body);
    variables = { baseUrl: server.baseUrl.replace(/\/api\/v1$/, ''), apiKey: testKey, dashboardEmail: email, dashboardPassword: PASSWORD };
  });

  after(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the Postman collection’s Tour folder with newman: every request sent, every status as expected', async () => {
    const newman = require('newman') as { run: (options: object, done: (error: Error | null, summary: NewmanSummary) => void) => void };
    const summary = await new Promise<NewmanSummary>((resolve, reject) =>
      newman.run(
        {
          collection: JSON.parse(readFileSync(POSTMAN_COLLECTION_PATH, 'utf8')),
          folder: TOUR_FOLDER,
          envVar: Object.entries(variables).map(([key, value]) => ({ key, value })),
          reporters: [],
          timeoutRequest: 10_000,
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      ),
    );
    const failures = summary.run.failures.map((failure) => `${failure.source?.name}: ${failure.error.test ?? ''} ${failure.error.message}`);
    assert.deepEqual(failures, []);
    assert.equal(summary.run.executions.length, TOUR.length, 'every request of the tour was sent');
    assert.equal(summary.run.stats.assertions.total, TOUR.length, 'one assertion per request');
  });

  it('runs the Bruno collection’s tour folder with `bru run`: every request sent, every test passed', async () => {
    const report = join(dataDir, 'bruno-report.json');
    const args = [BRU, 'run', 'tour', '--env', 'Local', '--reporter-json', report, ...Object.entries(variables).flatMap(([key, value]) => ['--env-var', `${key}=${value}`])];
    const run = await promisify(execFile)(process.execPath, args, { cwd: BRUNO_COLLECTION_DIR, timeout: 120_000 }).catch(
      (error: { stdout: string; stderr: string; code: number }) => error,
    );
    const [result] = JSON.parse(readFileSync(report, 'utf8')) as {
      summary: { totalRequests: number; passedRequests: number; failedRequests: number; totalTests: number; passedTests: number; failedTests: number };
      results: { test: { filename: string }; response: { status: number }; testResults: { description: string; status: string; error?: string }[] }[];
    }[];
    const failed = result!.results
      .filter((entry) => entry.testResults.some((test) => test.status !== 'pass'))
      .map((entry) => `${entry.test.filename}: ${entry.response.status} ${entry.testResults.map((test) => test.error ?? '').join(' ')}`);
    assert.deepEqual(failed, [], run.stdout);
    assert.equal(result!.summary.totalRequests, TOUR.length, 'every request of the tour was sent');
    assert.equal(result!.summary.passedTests, TOUR.length, 'one passing test per request');
    assert.equal(result!.summary.failedRequests, 0);
  });
});
