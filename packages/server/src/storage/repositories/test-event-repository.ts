import type { Kysely } from 'kysely';
import type { TestEventWrites } from '../../core/dashboard/dashboard-developers.js';
import type { StoredEvent } from '../../core/events/stored-event.js';
import type { Database } from '../schema.js';
import { eventsToRows } from './event-repository.js';

/** The dashboard's test events (dashboard-developers.ts): stored like any event, but never fanned out to every endpoint (no queue row). */
export class TestEventRepository implements TestEventWrites {
  constructor(private readonly db: Kysely<Database>) {}

  async insertFannedOutEvent(event: StoredEvent): Promise<void> {
    await this.db
      .insertInto('events')
      .values(eventsToRows([event]))
      .execute();
  }
}
