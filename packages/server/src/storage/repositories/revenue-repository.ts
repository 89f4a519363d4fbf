import { sql, type Kysely } from 'kysely';
import type { RevenueCell, RevenueFlow, RevenueLedger, RevenuePeriod } from '../../core/revenue/revenue-ledger.js';
import type { Environment } from '../../core/shared/environment.js';
import type { Database } from '../schema.js';

/** The ledger transaction types that earn a fee or move money at a provider: counted even with a zero fee. */
const volumeTypes = ['collection', 'payout', 'settlement', 'refund'] as const;

const flowOfSource: Record<string, RevenueFlow> = {
  payment: 'collection',
  payout: 'payout',
  settlement: 'settlement',
  refund: 'refund',
  transfer: 'transfer',
};

interface CellRow {
  day: string;
  merchant_id: string;
  merchant_name: string;
  currency: string;
  source_type: string;
  operator: string | null;
  route: string | null;
  fees: number | string;
  volume: number | string;
  count: number | string;
}

/**
 * The revenue report's cells, read on both databases with one statement. Each ledger transaction of
 * the period (index `ledger_transactions_created`, migration 0039) gets its fees entries' sum (by the
 * entries' transaction index) and the object it was made for, by its source: a payment, a payout, a
 * refund (its payment), a settlement (its payout, for a wallet settlement) or a transfer, which
 * gives the operator, the route and the amount the operator moved. The cells then add them up per
 * UTC day (created_at is ISO text: its first 10 characters), merchant, currency, source, operator
 * and route.
 */
export class RevenueRepository implements RevenueLedger {
  constructor(private readonly db: Kysely<Database>) {}

  async cells(period: RevenuePeriod, environment: Environment): Promise<RevenueCell[]> {
    const result = await revenueCellsQuery(period, environment).execute(this.db);
    return result.rows.map((row) => ({
      day: row.day,
      merchantId: row.merchant_id,
      merchantName: row.merchant_name,
      currency: row.currency,
      flow: flowOfSource[row.source_type] ?? 'other',
      operator: row.operator,
      route: row.route,
      feesMinor: Number(row.fees),
      volumeMinor: Number(row.volume),
      count: Number(row.count),
    }));
  }
}

/** The cells' statement (exported for its query plan test). */
export function revenueCellsQuery(period: RevenuePeriod, environment: Environment) {
  const types = sql.join(volumeTypes.map((type) => sql.lit(type)));
  // Materialized: each transaction's fees are summed once, not once per use of `fees` below.
  return sql<CellRow>`
    with x as materialized (
      select substr(t.created_at, 1, 10) as day, t.merchant_id, t.currency, t.source_type, t.type,
        coalesce(p.operator, po.operator, rp.operator, sp.operator) as operator,
        coalesce(p.route, po.route, rp.route, sp.route) as route,
        coalesce(case t.source_type
          when 'payment' then p.amount_minor
          when 'payout' then po.amount_minor
          when 'refund' then r.amount_minor
          when 'settlement' then s.amount_minor - s.fee_minor
          when 'transfer' then tr.amount_minor
        end, 0) as amount,
        coalesce((
          select sum(e.amount_minor) from ledger_entries e join ledger_accounts a on a.id = e.account_id
          where e.transaction_id = t.id and a.kind = 'fees'
        ), 0) as fees
      from ledger_transactions t
      left join payments p on t.source_type = 'payment' and p.id = t.source_id
      left join payouts po on t.source_type = 'payout' and po.id = t.source_id
      left join refunds r on t.source_type = 'refund' and r.id = t.source_id
      left join payments rp on rp.id = r.payment_id
      left join settlements s on t.source_type = 'settlement' and s.id = t.source_id
      left join payouts sp on sp.id = s.payout_id
      left join transfers tr on t.source_type = 'transfer' and tr.id = t.source_id
      where t.environment = ${environment} and t.created_at >= ${period.from} and t.created_at < ${period.to}
    )
    select x.day, x.merchant_id, m.name as merchant_name, x.currency, x.source_type, x.operator, x.route,
      sum(x.fees) as fees,
      sum(case when x.fees < 0 then -x.amount else x.amount end) as volume,
      sum(case when x.fees < 0 then -1 else 1 end) as count
    from x
    join merchants m on m.id = x.merchant_id
    where x.type in (${types}) or x.fees <> 0
    group by x.day, x.merchant_id, m.name, x.currency, x.source_type, x.operator, x.route`;
}
