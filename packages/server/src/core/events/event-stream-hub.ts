/**
 * One reader of new events per merchant and environment with open event streams, fanning what it
 * reads out to all of them (GET /events/stream, docs/cli.md "The event stream"). A commit's
 * `events` work signal wakes the reader, which reads once for every stream of the scope; the
 * streams themselves never query while live, so an open stream costs a timer and a queue.
 *
 * Ids are UUIDv7 minted before their transaction commits, so an event can commit after a later id
 * was already read. Each wake reads past the highest id seen (one query); at most every
 * LOOKBACK_CHECK_MS, the ids of the last LOOKBACK_MS are listed (the index alone) and the few not
 * seen yet, late commits, are read and sent then; a read that came too soon for it makes the reader
 * read again when it is due, so a late commit never waits for the next commit or the poll.
 */
import type { TenantScope } from '../shared/environment.js';
import type { WorkSignals } from '../shared/work-signals.js';
import type { StoredEvent } from './stored-event.js';

/** How far back the reader looks for events that committed late (see the header comment). */
export const STREAM_LOOKBACK_MS = 5_000;
/** How often, at most, the lookback runs: a late commit reaches the streams within about this much of its commit. */
export const LOOKBACK_CHECK_MS = 1_000;
/**
 * Reads of a scope start at least this far apart: each read is a query, and wakes every stream of
 * the scope (a socket write each), so under load a read carries many events instead of one, and a
 * scope whose streams get nothing costs a query per 25 ms at most, not one per commit.
 */
export const STREAM_COALESCE_MS = 25;
/** Events waiting for one stream's client; past it the stream ends and its client resumes with Last-Event-ID. */
export const MAX_QUEUED_EVENTS = 10_000;
const PAGE = 100;
const ID_PAGE = 1_000;
const ID_BATCH = 200;

/** The smallest UUIDv7-shaped id of a millisecond: every id minted at or after it sorts after it. */
export function idFloorAt(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

/**
 * Resolves when `setWake`'s function is called, `ms` pass or `stop` aborts: one timer and one
 * listener, removed at once (each stream waits like this after every wake).
 */
function wakeOrTimeout(ms: number, stop: AbortSignal, setWake: (wake: () => void) => void): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      stop.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    stop.addEventListener('abort', done, { once: true });
    setWake(done);
  });
}

/** The reads the hub needs (the webhook service). */
export interface StreamEventReader {
  /** Up to `limit` events with an id greater than `afterId`, oldest first. */
  eventsAfter(scope: TenantScope, afterId: string, limit: number): Promise<StoredEvent[]>;
  /** The ids only, from the (merchant, environment, id) index. */
  eventIdsAfter(scope: TenantScope, afterId: string, limit: number): Promise<string[]>;
  eventsWithIds(scope: TenantScope, ids: string[]): Promise<StoredEvent[]>;
}

/** What one read sent: every event has an id above `floor`. */
export interface StreamBatch {
  floor: string;
  events: StoredEvent[];
}

/** One stream's place at its scope's reader: what the reader sent and the stream has not taken yet. */
export class StreamSubscription {
  private batches: StreamBatch[] = [];
  private queued = 0;
  private wake: (() => void) | undefined;
  /** More than MAX_QUEUED_EVENTS waited: the queue was dropped and the stream must end. */
  overflowed = false;

  constructor(
    /** No batch this subscription gets holds an id at or below this one. */
    readonly since: string,
    private readonly leave: (subscription: StreamSubscription) => void,
    /** The stream starts after this id: older events are not queued (a new reader's first read looks back over them). */
    private readonly after?: string,
  ) {}

  push(batch: StreamBatch): void {
    if (this.overflowed) return;
    const after = this.after;
    const events = after === undefined ? batch.events : batch.events.filter((event) => event.id > after);
    if (events.length === 0) return;
    this.queued += events.length;
    if (this.queued > MAX_QUEUED_EVENTS) {
      this.overflowed = true;
      this.batches = [];
    } else {
      this.batches.push(events.length === batch.events.length ? batch : { floor: batch.floor, events });
    }
    this.wake?.();
  }

  /** The batches sent since the last call, waiting up to `ms` for one (empty when none came or `stop` aborted). */
  async next(ms: number, stop: AbortSignal): Promise<StreamBatch[]> {
    if (this.batches.length === 0 && !this.overflowed && !stop.aborted) {
      await wakeOrTimeout(ms, stop, (wake) => (this.wake = wake));
      this.wake = undefined;
    }
    const taken = this.batches;
    this.batches = [];
    this.queued = 0;
    return taken;
  }

  close(): void {
    this.leave(this);
  }
}

interface ReaderDeps {
  reader: StreamEventReader;
  signals: WorkSignals;
  pollMs: number;
  onReadError?: (error: unknown) => void;
}

/** The reader of one merchant and environment: runs while it has subscriptions. */
class ScopeReader {
  readonly subscriptions = new Set<StreamSubscription>();
  /** Ids already sent whose id is above the lookback floor of the last read. */
  private readonly sent = new Set<string>();
  private highWater: string;
  private lastLookback = 0;
  /** A read skipped the lookback (too soon after the last): one more read must run when it is due. */
  private lookbackOwed = false;
  /** The floor of the read under way, if any: a subscription joining now may get its batch. */
  private readingFloor: string | undefined;
  private readonly stopping = new AbortController();

  constructor(
    private readonly deps: ReaderDeps,
    private readonly scope: TenantScope,
  ) {
    this.highWater = idFloorAt(Date.now() - STREAM_LOOKBACK_MS);
  }

  /** The lowest id a subscription made now can be sent. */
  since(): string {
    return this.readingFloor ?? idFloorAt(Date.now() - STREAM_LOOKBACK_MS);
  }

  stop(): void {
    this.stopping.abort();
  }

  async run(): Promise<void> {
    const stop = this.stopping.signal;
    let signalled = false;
    let wake: (() => void) | undefined;
    const unsubscribe = this.deps.signals.subscribe('events', () => {
      signalled = true;
      wake?.();
    });
    try {
      while (!stop.aborted) {
        signalled = false;
        const readStartedAt = Date.now();
        try {
          await this.readOnce();
        } catch (error) {
          // The streams wait for the next wake or poll; a read that fails again is reported again.
          this.deps.onReadError?.(error);
        }
        // Without a signal during the read, the reader waits for one or the poll (a commit is never
        // slept through). A lookback owed (a read came too soon after the last one) is due within
        // LOOKBACK_CHECK_MS, however long the poll: a late commit must not wait for the next commit.
        if (!signalled && !stop.aborted) {
          const wait = this.lookbackOwed ? Math.min(this.deps.pollMs, this.lastLookback + LOOKBACK_CHECK_MS - Date.now()) : this.deps.pollMs;
          await wakeOrTimeout(wait, stop, (resolve) => (wake = resolve));
          wake = undefined;
        }
        // Reads start at least STREAM_COALESCE_MS apart: the first commit after a quiet spell is read
        // at once, while commits that keep coming (each one signals) are read together, not one by one.
        const sinceRead = Date.now() - readStartedAt;
        if (sinceRead < STREAM_COALESCE_MS && !stop.aborted) await wakeOrTimeout(STREAM_COALESCE_MS - sinceRead, stop, () => undefined);
      }
    } finally {
      unsubscribe();
    }
  }

  private async readOnce(): Promise<void> {
    const startedAt = Date.now();
    const floor = idFloorAt(startedAt - STREAM_LOOKBACK_MS);
    this.readingFloor = floor;
    try {
      const fresh: StoredEvent[] = [];
      let cursor = this.highWater > floor ? this.highWater : floor;
      for (;;) {
        const page = await this.deps.reader.eventsAfter(this.scope, cursor, PAGE);
        for (const event of page) {
          cursor = event.id;
          if (this.sent.has(event.id)) continue;
          this.sent.add(event.id);
          fresh.push(event);
        }
        if (page.length < PAGE || this.stopping.signal.aborted) break;
      }
      if (cursor > this.highWater) this.highWater = cursor;
      if (startedAt - this.lastLookback >= LOOKBACK_CHECK_MS) {
        this.lastLookback = startedAt;
        this.lookbackOwed = false;
        fresh.push(...(await this.lateCommits(floor)));
      } else this.lookbackOwed = true;
      for (const id of this.sent) if (id <= floor) this.sent.delete(id);
      if (fresh.length === 0) return;
      fresh.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      const batch = { floor, events: fresh };
      for (const subscription of this.subscriptions) subscription.push(batch);
    } finally {
      this.readingFloor = undefined;
    }
  }

  /** Events above `floor` that no read has seen: they committed after a later id was read. */
  private async lateCommits(floor: string): Promise<StoredEvent[]> {
    const missing: string[] = [];
    let cursor = floor;
    for (;;) {
      const ids = await this.deps.reader.eventIdsAfter(this.scope, cursor, ID_PAGE);
      for (const id of ids) {
        cursor = id;
        if (!this.sent.has(id)) missing.push(id);
      }
      if (ids.length < ID_PAGE || this.stopping.signal.aborted) break;
    }
    const late: StoredEvent[] = [];
    for (let start = 0; start < missing.length; start += ID_BATCH) {
      for (const event of await this.deps.reader.eventsWithIds(this.scope, missing.slice(start, start + ID_BATCH))) {
        if (this.sent.has(event.id)) continue;
        this.sent.add(event.id);
        late.push(event);
      }
    }
    return late;
  }
}

/** The readers of every scope with open streams, made on the first subscription and stopped with the last. */
export class EventStreamHub {
  private readonly readers = new Map<string, ScopeReader>();

  constructor(private readonly deps: ReaderDeps) {}

  /** `after`: the id the stream starts after; events at or below it are never queued for it. */
  subscribe(scope: TenantScope, after?: string): StreamSubscription {
    const key = `${scope.merchantId}:${scope.environment}`;
    let reader = this.readers.get(key);
    if (!reader) {
      const started = new ScopeReader(this.deps, { merchantId: scope.merchantId, environment: scope.environment });
      this.readers.set(key, (reader = started));
      void started.run();
    }
    const owner = reader;
    const subscription = new StreamSubscription(
      owner.since(),
      (leaving) => {
        owner.subscriptions.delete(leaving);
        if (owner.subscriptions.size === 0) {
          owner.stop();
          if (this.readers.get(key) === owner) this.readers.delete(key);
        }
      },
      after,
    );
    owner.subscriptions.add(subscription);
    return subscription;
  }

  /** Scopes with a reader running (one per merchant and environment with open streams). */
  get readerCount(): number {
    return this.readers.size;
  }

  close(): void {
    for (const reader of this.readers.values()) reader.stop();
    this.readers.clear();
  }
}
