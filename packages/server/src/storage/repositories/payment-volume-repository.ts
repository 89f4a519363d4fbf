import { sql, type Kysely } from 'kysely';
import type { DailyVolume, PaymentVolumes } from '../../core/dashboard/dashboard-overview.js';
import type { Environment } from '../../core/shared/environment.js';
import type { Database } from '../schema.js';

/** Completed collection volume per UTC day (created_at is ISO text on both databases: its first 10 characters are the day). */
export class PaymentVolumeRepository implements PaymentVolumes {
  constructor(private readonly db: Kysely<Database>) {}

  async dailyCompleted(merchantId: string, environment: Environment, since: string): Promise<DailyVolume[]> {
    const day = sql<string>`substr(created_at, 1, 10)`;
    const rows = await this.db
      .selectFrom('payments')
      .select([day.as('day'), 'currency', (eb) => eb.fn.countAll<number | string>().as('count'), (eb) => eb.fn.sum<number | string>('amount_minor').as('amount')])
      .where('merchant_id', '=', merchantId)
      .where('environment', '=', environment)
      .where('created_at', '>=', since)
      .where('status', 'in', ['completed', 'refunded'])
      .groupBy([day, 'currency'])
      .execute();
    return rows.map((row) => ({ day: row.day, currency: row.currency, count: Number(row.count), amountMinor: Number(row.amount) }));
  }
}
