/**
 * Starting and stopping the server as deployments do: SIGTERM drains requests in flight, then
 * exits 0; nothing a client was already promised is cut off. In-process through startServer
 * (the real shutdown), and as a child process through `akwe serve`.
 */
import assert from 'node:assert/strict';
import BetterSqlite3 from 'better-sqlite3';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { processLifetime } from '../../src/cli/process-lifetime.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { freePort, startAkwe, waitForUrl, type AkweProcess } from '../support/child-process.js';
import { watch } from '../support/promises.js';

const testKeyPattern = /ak_test_[A-Za-z0-9_-]{43}/;

/** Collects JSON log lines and lets a test wait for one. */
class LogSink extends Writable {
  readonly lines: Record<string, unknown>[] = [];
  private readonly waiters = new Set<() => void>();

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    for (const line of String(chunk).split('\n').filter(Boolean)) this.lines.push(JSON.parse(line) as Record<string, unknown>);
    for (const waiter of this.waiters) waiter();
    done();
  }

  messages(): string[] {
    return this.lines.map((l) => String(l.msg));
  }

  waitFor(predicate: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      const check = () => {
        const found = this.lines.find(predicate);
        if (found) {
          this.waiters.delete(check);
          resolve(found);
        }
      };
      this.waiters.add(check);
      check();
    });
  }
}

/** What a brand-new connection gets: a status code, or the connection error's code. */
function tryNewConnection(url: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request(`${url}/health`, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    req.end();
  });
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('a start that fails after the database is open', () => {
  it('closes the database before passing the error on, so the process can exit', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'akwe-failed-start-'));
    try {
      const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', AKWE_DEV: 'true', AKWE_DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'akwe.db')}` });
      const failingTerminal = () => {
        throw new Error('terminal gone');
      };
      await assert.rejects(startServer(config, { logger: createLogger({ level: 'silent' }), announce: failingTerminal }), /terminal gone/);
      // SQLite removes the write-ahead log and its index when the last connection closes.
      assert.deepEqual(
        readdirSync(dir).filter((name) => name.startsWith('akwe.db')),
        ['akwe.db'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a server whose SQLite disk fails', () => {
  it('answers 500, logs one fatal line, drains, closes the database and exits 1', { timeout: 30_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'akwe-failing-disk-'));
    const logs = new LogSink();
    const logger = createLogger({ level: 'info', destination: logs });
    let diskFails = false;
    let announced = '';
    const running = await startServer(
      // No workers: the request below must be the first write to meet the failing disk.
      loadConfig({ PORT: '0', HOST: '127.0.0.1', AKWE_DEV: 'true', AKWE_RUN_WORKERS: 'false', AKWE_DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'akwe.db')}` }),
      {
        logger,
        announce: (text) => (announced += text),
        sqliteSyncToDisk: async () => {
          if (diskFails) throw Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' });
        },
      },
    );
    try {
      const exits: number[] = [];
      const exited = new Promise<number>((resolve) => {
        const lifetime = processLifetime({ shutdown: running.shutdown, timeoutMs: 20_000, logger, exit: (code) => resolve(exits.push(code) && code) });
        lifetime.stopWhenDatabaseFails(running.services.database);
      });
      const key = announced.match(testKeyPattern)?.[0];
      assert.ok(key);

      diskFails = true;
      const res = await fetch(`${running.url}/api/v1/collect/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'failing-disk' },
        body: JSON.stringify({ reference: 'DISK-1', amount: 3000, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '0197000000' } }),
      });
      assert.equal(res.status, 500);
      const body = (await res.json()) as { error: { code: string; message: string } };
      assert.equal(body.error.code, 'internal_error');
      assert.doesNotMatch(body.error.message, /EIO|sync/, 'no internals in the answer');

      assert.equal(await exited, 1);
      assert.deepEqual(exits, [1], 'one exit');
      const fatal = logs.lines.filter((line) => line.level === 60);
      assert.equal(fatal.length, 1);
      assert.match(String(fatal[0]!.msg), /can no longer be written safely/);
      assert.equal(await tryNewConnection(running.url), 'ECONNREFUSED', 'still accepting connections after the failure');
      assert.ok(logs.messages().includes('shut down cleanly'));
    } finally {
      await running.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('shutdown of the in-process server on SQLite', () => {
  let dir: string;
  let running: RunningServer;
  let announced = '';
  const logs = new LogSink();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'akwe-shutdown-'));
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      AKWE_DEV: 'true',
      AKWE_DATA_DIR: dir,
      DATABASE_URL: `sqlite:${join(dir, 'akwe.db')}`,
      LOG_LEVEL: 'info',
    });
    running = await startServer(config, { logger: createLogger({ level: 'info', destination: logs }), announce: (text) => (announced += text) });
  });
  after(async () => {
    await running?.shutdown();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers /ready with 200 on a migrated database', async () => {
    const res = await fetch(`${running.url}/ready`);
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { status: 'ready' });
  });

  it('lets a request in flight finish with 200, refuses new connections, and closes the database only after', async () => {
    const key = announced.match(testKeyPattern)?.[0];
    const merchantId = announced.match(/demo merchant ([0-9a-f-]+)\./)?.[1];
    assert.ok(key && merchantId, 'the first start announces the demo merchant and its test key');

    // A transaction holds the server's SQLite write lock (as during a worker's write), so the
    // payment creation below waits inside the app, on its first write, when shutdown begins.
    let entered!: () => void;
    let release!: () => void;
    const inTransaction = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const busy = running.services.database.db.transaction().execute(async () => {
      entered();
      await gate;
    });
    await inTransaction;

    const inFlight = watch(
      fetch(`${running.url}/api/v1/collect/payments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'shutdown-in-flight' },
        body: JSON.stringify({ reference: 'SHUTDOWN-1', amount: 3000, currency: 'XOF', country: 'BJ', mode: 'direct', operator: 'mtn_bj', customer: { phone: '0197000000' } }),
      }),
    );
    const arrived = await logs.waitFor((l) => l.msg === 'incoming request' && (l.req as { url?: string } | undefined)?.url === '/api/v1/collect/payments');

    const shutdown = watch(running.shutdown());
    while (running.app.server.listening) await nextTurn();
    const newcomer = await tryNewConnection(running.url);
    assert.ok(newcomer === 'ECONNREFUSED' || newcomer === 'ECONNRESET' || newcomer === 503, `a new connection during shutdown got ${newcomer}`);
    assert.equal(inFlight.settled(), false, 'the request in flight was answered before its database work could run');
    assert.equal(shutdown.settled(), false, 'shutdown finished while a request was still in flight');

    release();
    await busy;
    const res = await inFlight.promise;
    assert.equal(res.status, 201);
    const created = (await res.json()) as { reference?: string; status?: string };
    assert.deepEqual([created.reference, created.status], ['SHUTDOWN-1', 'completed']);
    // The client is told to drop its keep-alive connection, so it cannot hold the shutdown open.
    assert.equal(res.headers.get('connection'), 'close');

    await shutdown.promise;
    const messages = logs.messages();
    const completed = logs.lines.findIndex((l) => l.msg === 'request completed' && l.request_id === arrived.request_id);
    assert.ok(completed >= 0, 'the request in flight was logged as completed');
    assert.ok(completed < messages.indexOf('shut down cleanly'), 'shutdown reported clean before the request in flight completed');
    await assert.rejects(running.services.database.ping(), 'the database is still open after shutdown');
    // What the client was told is on disk: the payment and its completed idempotency record.
    const file = new BetterSqlite3(join(dir, 'akwe.db'), { readonly: true });
    try {
      assert.deepEqual(file.prepare(`select status from payments where reference = 'SHUTDOWN-1'`).all(), [{ status: 'completed' }]);
      assert.deepEqual(file.prepare(`select state from idempotency_records where idempotency_key = 'shutdown-in-flight'`).all(), [{ state: 'completed' }]);
    } finally {
      file.close();
    }
    // Safe to call again (a second signal, or the test's after hook).
    await running.shutdown();
  });
});

describe('akwe serve as a child process', () => {
  let dataDir: string;
  const env = (port: number) => ({ PORT: String(port), HOST: '127.0.0.1', AKWE_DEV: 'true', AKWE_DATA_DIR: dataDir, LOG_LEVEL: 'info' });
  const started: AkweProcess[] = [];

  async function serve(): Promise<{ server: AkweProcess; url: string }> {
    const port = await freePort();
    const server = startAkwe(['serve'], { env: env(port), cwd: dataDir });
    started.push(server);
    const url = `http://127.0.0.1:${port}`;
    await waitForUrl(`${url}/health`, { process: server });
    return { server, url };
  }

  async function stopWithSigterm(server: AkweProcess) {
    server.child.kill('SIGTERM');
    const result = await server.exited;
    const messages = result.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => String((JSON.parse(line) as { msg?: unknown }).msg));
    return { ...result, messages };
  }

  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'akwe-serve-'));
  });
  after(() => {
    for (const server of started) if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('first start prints a working test key, answers /ready, and on SIGTERM exits 0 after logging "shut down cleanly"', async () => {
    const { server, url } = await serve();
    const key = (await server.waitForStdout(testKeyPattern)).trim();
    assert.equal((await fetch(`${url}/ready`)).status, 200);
    const account = await fetch(`${url}/api/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(account.status, 200, 'the printed test key does not authenticate');

    const result = await stopWithSigterm(server);
    assert.equal(result.signal, null, 'the process was killed by the signal instead of shutting down');
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.messages.includes('SIGTERM received'), result.stdout);
    assert.ok(result.messages.includes('shut down cleanly'), result.stdout);
  });

  it('a second start prints how to list merchants instead of a key, and also exits 0 on SIGTERM', async () => {
    const { server } = await serve();
    await server.waitForStdout(/akwe merchants list/);
    assert.doesNotMatch(server.stdout(), /ak_test_/);

    const result = await stopWithSigterm(server);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(result.messages.includes('shut down cleanly'), result.stdout);
  });
});
