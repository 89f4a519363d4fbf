/** The three queries behind the storage gauges, each one round trip and none per request. */
import { sql, type Kysely } from 'kysely';
import type { DeliveryStatus } from '../core/webhooks/webhook-endpoint.js';
import type { Database } from '../storage/schema.js';

export interface StatusCount {
  environment: string;
  status: string;
  count: number;
}

export interface StorageFigures {
  payments: StatusCount[];
  payouts: StatusCount[];
  webhookQueue: { depth: number; oldestCreatedAt: string | null };
}

/** A delivery in these states still has to reach its receiver. */
const unfinishedDeliveries: DeliveryStatus[] = ['pending', 'delivering', 'retrying'];

export async function readStorageFigures(db: Kysely<Database>): Promise<StorageFigures> {
  const [payments, payouts, queue] = await Promise.all([countByStatus(db, 'payments'), countByStatus(db, 'payouts'), webhookQueue(db)]);
  return { payments, payouts, webhookQueue: queue };
}

async function countByStatus(db: Kysely<Database>, table: 'payments' | 'payouts'): Promise<StatusCount[]> {
  const rows = await db
    .selectFrom(table)
    .select(['environment', 'status', (eb) => eb.fn.countAll().as('count')])
    .groupBy(['environment', 'status'])
    .execute();
  return rows.map((row) => ({ environment: row.environment, status: row.status, count: Number(row.count) }));
}

async function webhookQueue(db: Kysely<Database>): Promise<StorageFigures['webhookQueue']> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select([(eb) => eb.fn.countAll().as('depth'), sql<string | null>`min(created_at)`.as('oldest')])
    .where('status', 'in', unfinishedDeliveries)
    .executeTakeFirstOrThrow();
  return { depth: Number(row.depth), oldestCreatedAt: row.oldest };
}
