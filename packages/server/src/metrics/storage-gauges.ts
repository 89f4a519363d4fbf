/**
 * Gauges read from the database when Prometheus scrapes, never on a request: payments and payouts
 * by environment and status (one grouped COUNT per table, which the list indexes
 * `(merchant_id, environment, status, id)` answer without reading rows), the webhook queue (one
 * query: depth and oldest age) and the connection pool. Read from the database rather than counted
 * in the process, they agree whichever process is scraped and survive restarts.
 */
import { Gauge, type Registry } from 'prom-client';
import { environments } from '../core/shared/environment.js';
import { paymentStatuses } from '../core/payments/payment.js';
import { payoutStatuses } from '../core/payouts/payout.js';
import type { AkweDatabase } from '../storage/database.js';
import { readStorageFigures, type StorageFigures } from './storage-figures.js';

export function registerStorageGauges(registry: Registry, database: AkweDatabase): void {
  // Every gauge's collect runs side by side on a scrape; they share one read of the database.
  const figures = sharedWhileRunning(() => readStorageFigures(database.db));
  const failed = async () => (await figures()) === undefined;

  new Gauge({
    name: 'akwe_database_up',
    help: '1 when the scrape could read the database, 0 when it could not (the storage gauges are then absent).',
    registers: [registry],
    async collect() {
      this.set((await failed()) ? 0 : 1);
    },
  });

  const byStatus = (name: string, help: string, statuses: readonly string[], pick: (f: StorageFigures) => StorageFigures['payments']) =>
    new Gauge({
      name,
      help,
      labelNames: ['environment', 'status'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const read = await figures();
        if (!read) return;
        // Every status appears, zero included, so a rule on a status that has no row yet still has a series.
        for (const environment of environments) for (const status of statuses) this.set({ environment, status: status.toLowerCase() }, 0);
        for (const row of pick(read)) this.set({ environment: row.environment, status: row.status.toLowerCase() }, row.count);
      },
    });
  byStatus('akwe_payments', 'Payments stored now, by environment and status.', paymentStatuses, (f) => f.payments);
  byStatus('akwe_payouts', 'Payouts stored now, by environment and status.', payoutStatuses, (f) => f.payouts);

  new Gauge({
    name: 'akwe_webhook_queue_depth',
    help: 'Webhook deliveries not finished yet (pending, being delivered, or waiting for a retry).',
    registers: [registry],
    async collect() {
      this.reset();
      const read = await figures();
      if (read) this.set(read.webhookQueue.depth);
    },
  });

  new Gauge({
    name: 'akwe_webhook_queue_oldest_age_seconds',
    help: 'Age of the oldest unfinished webhook delivery; 0 when the queue is empty.',
    registers: [registry],
    async collect() {
      this.reset();
      const read = await figures();
      if (!read) return;
      const oldest = read.webhookQueue.oldestCreatedAt;
      this.set(oldest === null ? 0 : Math.max(0, (Date.now() - Date.parse(oldest)) / 1000));
    },
  });

  new Gauge({
    name: 'akwe_database_connections',
    help: 'Database connections by state: total open and, on PostgreSQL, idle and waiting (callers queued for a connection).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const counts = database.connections();
      this.set({ state: 'total' }, counts.total);
      if (counts.idle !== undefined) this.set({ state: 'idle' }, counts.idle);
      if (counts.waiting !== undefined) this.set({ state: 'waiting' }, counts.waiting);
    },
  });

  new Gauge({
    name: 'akwe_database_connections_max',
    help: 'The most connections the process may open (the PostgreSQL pool size; 1 for SQLite).',
    registers: [registry],
    collect() {
      this.set(database.connections().max);
    },
  });
}

/** One run of `read` shared by every caller that arrives while it runs; the next call reads again. */
function sharedWhileRunning<T>(read: () => Promise<T>): () => Promise<T | undefined> {
  let running: Promise<T | undefined> | undefined;
  return () =>
    (running ??= read()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
      }));
}
