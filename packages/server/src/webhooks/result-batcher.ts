/**
 * Gathers results that finish close together and writes them in one call (one transaction), so a
 * thousand deliveries a second do not cost a thousand commits. Each caller still learns its own
 * outcome: a batch whose write fails (one transaction: nothing of it was written) is written again
 * one item at a time, so one item the database refuses fails alone, not the others with it. One
 * write runs at a time; results arriving meanwhile form the next batch.
 */
export class ResultBatcher<T, R> {
  private pending: { item: T; resolve: (result: R) => void; reject: (error: unknown) => void }[] = [];
  private writing: Promise<void> | undefined;
  private scheduled = false;

  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly maxBatch = 200,
  ) {}

  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  /** Resolves once everything added so far is written. */
  async flushed(): Promise<void> {
    while (this.pending.length > 0 || this.writing) await (this.writing ?? new Promise<void>((resolve) => setImmediate(resolve)));
  }

  private schedule(): void {
    if (this.scheduled || this.writing) return;
    this.scheduled = true;
    // Results of sends that finish in the same turn of the event loop share a batch.
    setImmediate(() => {
      this.scheduled = false;
      void this.writeNext();
    });
  }

  private async writeNext(): Promise<void> {
    if (this.writing || this.pending.length === 0) return;
    const batch = this.pending.splice(0, this.maxBatch);
    this.writing = (async () => {
      try {
        const results = await this.write(batch.map((entry) => entry.item));
        batch.forEach((entry, i) => entry.resolve(results[i]!));
      } catch (error) {
        if (batch.length === 1) {
          batch[0]!.reject(error);
          return;
        }
        for (const entry of batch) {
          try {
            entry.resolve((await this.write([entry.item]))[0]!);
          } catch (alone) {
            entry.reject(alone);
          }
        }
      }
    })();
    await this.writing;
    this.writing = undefined;
    if (this.pending.length > 0) this.schedule();
  }
}
