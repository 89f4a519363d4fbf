import type { Logger } from 'pino';
import type { WorkSignals, WorkTopic } from '../core/shared/work-signals.js';
import type { WorkNotifications } from '../storage/postgres/work-notifications.js';

const topics: readonly WorkTopic[] = ['events', 'deliveries', 'payouts', 'bulk'];

/** At most one NOTIFY per topic in this interval: a burst of commits costs one, not one each. */
const MIN_NOTIFY_INTERVAL_MS = 10;

/**
 * Forwards this process's work signals to the other processes on the database, and theirs to
 * this process's workers. A signal after a quiet spell goes out at once (in the next turn of the
 * event loop); under load, signals are gathered and sent at most every MIN_NOTIFY_INTERVAL_MS per
 * topic, since each NOTIFY is a transaction of its own that queues on PostgreSQL's notify lock.
 */
export async function bridgeWorkSignals(signals: WorkSignals, notifications: WorkNotifications, logger?: Logger): Promise<{ close(): Promise<void> }> {
  const listener = await notifications.listen((topic) => {
    if ((topics as readonly string[]).includes(topic)) signals.wakeLocal(topic as WorkTopic);
  });
  const lastSent = new Map<WorkTopic, number>();
  const scheduled = new Map<WorkTopic, NodeJS.Timeout>();
  const send = (topic: WorkTopic) => {
    scheduled.delete(topic);
    lastSent.set(topic, Date.now());
    // A lost notification only delays work until the next poll.
    notifications.publish(topic).catch((error: unknown) => logger?.warn({ err: error }, 'work notification not sent'));
  };
  const stopForwarding = signals.forwardTo((topic) => {
    if (scheduled.has(topic)) return;
    const wait = Math.max(0, (lastSent.get(topic) ?? 0) + MIN_NOTIFY_INTERVAL_MS - Date.now());
    scheduled.set(
      topic,
      setTimeout(() => send(topic), wait),
    );
  });
  return {
    async close() {
      stopForwarding();
      for (const timer of scheduled.values()) clearTimeout(timer);
      scheduled.clear();
      await listener.close();
    },
  };
}
