/**
 * Kinds of work a commit can make due at once. `fanout` is the one signal sent before a commit
 * (SQLite only, `signalsBeforeCommit`): new events for the fan-out, whose transaction queues
 * behind the one that wrote them; `events` follows the commit, for readers outside a transaction
 * (event streams) as well.
 */
export type WorkTopic = 'events' | 'fanout' | 'deliveries' | 'payouts' | 'bulk';

/**
 * Wakes the workers when work commits, so they need not poll for it (docs/webhooks.md
 * "Throughput"). In one process the signal is a function call; a bridge (PostgreSQL
 * LISTEN/NOTIFY) forwards it to the other processes sharing the database. Polling stays as the
 * fallback for work that becomes due later (retries) and for a lost notification.
 */
export class WorkSignals {
  private readonly listeners = new Map<WorkTopic, Set<() => void>>();
  private readonly forwarders = new Set<(topic: WorkTopic) => void>();

  /** Work of this kind committed in this process: wake the local workers and tell the others. */
  notify(topic: WorkTopic): void {
    this.wakeLocal(topic);
    for (const forward of this.forwarders) forward(topic);
  }

  /** Wake this process's workers only (a notification from another process, a freed send slot). */
  wakeLocal(topic: WorkTopic): void {
    for (const listener of this.listeners.get(topic) ?? []) listener();
  }

  subscribe(topic: WorkTopic, listener: () => void): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Where notifications for other processes go (the PostgreSQL bridge). */
  forwardTo(forward: (topic: WorkTopic) => void): () => void {
    this.forwarders.add(forward);
    return () => this.forwarders.delete(forward);
  }
}
