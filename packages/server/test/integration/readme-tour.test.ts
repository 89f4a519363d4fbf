/**
 * The README's tour runs as written against a fresh server, so it cannot break again unnoticed:
 * `akwe serve` from scratch (SQLite in a temporary folder, AKWE_DEV on, as `npm start` does), the
 * demo key it prints, every command of the tour through bash and curl. Each curl must answer 2xx,
 * and afterwards the objects the tour created must have reached their final states. SQLite only:
 * the tour is about `npm start`. Skipped lines (they need a screen): see headlessSkips.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { freePort, startAkwe, waitForUrl, type AkweProcess } from '../support/child-process.js';
import { headlessSkips, runnableTour, statusLinePattern, tourCommands } from '../support/readme-tour.js';

const run = promisify(execFile);
const SANDBOX_FLOAT_MINOR = 100_000_000 * 100;

describe('the README tour', { timeout: 180_000 }, () => {
  let folder: string;
  let server: AkweProcess;
  let baseUrl: string;
  let key: string;

  before(async () => {
    await run('bash', ['-c', 'command -v curl']).catch(() => assert.fail('the README tour needs curl (7.76 or later) on PATH'));
    folder = mkdtempSync(join(tmpdir(), 'akwe-readme-tour-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = startAkwe(['serve'], { env: { PORT: String(port), HOST: '127.0.0.1', AKWE_DEV: 'true', AKWE_DATA_DIR: join(folder, 'data'), LOG_LEVEL: 'silent' }, cwd: folder });
    key = (await server.waitForStdout(/ak_test_[A-Za-z0-9_-]{20,}/)).trim();
    await waitForUrl(`${baseUrl}/health`, { process: server });
  });

  after(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    rmSync(folder, { recursive: true, force: true });
  });

  async function get(path: string) {
    const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(res.status, 200, `${path}: ${await res.clone().text()}`);
    return (await res.json()) as Record<string, unknown>;
  }

  async function eventually<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    for (let waited = 0; ; waited += 200) {
      const value = await read();
      if (done(value)) return value;
      assert.ok(waited < 30_000, `${what} did not happen: ${JSON.stringify(value)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it('skips only the lines that need a screen, each found once', () => {
    const { skipped } = runnableTour(tourCommands(), 'ak_test_x', 'http://127.0.0.1:1');
    assert.equal(skipped.length, headlessSkips.length, `skipped: ${skipped.join('\n')}`);
  });

  it('answers every command of the tour with 2xx, and leaves each object in its final state', async () => {
    const { script, curlCalls } = runnableTour(tourCommands(), key, baseUrl);
    const result = await run('bash', ['-c', script], { cwd: folder, env: { PATH: process.env.PATH ?? '', HOME: folder }, maxBuffer: 64 * 1024 * 1024 }).catch(
      (error: { code?: number; stdout?: string; stderr?: string }) => assert.fail(`the tour stopped (exit ${error.code}):\n${error.stderr}\n${String(error.stdout).slice(-2000)}`),
    );
    const answers = [...result.stderr.matchAll(statusLinePattern)].map(([, status, method, url]) => ({ status: Number(status), method, url }));
    assert.equal(answers.length, curlCalls, `every curl of the tour ran once:\n${result.stderr}`);
    assert.deepEqual(
      answers.filter((answer) => answer.status < 200 || answer.status > 299),
      [],
    );

    const batches = (await get('/api/v1/bulk-payments/?limit=10')).data as { id: string; name: string }[];
    const contractShaped = batches.find((batch) => batch.name === 'Primes juillet');
    assert.ok(contractShaped, 'the JSON batch of the tour exists');
    const batch = await eventually(
      'the JSON batch completing',
      () => get(`/api/v1/bulk-payments/${contractShaped.id}/`),
      (b) => b.status === 'completed',
    );
    assert.equal(batch.item_count, 2);
    const lines = (await get(`/api/v1/bulk-payments/${contractShaped.id}/items/`)).data as { operator: string; country: string }[];
    assert.deepEqual(
      lines.map((line) => [line.country, line.operator]).sort(),
      [
        ['BJ', 'mtn_bj'],
        ['TG', 'tmoney_tg'],
      ],
      'operators predicted from the numbers',
    );

    await eventually(
      'the payout completing',
      () => get('/api/v1/payout/mobile-money/PAYOUT-2001/'),
      (payout) => payout.status === 'COMPLETED',
    );
    const payment = await get('/api/v1/collect/payments/ORDER-1001');
    assert.equal(payment.status, 'completed');
    assert.equal(payment.refunded_amount, 1000);
    assert.equal((await get('/api/v1/collect/payments/ORDER-1005-FAIL_INSUFFICIENT_FUNDS')).failure_code, 'insufficient_funds');

    const [balance] = (await get('/api/v1/balances')).balances as Record<string, number>[];
    const total = balance!.available_minor! + balance!.reserved_minor!;
    assert.notEqual(total, SANDBOX_FLOAT_MINOR, 'the tour moved the balance away from the sandbox float');
  });
});
