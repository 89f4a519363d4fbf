/**
 * Which routes are low on float, for routing new payouts (synchronous: a payout's route is chosen
 * in its synchronous preparation). Kept in memory and refreshed from the database in the background
 * when older than `maxAgeMs`, so a process that reads no float itself (a server beside separate
 * workers) follows the workers' readings within a few seconds; a process that reads one learns it at once.
 */
export class LowFloats {
  private low: ReadonlySet<string> = new Set();
  private loadedAtMs = Number.NEGATIVE_INFINITY;
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly load: () => Promise<string[]>,
    private readonly nowMs: () => number,
    private readonly maxAgeMs = 5_000,
  ) {}

  /** Whether the route's last reading was under its threshold (as last known here). */
  isLow(routeLabel: string): boolean {
    if (this.nowMs() - this.loadedAtMs > this.maxAgeMs) void this.refresh();
    return this.low.has(routeLabel);
  }

  /** Reads the low routes from the database now (one read at a time; a failed read keeps the last known). */
  refresh(): Promise<void> {
    this.refreshing ??= this.load()
      .then((labels) => {
        this.low = new Set(labels);
        this.loadedAtMs = this.nowMs();
      })
      .catch(() => {
        // Kept as last known; the next look tries again.
        this.loadedAtMs = this.nowMs();
      })
      .finally(() => {
        this.refreshing = undefined;
      });
    return this.refreshing;
  }

  /** A reading made in this process: known at once, without waiting for the next refresh. */
  note(routeLabel: string, low: boolean): void {
    const next = new Set(this.low);
    if (low) next.add(routeLabel);
    else next.delete(routeLabel);
    this.low = next;
  }
}
