import type { Kysely, Selectable } from 'kysely';
import type { EventSubject, StoredEvent } from '../../core/events/stored-event.js';
import type { EventStore } from '../../core/ports.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
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

export class EventRepository implements EventStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts outbox rows; callers pass their transaction so the events commit with their change. */
  static async insert(db: Kysely<Database>, ...events: StoredEvent[]): Promise<void> {
    if (events.length === 0) return;
    await db
      .insertInto('events')
      .values(
        events.map((event) => ({
          id: event.id,
          merchant_id: event.merchantId,
          environment: event.environment,
          type: event.type,
          payload: JSON.stringify(event.subject),
          created_at: event.createdAt,
        })),
      )
      .execute();
  }

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
