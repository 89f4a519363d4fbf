import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Routes: an operator may be reached through several connectors in order (its own API, then
 * aggregators). A payment or payout records the route that holds it, so that its status checks,
 * callbacks, refunds and recovery go to that route alone; rows made before keep null, which means
 * the operator's first route (today's behaviour). A payment also keeps what its route's connector
 * needs between calls (Orange's pay_token, a hash of its notif_token).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('payments').addColumn('route', 'text').execute();
  await db.schema.alterTable('payments').addColumn('operator_state', 'text').execute();
  await db.schema.alterTable('payouts').addColumn('route', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('payouts').dropColumn('route').execute();
  await db.schema.alterTable('payments').dropColumn('operator_state').execute();
  await db.schema.alterTable('payments').dropColumn('route').execute();
}
