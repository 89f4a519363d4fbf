import type { Logger } from 'pino';
import type { WorkSignals, WorkTopic } from '../core/shared/work-signals.js';
import type { WorkNotifications } from '../storage/postgres/work-notifications.js';

const topics: readonly WorkTopic[] = ['events', 'deliveries'];

/**
 * Forwards this process's work signals to the other processes on the database, and theirs to
 * this process's workers. Signals raised in one turn of the event loop go out as one
 * notification per topic, so a burst of commits costs one NOTIFY, not one each.
 */
export async function bridgeWorkSignals(signals: WorkSignals, notifications: WorkNotifications, logger?: Logger): Promise<{ close(): Promise<void> }> {
  const listener = await notifications.listen((topic) => {
    if ((topics as readonly string[]).includes(topic)) signals.wakeLocal(topic as WorkTopic);
  });
  const due = new Set<WorkTopic>();
  let scheduled = false;
  const stopForwarding = signals.forwardTo((topic) => {
    due.add(topic);
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      const batch = [...due];
      due.clear();
      for (const next of batch) {
        // A lost notification only delays work until the next poll.
        notifications.publish(next).catch((error: unknown) => logger?.warn({ err: error }, 'work notification not sent'));
      }
    });
  });
  return {
    async close() {
      stopForwarding();
      await listener.close();
    },
  };
}
