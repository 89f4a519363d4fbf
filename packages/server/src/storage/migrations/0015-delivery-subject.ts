import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * A delivery keeps its event's subject (docs/performance.md "Webhook claims"): the claim pass
 * orders one subject's deliveries per stream, and reading each candidate's subject from `events`
 * (hundreds of ids per pass) cost as much as the rest of the claim. Written at fan-out and resend;
 * the subject of an event never changes, so a copy cannot go stale.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').addColumn('subject_reference', 'text').execute();
  await sql`update webhook_deliveries set subject_reference = (select events.subject_reference from events where events.id = webhook_deliveries.event_id)`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').dropColumn('subject_reference').execute();
}
