/**
 * The worker loop's promises: a pass in flight always finishes (nothing claimed is abandoned),
 * stop() starts no new pass, failures are logged and survived, and idle or busy loops never hold
 * the process hostage. Jobs here are driven by promises the test resolves; nothing sleeps.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { createLogger } from '../../src/logging.js';
import { WorkerPool, type WorkerJob } from '../../src/workers/worker-pool.js';
import { watch } from '../support/promises.js';

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback, timer of 0 ms and I/O callback run a few times over. */
async function turns(count = 5): Promise<void> {
  for (let i = 0; i < count; i++) await new Promise((resolve) => setImmediate(resolve));
}

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
      done();
    },
  });
  return { logger: createLogger({ level: 'info', destination: sink }), lines };
}

const anHour = 3_600_000;

describe('WorkerPool', () => {
  it('stop() resolves only after the pass in flight has finished, and starts no pass after it', async () => {
    const { logger } = capturingLogger();
    const events: string[] = [];
    const firstPassStarted = deferred();
    const firstPass = deferred<number>();
    let passes = 0;
    const job: WorkerJob = {
      name: 'controlled',
      idleDelayMs: 0,
      runOnce: async () => {
        passes++;
        if (passes === 1) {
          firstPassStarted.resolve();
          const handled = await firstPass.promise;
          events.push('pass finished');
          return handled;
        }
        events.push(`pass ${passes} started`);
        return 0;
      },
    };
    const pool = new WorkerPool([job], logger);
    pool.start();
    await firstPassStarted.promise;

    const stopped = watch(pool.stop().then(() => events.push('stop resolved')));
    await turns();
    assert.equal(stopped.settled(), false, 'stop() resolved while a pass was still running');

    // The pass found work, so without stop() the loop would go straight into another pass.
    firstPass.resolve(1);
    await stopped.promise;
    await turns();
    assert.deepEqual(events, ['pass finished', 'stop resolved']);
    assert.equal(passes, 1);
  });

  it('runs passes back to back while there is work, and waits the idle delay after an empty pass', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { logger } = capturingLogger();
    let passes = 0;
    const reached = new Map<number, Deferred<void>>([4, 5].map((n) => [n, deferred()]));
    const job: WorkerJob = {
      name: 'batches',
      idleDelayMs: anHour,
      runOnce: async () => {
        passes++;
        reached.get(passes)?.resolve();
        return passes <= 3 ? 10 : 0;
      },
    };
    const pool = new WorkerPool([job], logger);
    pool.start();
    try {
      // Three passes found work, the fourth found none; no clock time has passed.
      await reached.get(4)!.promise;
      await turns();
      assert.equal(passes, 4, 'the loop did not wait after a pass that found nothing');
      t.mock.timers.tick(anHour);
      await reached.get(5)!.promise;
    } finally {
      await pool.stop();
    }
  });

  it('logs a pass that throws, with the job’s name, and carries on with the next pass', async () => {
    const { logger, lines } = capturingLogger();
    const secondPass = deferred();
    let passes = 0;
    const job: WorkerJob = {
      name: 'flaky',
      idleDelayMs: 0,
      runOnce: async () => {
        passes++;
        if (passes === 1) throw new Error('database went away');
        secondPass.resolve();
        return 0;
      },
    };
    const pool = new WorkerPool([job], logger);
    pool.start();
    await secondPass.promise;
    await pool.stop();

    const failures = lines.filter((l) => l.msg === 'worker pass failed');
    assert.equal(failures.length, 1);
    assert.equal(failures[0]!.job, 'flaky');
    assert.equal(failures[0]!.level, 50);
    assert.equal((failures[0]!.err as { message?: string }).message, 'database went away');
  });

  it('stop() wakes an idle job at once instead of waiting out its idle delay', async (t) => {
    // Mocked setTimeout: the hour-long idle delay can only end if stop() cuts it short.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { logger } = capturingLogger();
    const firstPass = deferred();
    let passes = 0;
    const job: WorkerJob = {
      name: 'idle',
      idleDelayMs: anHour,
      runOnce: async () => {
        passes++;
        firstPass.resolve();
        return 0;
      },
    };
    const pool = new WorkerPool([job], logger);
    pool.start();
    await firstPass.promise;
    await turns();

    const stopped = watch(pool.stop());
    await turns();
    assert.equal(stopped.settled(), true, 'stop() is waiting for the idle delay to run out');
    assert.equal(passes, 1);
  });

  it('gives timers, requests and signals a turn between busy passes instead of starving the event loop', async () => {
    // Passes that resolve without real I/O (SQLite queries resolve as promise callbacks) must still
    // let the event loop run, or HTTP requests and SIGTERM wait until the backlog is empty.
    const { logger } = capturingLogger();
    const giveUpAfter = 1000;
    let passes = 0;
    let passesWhenTheEventLoopRan: number | undefined;
    const job: WorkerJob = {
      name: 'busy',
      idleDelayMs: 0,
      // Always finds work, until it gives up so that a starving loop still ends this test.
      runOnce: async () => (++passes < giveUpAfter ? 1 : 0),
    };
    setImmediate(() => (passesWhenTheEventLoopRan = passes));
    const pool = new WorkerPool([job], logger);
    pool.start();
    await turns(2);
    await pool.stop();
    assert.ok(passesWhenTheEventLoopRan !== undefined);
    assert.ok(passesWhenTheEventLoopRan < giveUpAfter, `the event loop got no turn during ${passesWhenTheEventLoopRan} busy passes`);
  });

  it('stops at once when it has no jobs, and a stopped pool starts no pass', async () => {
    const { logger } = capturingLogger();
    await new WorkerPool([], logger).stop();

    let passes = 0;
    const pool = new WorkerPool([{ name: 'never', idleDelayMs: 0, runOnce: async () => ++passes }], logger);
    await pool.stop();
    pool.start();
    await turns();
    await pool.stop();
    assert.equal(passes, 0);
  });
});
