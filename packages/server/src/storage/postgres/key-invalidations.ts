import type { KeyInvalidation } from '../../core/merchants/api-key-cache.js';
import type { KeyInvalidations } from '../../core/ports.js';
import type { WorkNotifications } from './work-notifications.js';

/** Key notices share the workers' channel under their own topics: `api-keys:key:<id>`, `api-keys:merchant:<id>`. */
const TOPIC_PREFIX = 'api-keys:';

function topicOf(invalidation: KeyInvalidation): string {
  return `${TOPIC_PREFIX}${invalidation.kind}:${invalidation.id}`;
}

function invalidationOf(topic: string): KeyInvalidation | undefined {
  if (!topic.startsWith(TOPIC_PREFIX)) return undefined;
  const [kind, id] = topic.slice(TOPIC_PREFIX.length).split(':', 2);
  if ((kind === 'key' || kind === 'merchant') && id) return { kind, id };
  return undefined;
}

/** Announces revocations and merchant changes to every process on the database (server, worker, CLI alike). */
export function keyInvalidationsOver(notifications: WorkNotifications): KeyInvalidations {
  return { publish: (invalidation) => notifications.publish(topicOf(invalidation)) };
}

/**
 * Hands other processes' notices to this process's key cache. While the listening connection is
 * down notices can be lost, so the whole cache is forgotten when it drops and again when it is back.
 */
export function listenForKeyInvalidations(
  notifications: WorkNotifications,
  cache: { forgetCached(invalidation: KeyInvalidation): void; forgetAllCached(): void },
): Promise<{ close(): Promise<void> }> {
  return notifications.listen(
    (topic) => {
      const invalidation = invalidationOf(topic);
      if (invalidation) cache.forgetCached(invalidation);
    },
    () => cache.forgetAllCached(),
  );
}
