import { sql, type Kysely, type Selectable } from 'kysely';
import type { FloatReading, FloatStore, LedgerExpectation, RouteFloat } from '../../core/floats/route-float.js';
import type { Database, RouteFloatTable } from '../schema.js';

function fromRow(row: Selectable<RouteFloatTable>): RouteFloat {
  return {
    routeLabel: row.route_label,
    balanceMinor: row.balance_minor === null ? null : Number(row.balance_minor),
    currency: row.currency,
    readAt: row.read_at,
    thresholdMinor: row.threshold_minor === null ? null : Number(row.threshold_minor),
    low: Number(row.low) === 1,
    lowSince: row.low_since,
    alertedAt: row.alerted_at,
    lastError: row.last_error,
    lastErrorAt: row.last_error_at,
  };
}

/** Provider floats (migration 0037): each route's state, its readings, and the ledger's expectation per route. */
export class FloatRepository implements FloatStore {
  constructor(private readonly db: Kysely<Database>) {}

  async claimRead(routeLabel: string, now: string, nextReadAt: string): Promise<boolean> {
    await this.db
      .insertInto('route_floats')
      .values({ route_label: routeLabel, next_read_at: now, updated_at: now })
      .onConflict((oc) => oc.column('route_label').doNothing())
      .execute();
    // The guarded move of next_read_at is the claim: of two workers, one row update succeeds.
    const claimed = await this.db
      .updateTable('route_floats')
      .set({ next_read_at: nextReadAt, updated_at: now })
      .where('route_label', '=', routeLabel)
      .where('next_read_at', '<=', now)
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) === 1;
  }

  async recordReading(reading: FloatReading): Promise<{ newlyLow: boolean }> {
    const low = reading.thresholdMinor !== null && reading.balanceMinor < reading.thresholdMinor;
    return this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('route_float_readings')
        .values({ id: reading.id, route_label: reading.routeLabel, balance_minor: reading.balanceMinor, currency: reading.currency, read_at: reading.readAt })
        .execute();
      let newlyLow = false;
      if (low) {
        // Only the reading that turns the route low marks the spell: its caller sends the alert.
        const began = await trx
          .updateTable('route_floats')
          .set({ low: 1, low_since: reading.readAt, alerted_at: reading.readAt })
          .where('route_label', '=', reading.routeLabel)
          .where('low', '=', 0)
          .executeTakeFirst();
        newlyLow = Number(began.numUpdatedRows) === 1;
      }
      await trx
        .updateTable('route_floats')
        .set({
          balance_minor: reading.balanceMinor,
          currency: reading.currency,
          read_at: reading.readAt,
          threshold_minor: reading.thresholdMinor,
          last_error: null,
          last_error_at: null,
          updated_at: reading.readAt,
          ...(low ? {} : { low: 0, low_since: null, alerted_at: null }),
        })
        .where('route_label', '=', reading.routeLabel)
        .execute();
      return { newlyLow };
    });
  }

  async pruneReadings(routeLabel: string, before: string): Promise<void> {
    await this.db.deleteFrom('route_float_readings').where('route_label', '=', routeLabel).where('read_at', '<', before).execute();
  }

  async recordFailure(routeLabel: string, message: string, at: string): Promise<void> {
    await this.db.updateTable('route_floats').set({ last_error: message, last_error_at: at, updated_at: at }).where('route_label', '=', routeLabel).execute();
  }

  async list(): Promise<RouteFloat[]> {
    return (await this.db.selectFrom('route_floats').selectAll().orderBy('route_label').execute()).map(fromRow);
  }

  async lowRouteLabels(): Promise<string[]> {
    return (await this.db.selectFrom('route_floats').select('route_label').where('low', '=', 1).execute()).map((row) => row.route_label);
  }

  /** Readings of one route, newest first. */
  async readings(routeLabel: string, limit: number): Promise<Array<{ balanceMinor: number; currency: string; readAt: string }>> {
    const rows = await this.db
      .selectFrom('route_float_readings')
      .select(['balance_minor', 'currency', 'read_at'])
      .where('route_label', '=', routeLabel)
      .orderBy('read_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => ({ balanceMinor: Number(row.balance_minor), currency: row.currency, readAt: row.read_at }));
  }

  /**
   * The live operator clearing entries grouped by the route of what moved them: payments
   * (collections), their refunds, payouts, and wallet settlements (by their payout). Clearing is
   * what operators owe the merchants, negative for money they hold: the provider is expected to
   * hold its opposite.
   */
  async ledgerExpectations(): Promise<LedgerExpectation[]> {
    const clearing = () =>
      this.db
        .selectFrom('ledger_entries as e')
        .innerJoin('ledger_accounts as a', 'a.id', 'e.account_id')
        .innerJoin('ledger_transactions as t', 't.id', 'e.transaction_id')
        .where('a.kind', '=', 'operator_clearing')
        .where('a.environment', '=', 'live');
    const total = sql<string | number>`sum(e.amount_minor)`.as('total');
    const [payments, refunds, payouts, settlements] = await Promise.all([
      clearing()
        .innerJoin('payments as p', 'p.id', 't.source_id')
        .where('t.source_type', '=', 'payment')
        .select(['p.operator as operator', 'p.route as route', 'a.currency as currency', total])
        .groupBy(['p.operator', 'p.route', 'a.currency'])
        .execute(),
      clearing()
        .innerJoin('refunds as r', 'r.id', 't.source_id')
        .innerJoin('payments as p', 'p.id', 'r.payment_id')
        .where('t.source_type', '=', 'refund')
        .select(['p.operator as operator', 'p.route as route', 'a.currency as currency', total])
        .groupBy(['p.operator', 'p.route', 'a.currency'])
        .execute(),
      clearing()
        .innerJoin('payouts as o', 'o.id', 't.source_id')
        .where('t.source_type', '=', 'payout')
        .select(['o.operator as operator', 'o.route as route', 'a.currency as currency', total])
        .groupBy(['o.operator', 'o.route', 'a.currency'])
        .execute(),
      clearing()
        .innerJoin('settlements as s', 's.id', 't.source_id')
        .innerJoin('payouts as o', 'o.id', 's.payout_id')
        .where('t.source_type', '=', 'settlement')
        .select(['o.operator as operator', 'o.route as route', 'a.currency as currency', total])
        .groupBy(['o.operator', 'o.route', 'a.currency'])
        .execute(),
    ]);
    return [...payments, ...refunds, ...payouts, ...settlements].flatMap((row) =>
      row.operator === null ? [] : [{ operator: row.operator, route: row.route, currency: row.currency, expectedMinor: -Number(row.total) }],
    );
  }
}
