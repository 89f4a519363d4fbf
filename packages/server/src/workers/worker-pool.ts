import type { Logger } from 'pino';
import type { WorkSignals, WorkTopic } from '../core/shared/work-signals.js';

/** One kind of background work: claims due rows, handles them, and says how many it handled. */
export interface WorkerJob {
  name: string;
  /** Pause after a pass that found nothing to do (the fallback when no signal comes). */
  idleDelayMs: number;
  /** Signals that end the pause at once: work of these kinds was committed. */
  wakeOn?: readonly WorkTopic[];
  runOnce(): Promise<number>;
  /** Finishes work a pass started but did not wait for (e.g. webhook sends in flight), cutting what outlasts `graceMs`. */
  stop?(graceMs?: number): Promise<void>;
}

/** A job's loop: woken by a signal during a pass, it runs again instead of pausing. */
interface LoopState {
  signalled: boolean;
  wake?: () => void;
}

/**
 * Runs each job in its own loop: straight again while there is work, and when idle, after
 * `idleDelayMs` or as soon as one of its `wakeOn` signals fires. `stop()` lets the pass in flight
 * finish (nothing claimed is abandoned) and starts no new one.
 */
export class WorkerPool {
  private stopping = false;
  private readonly loops: Promise<void>[] = [];
  private readonly wakeUps = new Set<() => void>();
  private readonly unsubscribes: (() => void)[] = [];

  constructor(
    private readonly jobs: WorkerJob[],
    private readonly logger: Logger,
    private readonly signals?: WorkSignals,
  ) {}

  get jobNames(): string[] {
    return this.jobs.map((job) => job.name);
  }

  start(): void {
    for (const job of this.jobs) {
      const state: LoopState = { signalled: false };
      for (const topic of job.wakeOn ?? []) {
        const unsubscribe = this.signals?.subscribe(topic, () => {
          state.signalled = true;
          state.wake?.();
        });
        if (unsubscribe) this.unsubscribes.push(unsubscribe);
      }
      this.loops.push(this.loop(job, state));
    }
  }

  /** `graceMs`: how long a job may wait for its peers (webhook receivers) before cutting them off. */
  async stop(graceMs?: number): Promise<void> {
    this.stopping = true;
    for (const unsubscribe of this.unsubscribes.splice(0)) unsubscribe();
    for (const wake of this.wakeUps) wake();
    await Promise.all(this.loops);
    await Promise.all(this.jobs.map((job) => job.stop?.(graceMs)));
  }

  private async loop(job: WorkerJob, state: LoopState): Promise<void> {
    while (!this.stopping) {
      // A signal from now on means work this pass may not see: it earns another pass.
      state.signalled = false;
      let handled = 0;
      try {
        handled = await job.runOnce();
      } catch (error) {
        this.logger.error({ err: error, job: job.name }, 'worker pass failed');
      }
      if (this.stopping) break;
      if (handled === 0 && !state.signalled) await this.sleep(job.idleDelayMs, state);
      // A busy pass may involve no real I/O (SQLite queries resolve as promise callbacks), so the
      // loop would otherwise run from the microtask queue alone and starve requests, timers and
      // signals until the backlog is empty. Give the event loop a turn before the next pass.
      else await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  private sleep(ms: number, state: LoopState): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakeUps.delete(wake);
        state.wake = undefined;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakeUps.add(wake);
      state.wake = wake;
    });
  }
}
