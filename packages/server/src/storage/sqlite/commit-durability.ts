/**
 * Which SQLite commits are on disk, and a way to wait until one is.
 *
 * The writer runs with synchronous = NORMAL: COMMIT writes the WAL without waiting for the disk.
 * Durability comes from here instead: one fdatasync of the WAL file, off the event loop, covers
 * every commit made before it started, so one sync serves all the commits of a busy moment (group
 * commit). Commits are numbered in order; `waitFor(n)` resolves once commit n is on disk.
 *
 * A failed sync is fatal for the database: after an fsync error the kernel may have dropped the
 * dirty pages, so nothing written since can be trusted to be on disk. Every waiter, and every
 * later one, is rejected with that error (fail-stop; a restart recovers from what is on disk).
 */
export class CommitDurability {
  private committed = 0;
  private durable = 0;
  private syncInFlight = false;
  private failure: Error | undefined;
  private waiters: Array<{ commit: number; resolve: () => void; reject: (error: unknown) => void }> = [];
  private readonly afterSync: Array<() => void> = [];
  private readonly failureListeners: Array<(error: Error) => void> = [];
  /** fdatasync calls made, for tests and the benchmark. */
  syncs = 0;

  /** @param syncToDisk makes every commit written so far durable (fdatasync of the WAL). */
  constructor(private readonly syncToDisk: () => Promise<void>) {}

  /** Numbers a commit that has just returned; its data is written but not yet durable. */
  recordCommit(): number {
    this.committed += 1;
    return this.committed;
  }

  /** The number of the latest commit: a read made now sees it and everything before. */
  get latestCommit(): number {
    return this.committed;
  }

  /** A sync is running: a commit made now would wait for it and then for one more. */
  get syncing(): boolean {
    return this.syncInFlight;
  }

  /** Calls `callback` once the running sync has ended (at once when none runs). */
  whenSyncEnds(callback: () => void): void {
    if (this.syncInFlight) this.afterSync.push(callback);
    else callback();
  }

  /**
   * Calls `listener` once when a sync fails (at once if one has failed already), so the process
   * can stop instead of running on with a database that refuses everything.
   */
  onFailure(listener: (error: Error) => void): void {
    if (this.failure !== undefined) listener(this.failure);
    else this.failureListeners.push(listener);
  }

  isDurable(commit: number): boolean {
    return this.failure === undefined && commit <= this.durable;
  }

  waitFor(commit: number): Promise<void> {
    if (this.failure !== undefined) return Promise.reject(this.failure);
    if (commit <= this.durable) return Promise.resolve();
    if (commit > this.committed) return Promise.reject(new RangeError(`commit ${commit} has not happened (latest is ${this.committed})`));
    return new Promise((resolve, reject) => {
      this.waiters.push({ commit, resolve, reject });
      this.startSync();
    });
  }

  private startSync(): void {
    if (this.syncInFlight || this.waiters.length === 0 || this.failure !== undefined) return;
    this.syncInFlight = true;
    // Everything committed before the sync starts is covered by it.
    const covered = this.committed;
    this.syncs += 1;
    this.syncToDisk().then(
      () => {
        this.syncInFlight = false;
        this.durable = Math.max(this.durable, covered);
        this.settle(
          (waiter) => waiter.commit <= covered,
          (waiter) => waiter.resolve(),
        );
        this.runAfterSync();
        // Commits made while this sync ran need the next one.
        this.startSync();
      },
      (error: unknown) => {
        this.syncInFlight = false;
        this.failure = new Error('the SQLite write-ahead log could not be synced to disk', { cause: error });
        this.settle(
          () => true,
          (waiter) => waiter.reject(this.failure),
        );
        this.runAfterSync();
        for (const listener of this.failureListeners.splice(0)) listener(this.failure);
      },
    );
  }

  private runAfterSync(): void {
    for (const callback of this.afterSync.splice(0)) callback();
  }

  /** Finishes the waiters that match, in order, keeping the others: one pass over the list, not a removal per waiter. */
  private settle(matches: (waiter: (typeof this.waiters)[number]) => boolean, finish: (waiter: (typeof this.waiters)[number]) => void): void {
    const settled: typeof this.waiters = [];
    const kept: typeof this.waiters = [];
    for (const waiter of this.waiters) (matches(waiter) ? settled : kept).push(waiter);
    this.waiters = kept;
    for (const waiter of settled) finish(waiter);
  }
}
