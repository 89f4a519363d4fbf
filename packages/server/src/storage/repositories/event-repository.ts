import jsonpatch, { type Operation } from 'fast-json-patch';
import { sql, type Insertable, type Kysely, type Selectable } from 'kysely';
import { subjectReference, type EventSubject, type StoredEvent } from '../../core/events/stored-event.js';
import type { EventStore } from '../../core/ports.js';
import type { PageRequest } from '../../core/shared/pagination.js';
import type { EventFilters } from '../../core/webhooks/webhook-store.js';
import { keysetQuery } from '../keyset-page.js';
import { createdWithin, listRows } from '../list-query.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
import { PreparedInsert } from '../prepared-query.js';
import type { Database, EventFanoutQueueTable, EventTable } from '../schema.js';
import type { OneStatement } from '../postgres/one-statement.js';

// A CommonJS package: its functions come through the default import.
const { applyPatch, compare } = jsonpatch;

/** An events row as read: with its base's payload when the row holds a patch (`withBasePayload`). */
export type EventRow = Selectable<EventTable> & { base_payload?: string | null };

export function eventFromRow(row: EventRow): StoredEvent {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    type: row.type,
    createdAt: row.created_at,
    subject: subjectOf(row),
  };
}

function subjectOf(row: EventRow): EventSubject {
  if (row.base_event_id === null) return JSON.parse(row.payload) as EventSubject;
  // A query that forgot withBasePayload would otherwise hand out a patch as if it were the subject.
  if (typeof row.base_payload !== 'string') throw new Error(`event ${row.id} holds a patch, and its base ${row.base_event_id} was not read with it`);
  const patch = JSON.parse(row.payload) as Operation[];
  return applyPatch(JSON.parse(row.base_payload) as EventSubject, patch, false, true).newDocument;
}

/**
 * The select list of an events query whose rows go through `eventFromRow`: the row and, for a row
 * holding a patch, its base's payload (read by primary key; events are never updated or deleted).
 * `table` is the name or alias of `events` in the query.
 */
export function withBasePayload(table: 'events' | 'e') {
  const basePayload = sql<string | null>`select ${sql.ref('base.payload')} from ${sql.table('events')} as ${sql.id('base')}`;
  return sql<string | null>`(${basePayload} where ${sql.ref('base.id')} = ${sql.ref(`${table}.base_event_id`)})`.as('base_payload');
}

/** A tenant's events, each read with its base's payload: the start of a query whose rows go through `eventFromRow`. */
export function scopedEvents(db: Kysely<Database>, scope: TenantScope) {
  return db.selectFrom('events').selectAll().select(withBasePayload('events')).where('merchant_id', '=', scope.merchantId).where('environment', '=', scope.environment);
}

/**
 * The rows of events written in one transaction. Events about the same object (same tenant, kind
 * and reference) store it once: the last of them keeps the whole snapshot and each other one a JSON
 * Patch to its own, with `base_event_id` naming the last (migration 0042). A sandbox creation's
 * three events thus write one payment snapshot instead of three.
 */
export function eventsToRows(events: readonly StoredEvent[]): Insertable<EventTable>[] {
  const keys = events.map(sameObjectKey);
  const lastAbout = new Map<string, StoredEvent>();
  events.forEach((event, index) => lastAbout.set(keys[index]!, event));
  return events.map((event, index) => {
    const row = wholeEventRow(event);
    const base = lastAbout.get(keys[index]!)!;
    if (base === event) return row;
    const patch = JSON.stringify(compare(base.subject, event.subject));
    // applyPatch refuses paths through these names (prototype pollution); a merchant's metadata key may be one.
    if (patch.length >= row.payload.length || bannedPathName.test(patch)) return row;
    return { ...row, payload: patch, base_event_id: base.id };
  });
}

const bannedPathName = /__proto__|constructor|prototype/;

function sameObjectKey(event: StoredEvent): string {
  return `${event.merchantId} ${event.environment} ${event.subject.kind} ${subjectReference(event.subject)}`;
}

function wholeEventRow(event: StoredEvent): Insertable<EventTable> & { payload: string } {
  return {
    id: event.id,
    merchant_id: event.merchantId,
    environment: event.environment,
    type: event.type,
    payload: JSON.stringify(event.subject),
    created_at: event.createdAt,
    subject_reference: subjectReference(event.subject),
    base_event_id: null,
  };
}

/** A page of the scope's events, newest first; exported so the query-plan test reads this very query. */
export function eventListQuery(db: Kysely<Database>, scope: TenantScope, filters: EventFilters, page: PageRequest) {
  const { query, idColumn } = eventListRows(db, scope, filters);
  return keysetQuery(query, idColumn, page);
}

/** The scope's events that the filters keep, before paging. */
export function eventListRows(db: Kysely<Database>, scope: TenantScope, filters: EventFilters) {
  const rows = listRows(db.selectFrom('events').selectAll().select(withBasePayload('events')), {
    scope,
    filters: [['subject_reference', '=', filters.reference], ...createdWithin(filters)],
  });
  const types = filters.types ?? [];
  if (types.length === 0) return rows;
  // `collect.payment.*` names a family (the types are a closed list, so no LIKE wildcard reaches here).
  return {
    ...rows,
    query: rows.query.where((eb) =>
      eb.or(types.map((type) => (type.endsWith('.*') ? eb('type', 'like', `${type.slice(0, -1).replace(/[%_]/g, '\\$&')}%`) : eb('type', '=', type)))),
    ),
  };
}

/** The queue row that makes an event due for the fan-out (written with the event, in the same commit). */
export function fanoutQueueRow(event: StoredEvent): Insertable<EventFanoutQueueTable> {
  return { event_id: event.id };
}

/** Both rows of each event, for a one-statement write (PostgreSQL): the event and its queue row. */
export function addEventInserts(statement: OneStatement, name: string, events: readonly StoredEvent[]): void {
  eventsToRows(events).forEach((row, index) => {
    statement.add(`${name}_${index}`, statement.insertRow('events', row));
    statement.add(`${name}_${index}_queued`, statement.insertRow('event_fanout_queue', fanoutQueueRow(events[index]!)));
  });
}

/** Writes outbox rows; callers pass their transaction so the events commit with their change. */
export class EventOutbox {
  private readonly rows: PreparedInsert<'events'>;
  private readonly queue: PreparedInsert<'event_fanout_queue'>;

  constructor(db: Kysely<Database>) {
    this.rows = new PreparedInsert(db, 'events');
    this.queue = new PreparedInsert(db, 'event_fanout_queue');
  }

  async insert(executor: Kysely<Database>, events: readonly StoredEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.rows.execute(executor, eventsToRows(events));
    await this.queue.execute(executor, events.map(fanoutQueueRow));
  }
}

export class EventRepository implements EventStore {
  constructor(private readonly db: Kysely<Database>) {}

  async findById(scope: TenantScope, id: string): Promise<StoredEvent | undefined> {
    const row = await scopedEvents(this.db, scope).where('id', '=', id).executeTakeFirst();
    return row && eventFromRow(row);
  }
}
