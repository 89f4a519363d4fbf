import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Webhook delivery at scale (docs/webhooks.md "Throughput and fairness"): each delivery names its
 * stream (endpoint or callback URL) and host, which the claim's budgets count; an endpoint may
 * set its own in-flight bound.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('webhook_endpoints').addColumn('max_in_flight', 'integer').execute();
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('stream', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('webhook_deliveries')
    .addColumn('target_host', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db
    .updateTable('webhook_deliveries')
    .set({ stream: sql`case when destination = 'callback' then 'callback:' || target_url else destination end` })
    .execute();
  // Hosts matter only for deliveries still to be sent; URL parsing happens here, not in SQL.
  const open: { id: string; target_url: string }[] = await db
    .selectFrom('webhook_deliveries')
    .select(['id', 'target_url'])
    .where('status', 'in', ['pending', 'retrying', 'delivering'])
    .execute();
  for (const row of open) {
    let host = '';
    try {
      host = new URL(row.target_url).host.toLowerCase();
    } catch {
      // An unparsable URL fails at delivery anyway.
    }
    await db.updateTable('webhook_deliveries').set({ target_host: host }).where('id', '=', row.id).execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('webhook_deliveries').dropColumn('target_host').execute();
  await db.schema.alterTable('webhook_deliveries').dropColumn('stream').execute();
  await db.schema.alterTable('webhook_endpoints').dropColumn('max_in_flight').execute();
}
