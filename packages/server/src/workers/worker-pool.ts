import type { Logger } from 'pino';

/** One kind of background work: claims due rows, handles them, and says how many it handled. */
export interface WorkerJob {
  name: string;
  /** Pause after a pass that found nothing to do. */
  idleDelayMs: number;
  runOnce(): Promise<number>;
  /** Finishes work a pass started but did not wait for (e.g. webhook sends in flight). */
  stop?(): Promise<void>;
}

/**
 * Runs each job in its own loop: straight again while there is work, after `idleDelayMs` when idle.
 * `stop()` lets the pass in flight finish (nothing claimed is abandoned) and starts no new one.
 */
export class WorkerPool {
  private stopping = false;
  private readonly loops: Promise<void>[] = [];
  private readonly wakeUps = new Set<() => void>();

  constructor(
    private readonly jobs: WorkerJob[],
    private readonly logger: Logger,
  ) {}

  get jobNames(): string[] {
    return this.jobs.map((job) => job.name);
  }

  start(): void {
    for (const job of this.jobs) this.loops.push(this.loop(job));
  }

  async stop(): Promise<void> {
    this.stopping = true;
    for (const wake of this.wakeUps) wake();
    await Promise.all(this.loops);
    await Promise.all(this.jobs.map((job) => job.stop?.()));
  }

  private async loop(job: WorkerJob): Promise<void> {
    while (!this.stopping) {
      let handled = 0;
      try {
        handled = await job.runOnce();
      } catch (error) {
        this.logger.error({ err: error, job: job.name }, 'worker pass failed');
      }
      if (this.stopping) break;
      if (handled === 0) await this.sleep(job.idleDelayMs);
      // A busy pass may involve no real I/O (SQLite queries resolve as promise callbacks), so the
      // loop would otherwise run from the microtask queue alone and starve requests, timers and
      // signals until the backlog is empty. Give the event loop a turn before the next pass.
      else await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakeUps.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakeUps.add(wake);
    });
  }
}
