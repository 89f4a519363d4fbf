import type { Insertable, Kysely, Selectable } from 'kysely';
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

export function eventFromRow(row: Selectable<EventTable>): StoredEvent {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    type: row.type,
    createdAt: row.created_at,
    subject: JSON.parse(row.payload) as EventSubject,
  };
}

export function eventToRow(event: StoredEvent): Insertable<EventTable> {
  return {
    id: event.id,
    merchant_id: event.merchantId,
    environment: event.environment,
    type: event.type,
    payload: JSON.stringify(event.subject),
    created_at: event.createdAt,
    subject_reference: subjectReference(event.subject),
  };
}

/** A page of the scope's events, newest first; exported so the query-plan test reads this very query. */
export function eventListQuery(db: Kysely<Database>, scope: TenantScope, filters: EventFilters, page: PageRequest) {
  const { query, idColumn } = eventListRows(db, scope, filters);
  return keysetQuery(query, idColumn, page);
}

/** The scope's events that the filters keep, before paging. */
export function eventListRows(db: Kysely<Database>, scope: TenantScope, filters: EventFilters) {
  const rows = listRows(db.selectFrom('events').selectAll(), { scope, filters: [['subject_reference', '=', filters.reference], ...createdWithin(filters)] });
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
export function addEventInserts(statement: OneStatement, name: string, event: StoredEvent): void {
  statement.add(name, statement.insertRow('events', eventToRow(event)));
  statement.add(`${name}_queued`, statement.insertRow('event_fanout_queue', fanoutQueueRow(event)));
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
    await this.rows.execute(executor, events.map(eventToRow));
    await this.queue.execute(executor, events.map(fanoutQueueRow));
  }
}

export class EventRepository implements EventStore {
  constructor(private readonly db: Kysely<Database>) {}

  async findById(scope: TenantScope, id: string): Promise<StoredEvent | undefined> {
    const row = await this.db
      .selectFrom('events')
      .selectAll()
      .where('id', '=', id)
      .where('merchant_id', '=', scope.merchantId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst();
    return row && eventFromRow(row);
  }
}
