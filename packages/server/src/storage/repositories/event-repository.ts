import type { Insertable, Kysely, Selectable } from 'kysely';
import type { EventSubject, StoredEvent } from '../../core/events/stored-event.js';
import type { EventStore } from '../../core/ports.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
import { PreparedInsert } from '../prepared-query.js';
import type { Database, EventTable } from '../schema.js';

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

function eventToRow(event: StoredEvent): Insertable<EventTable> {
  return {
    id: event.id,
    merchant_id: event.merchantId,
    environment: event.environment,
    type: event.type,
    payload: JSON.stringify(event.subject),
    created_at: event.createdAt,
  };
}

/** Writes outbox rows; callers pass their transaction so the events commit with their change. */
export class EventOutbox {
  private readonly rows: PreparedInsert<'events'>;

  constructor(db: Kysely<Database>) {
    this.rows = new PreparedInsert(db, 'events');
  }

  async insert(executor: Kysely<Database>, events: readonly StoredEvent[]): Promise<void> {
    if (events.length > 0) await this.rows.execute(executor, events.map(eventToRow));
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
