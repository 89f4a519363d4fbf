import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The delivery claim reads each waiting status in (next_attempt_at, id) order: with `id` in the
 * index, a page of the oldest due deliveries comes off the index without sorting the backlog.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.createIndex('webhook_deliveries_due_order').on('webhook_deliveries').columns(['status', 'next_attempt_at', 'id']).execute();
  await db.schema.dropIndex('webhook_deliveries_due').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.dropIndex('webhook_deliveries_due_order').execute();
}
