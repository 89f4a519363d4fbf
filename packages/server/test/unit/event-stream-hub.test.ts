import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventStreamHub, idFloorAt, MAX_QUEUED_EVENTS } from '../../src/core/events/event-stream-hub.js';
import type { StoredEvent } from '../../src/core/events/stored-event.js';
import { newId } from '../../src/core/shared/ids.js';
import { WorkSignals } from '../../src/core/shared/work-signals.js';

const scope = { merchantId: 'm1', environment: 'test' as const };

function event(id: string): StoredEvent {
  return {
    id,
    merchantId: scope.merchantId,
    environment: scope.environment,
    type: 'collect.payment.created',
    createdAt: new Date().toISOString(),
    subject: {} as StoredEvent['subject'],
  };
}

/** A reader over a fixed list of events, sorted by id as the events table is. */
function readerOf(events: StoredEvent[]) {
  const sorted = [...events].sort((a, b) => (a.id < b.id ? -1 : 1));
  return {
    eventsAfter: async (_: unknown, afterId: string, limit: number) => sorted.filter((e) => e.id > afterId).slice(0, limit),
    eventIdsAfter: async (_: unknown, afterId: string, limit: number) =>
      sorted
        .filter((e) => e.id > afterId)
        .slice(0, limit)
        .map((e) => e.id),
    eventsWithIds: async (_: unknown, ids: string[]) => sorted.filter((e) => ids.includes(e.id)),
  };
}

describe('EventStreamHub', () => {
  it('never lets a new reader’s look-back over a busy moment overflow a stream that starts after it', async () => {
    // More events than a stream may have waiting, all committed in the second before the stream starts.
    const before = Array.from({ length: MAX_QUEUED_EVENTS + 500 }, () => event(newId()));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const start = idFloorAt(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 5));
    const fresh = event(newId());
    const hub = new EventStreamHub({ reader: readerOf([...before, fresh]), signals: new WorkSignals(), pollMs: 10_000 });
    const subscription = hub.subscribe(scope, start);
    try {
      const stop = new AbortController();
      const batches = await subscription.next(5_000, stop.signal);
      assert.equal(subscription.overflowed, false, 'the stream is not let go');
      assert.deepEqual(
        batches.flatMap((batch) => batch.events.map((e) => e.id)),
        [fresh.id],
      );
    } finally {
      subscription.close();
      hub.close();
    }
  });

  it('finds a late commit within a second when no other commit and no poll comes to wake the reader', async () => {
    const events: StoredEvent[] = [];
    const reader = {
      eventsAfter: async (scope: unknown, afterId: string, limit: number) => readerOf(events).eventsAfter(scope, afterId, limit),
      eventIdsAfter: async (scope: unknown, afterId: string, limit: number) => readerOf(events).eventIdsAfter(scope, afterId, limit),
      eventsWithIds: async (scope: unknown, ids: string[]) => readerOf(events).eventsWithIds(scope, ids),
    };
    const signals = new WorkSignals();
    const hub = new EventStreamHub({ reader, signals, pollMs: 3_600_000 });
    const subscription = hub.subscribe(scope, idFloorAt(Date.now() - 1));
    const stop = new AbortController();
    try {
      // The first read (with its lookback) has run; the next read within the second skips the lookback.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const lateId = newId();
      await new Promise((resolve) => setTimeout(resolve, 5));
      const later = event(newId());
      events.push(later);
      signals.notify('events');
      assert.deepEqual(
        (await subscription.next(5_000, stop.signal)).flatMap((batch) => batch.events.map((e) => e.id)),
        [later.id],
      );
      // Its transaction commits only now, with no signal: only the lookback the reader owes finds it.
      events.push(event(lateId));
      assert.deepEqual(
        (await subscription.next(5_000, stop.signal)).flatMap((batch) => batch.events.map((e) => e.id)),
        [lateId],
      );
    } finally {
      stop.abort();
      subscription.close();
      hub.close();
    }
  });
});
