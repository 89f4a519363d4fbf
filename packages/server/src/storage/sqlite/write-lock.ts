/**
 * A first-come, first-served asynchronous lock: one holder at a time, the others wait in order.
 * Release hands the lock straight to the next waiter, so a newcomer can never overtake the queue.
 */
export class WriteLock {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  get isHeld(): boolean {
    return this.held;
  }

  /** Resolves once the caller holds the lock; resolved already when it was free. */
  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    if (!this.held) throw new Error('WriteLock released while not held');
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}
