import type { Kysely } from 'kysely';
import type { StoredEvent } from '../../core/events/stored-event.js';
import type { EventStore } from '../../core/ports.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
import type { Database } from '../schema.js';

export class EventRepository implements EventStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts an outbox row; callers pass their transaction so the event commits with its change. */
  static async insert(db: Kysely<Database>, event: StoredEvent): Promise<void> {
    await db
      .insertInto('events')
      .values({
        id: event.id,
        merchant_id: event.merchantId,
        environment: event.environment,
        type: event.type,
        payload: JSON.stringify(event.payload),
        created_at: event.createdAt,
      })
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
    if (!row) return undefined;
    return {
      id: row.id,
      merchantId: row.merchant_id,
      environment: row.environment as Environment,
      type: row.type,
      createdAt: row.created_at,
      payload: JSON.parse(row.payload) as Record<string, unknown>,
    };
  }
}
