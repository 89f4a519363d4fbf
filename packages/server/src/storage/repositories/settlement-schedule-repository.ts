import type { Kysely, Selectable } from 'kysely';
import type { Currency } from '../../core/catalog/operator-catalog.js';
import type { SettlementOrigin } from '../../core/settlements/settlement.js';
import type { ScheduleRunOutcome, SettlementInterval, SettlementSchedule } from '../../core/settlements/settlement-schedule.js';
import type { ClaimedSchedule, ScheduleRun, SettlementScheduleStore } from '../../core/settlements/settlement-schedule-store.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
import type { DatabaseCapabilities } from '../database.js';
import type { Database, SettlementScheduleTable } from '../schema.js';

function scheduleFromRow(row: Selectable<SettlementScheduleTable>): SettlementSchedule {
  return {
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    currency: row.currency as Currency,
    interval: row.run_interval as SettlementInterval,
    anchor: row.anchor === null ? null : Number(row.anchor),
    accountId: row.account_id,
    minimumMinor: Number(row.minimum_minor),
    reserveMinor: Number(row.reserve_minor),
    nextRunAt: row.next_run_at,
    lastRunAt: row.last_run_at,
    lastOutcome: row.last_outcome as ScheduleRunOutcome | null,
    lastSettlementId: row.last_settlement_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: Number(row.version),
  };
}

/** The columns a PUT sets (the last run's are the runs' own). */
function settingsOf(schedule: SettlementSchedule) {
  return {
    run_interval: schedule.interval,
    anchor: schedule.anchor,
    account_id: schedule.accountId,
    minimum_minor: schedule.minimumMinor,
    reserve_minor: schedule.reserveMinor,
    next_run_at: schedule.nextRunAt,
    updated_at: schedule.updatedAt ?? schedule.createdAt ?? '',
  };
}

export class SettlementScheduleRepository implements SettlementScheduleStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: Pick<DatabaseCapabilities, 'skipLocked'>,
  ) {}

  async find(scope: TenantScope, currency: string): Promise<SettlementSchedule | undefined> {
    const row = await this.scoped(scope).where('currency', '=', currency).executeTakeFirst();
    return row && scheduleFromRow(row);
  }

  async list(scope: TenantScope): Promise<SettlementSchedule[]> {
    return (await this.scoped(scope).orderBy('currency').execute()).map(scheduleFromRow);
  }

  async put(schedule: SettlementSchedule): Promise<SettlementSchedule> {
    const settings = settingsOf(schedule);
    // One statement, so two PUTs racing on a new currency cannot both insert: the second updates.
    const row = await this.db
      .insertInto('settlement_schedules')
      .values({
        merchant_id: schedule.merchantId,
        environment: schedule.environment,
        currency: schedule.currency,
        ...settings,
        last_run_at: schedule.lastRunAt,
        last_outcome: schedule.lastOutcome,
        last_settlement_id: schedule.lastSettlementId,
        created_at: schedule.createdAt ?? settings.updated_at,
        version: 1,
      })
      .onConflict((oc) => oc.columns(['merchant_id', 'environment', 'currency']).doUpdateSet((eb) => ({ ...settings, version: eb('settlement_schedules.version', '+', 1) })))
      .returningAll()
      .executeTakeFirstOrThrow();
    return scheduleFromRow(row);
  }

  async claimDue(now: string, claimedUntil: string, limit: number): Promise<ClaimedSchedule[]> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx.selectFrom('settlement_schedules').selectAll().where('next_run_at', '<=', now).orderBy('next_run_at').limit(limit);
      // PostgreSQL: rows another worker is claiming are skipped, not waited for.
      if (this.capabilities.skipLocked) query = query.forUpdate().skipLocked();
      const claimed: ClaimedSchedule[] = [];
      for (const row of await query.execute()) {
        // Version-checked: on SQLite (no row locks) a concurrent claimant that read the same row loses here.
        const result = await trx
          .updateTable('settlement_schedules')
          .set({ next_run_at: claimedUntil, version: row.version + 1 })
          .where('merchant_id', '=', row.merchant_id)
          .where('environment', '=', row.environment)
          .where('currency', '=', row.currency)
          .where('version', '=', row.version)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) continue;
        claimed.push({ schedule: { ...scheduleFromRow(row), nextRunAt: claimedUntil, version: Number(row.version) + 1 }, dueAt: row.next_run_at! });
      }
      return claimed;
    });
  }

  async recordRun(claimed: SettlementSchedule, run: ScheduleRun): Promise<void> {
    const outcome = { last_run_at: run.lastRunAt, last_outcome: run.lastOutcome, last_settlement_id: run.lastSettlementId };
    const asClaimed = await this.update(claimed)
      .set({ ...outcome, next_run_at: run.nextRunAt, version: claimed.version + 1 })
      .where('version', '=', claimed.version)
      .executeTakeFirst();
    if (Number(asClaimed.numUpdatedRows) === 1) return;
    // Set again since the claim: the new settings chose the next run; the outcome is still this run's.
    await this.update(claimed)
      .set((eb) => ({ ...outcome, version: eb('version', '+', 1) }))
      .execute();
  }

  async findSettlement(scope: TenantScope, reference: string): Promise<{ id: string; origin: SettlementOrigin } | undefined> {
    const row = await this.db
      .selectFrom('settlements')
      .select(['id', 'origin'])
      .where('merchant_id', '=', scope.merchantId)
      .where('environment', '=', scope.environment)
      .where('reference', '=', reference)
      .executeTakeFirst();
    return row && { id: row.id, origin: row.origin as SettlementOrigin };
  }

  private scoped(scope: TenantScope) {
    return this.db.selectFrom('settlement_schedules').selectAll().where('merchant_id', '=', scope.merchantId).where('environment', '=', scope.environment);
  }

  private update(schedule: SettlementSchedule) {
    return this.db
      .updateTable('settlement_schedules')
      .where('merchant_id', '=', schedule.merchantId)
      .where('environment', '=', schedule.environment)
      .where('currency', '=', schedule.currency);
  }
}
