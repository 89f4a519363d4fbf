import { sql, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** The statuses a payment can still leave, as payment-state-machine.ts's nonFinalStatuses at this migration. */
const OPEN_STATUSES = ['pending', 'processing', 'awaiting_otp', 'awaiting_payment'] as const;

/**
 * Fewer index writes per payment creation (docs/performance.md):
 * - `payments_expiring (expires_at)` holds only payments that can still expire (the expiry
 *   worker's lookup names the same statuses as literals, so both databases prove it applies). A
 *   payment leaves it when it reaches a final status, instead of moving to another place in
 *   `payments_expiry (status, expires_at)`, which kept every payment ever made.
 * - `events_unfanned (id)` holds only events not yet fanned out to webhook deliveries; fanning one
 *   out removes its entry instead of moving it within `events_fan_out (fanned_out, id)`.
 * - `ledger_entries_account` goes: no query reads ledger entries by account (balances live on the
 *   account rows), and each posting wrote it three times.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('payments_expiry').execute();
  await db.schema
    .createIndex('payments_expiring')
    .on('payments')
    .column('expires_at')
    .where(sql<boolean>`${sql.ref('status')} in (${sql.join(OPEN_STATUSES.map((status) => sql.lit(status)))})`)
    .execute();
  await db.schema.dropIndex('events_fan_out').execute();
  await db.schema
    .createIndex('events_unfanned')
    .on('events')
    .column('id')
    .where(sql<boolean>`${sql.ref('fanned_out')} = 0`)
    .execute();
  await db.schema.dropIndex('ledger_entries_account').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.createIndex('ledger_entries_account').on('ledger_entries').column('account_id').execute();
  await db.schema.dropIndex('events_unfanned').execute();
  await db.schema.createIndex('events_fan_out').on('events').columns(['fanned_out', 'id']).execute();
  await db.schema.dropIndex('payments_expiring').execute();
  await db.schema.createIndex('payments_expiry').on('payments').columns(['status', 'expires_at']).execute();
}
