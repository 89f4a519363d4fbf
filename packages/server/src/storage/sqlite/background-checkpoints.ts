import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

/** Log size (pages) at which the writer checkpoints by itself while the thread does the work. */
const WRITER_BACKSTOP_PAGES = 10_000;
/** SQLite's own default, restored when the checkpoint thread is gone. */
const SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES = 1_000;

export interface CheckpointResult {
  /** 1 when the checkpoint could not finish because of another connection. */
  busy: number;
  /** Frames in the write-ahead log. */
  log: number;
  /** Frames of the log now copied into the database file. */
  checkpointed: number;
}

/**
 * Checkpoints on a thread of their own (`checkpoint-thread.mjs`, with its own connection).
 *
 * A checkpoint copies the write-ahead log into the database file and syncs both; done by the writer
 * (SQLite's default, every 1 000 pages) it would stall the event loop for milliseconds at a time.
 * The writer keeps a far larger threshold only as a backstop, should the thread fall behind, and
 * returns to SQLite's default if the thread dies.
 */
export class BackgroundCheckpoints {
  private readonly thread: Worker;
  private stopping = false;
  private readonly exited: Promise<void>;

  constructor(
    file: string,
    private readonly writer: BetterSqlite3.Database,
    intervalMs = 100,
  ) {
    writer.pragma(`wal_autocheckpoint = ${WRITER_BACKSTOP_PAGES}`);
    this.thread = new Worker(new URL('./checkpoint-thread.mjs', import.meta.url), { workerData: { file, intervalMs } });
    // A process with nothing else to do must not stay alive for this thread.
    this.thread.unref();
    this.thread.on('error', () => this.writerTakesOver());
    this.exited = new Promise((resolve) => this.thread.once('exit', () => resolve()));
    void this.exited.then(() => {
      if (!this.stopping) this.writerTakesOver();
    });
  }

  /** Runs one checkpoint at once and reports it (tests use it; the thread runs its own on a timer). */
  checkpointNow(): Promise<CheckpointResult> {
    this.thread.ref();
    return new Promise((resolve, reject) => {
      const onMessage = (result: CheckpointResult) => {
        this.thread.off('error', reject);
        this.thread.unref();
        resolve(result);
      };
      this.thread.once('message', onMessage);
      this.thread.once('error', reject);
      this.thread.postMessage('checkpoint');
    });
  }

  /** Ends the thread after the checkpoint it may be running. */
  async stop(): Promise<void> {
    this.stopping = true;
    // Held by the thread again until it has exited, or the process could end while waiting for it.
    this.thread.ref();
    this.thread.postMessage('stop');
    await this.exited;
  }

  private writerTakesOver(): void {
    if (this.writer.open) this.writer.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_AUTOCHECKPOINT_PAGES}`);
  }
}
