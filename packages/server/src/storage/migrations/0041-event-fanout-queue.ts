import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Events waiting for the fan-out are rows of their own small table, deleted by the pass that fans
 * them out, instead of a flag on the event that the pass updated. The update rewrote each whole
 * event (its payload is a payment snapshot): on PostgreSQL a new copy of the row and an entry in
 * each of its indexes (the flag was part of a partial index, so the update could not be HOT), on
 * SQLite the event's page again. `events.fanned_out` stays, unread, for the rows written before.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('event_fanout_queue')
    .addColumn('event_id', 'text', (c) => c.primaryKey())
    .execute();
  await db
    .insertInto('event_fanout_queue')
    .columns(['event_id'])
    .expression(db.selectFrom('events').select('id').where('fanned_out', '=', 0))
    .execute();
  await db.schema.dropIndex('events_unfanned').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.updateTable('events').set({ fanned_out: 1 }).execute();
  await db.updateTable('events').set({ fanned_out: 0 }).where('id', 'in', db.selectFrom('event_fanout_queue').select('event_id')).execute();
  await db.schema
    .createIndex('events_unfanned')
    .on('events')
    .column('id')
    .where(sql<boolean>`${sql.ref('fanned_out')} = 0`)
    .execute();
  await db.schema.dropTable('event_fanout_queue').execute();
}
