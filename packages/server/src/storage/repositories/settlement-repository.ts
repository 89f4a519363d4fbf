import { sql, type Kysely, type Selectable } from 'kysely';
import type { Currency } from '../../core/catalog/operator-catalog.js';
import { AkweError } from '../../core/errors/index.js';
import type { BalanceTransaction, BalanceTransactionType } from '../../core/ledger/ledger.js';
import type { PayoutStatus } from '../../core/payouts/payout.js';
import type { Settlement, SettlementDestination, SettlementOrigin, SettlementStatus } from '../../core/settlements/settlement.js';
import type { SettlementAccountKind } from '../../core/settlements/settlement-account.js';
import type { NewSettlement, SettlementChange, SettlementFilters, SettlementStore, SettlementToFollow, StatementTotal } from '../../core/settlements/settlement-store.js';
import type { ClaimWrite } from '../../core/idempotency/idempotency-store.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
import type { FailureCode } from '../../core/shared/failure-codes.js';
import { looksLikeId } from '../../core/shared/ids.js';
import type { Metadata } from '../../core/shared/metadata.js';
import type { Page, PageRequest } from '../../core/shared/pagination.js';
import type { WorkSignals } from '../../core/shared/work-signals.js';
import { createdWithin, listPage, listRows } from '../list-query.js';
import type { Database, SettlementTable } from '../schema.js';
import { isUniqueViolation } from '../unique-violation.js';
import { EventOutbox } from './event-repository.js';
import type { LedgerRepository } from './ledger-repository.js';
import { metadataEntries } from './metadata-entries.js';
import { balanceTransactionFromRow } from './row-mappers.js';
import type { PayoutRepository } from './payout-repository.js';

function settlementFromRow(row: Selectable<SettlementTable>): Settlement {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    reference: row.reference,
    accountId: row.account_id,
    kind: row.kind as SettlementAccountKind,
    status: row.status as SettlementStatus,
    origin: row.origin as SettlementOrigin,
    amountMinor: Number(row.amount_minor),
    feeMinor: Number(row.fee_minor),
    currency: row.currency as Currency,
    sequence: Number(row.sequence),
    destination: JSON.parse(row.destination) as SettlementDestination,
    payoutId: row.payout_id,
    bankReference: row.bank_reference,
    failureCode: row.failure_code as FailureCode | null,
    failureMessage: row.failure_message,
    openingAvailableMinor: Number(row.opening_available_minor),
    closingAvailableMinor: Number(row.closing_available_minor),
    openingReservedMinor: Number(row.opening_reserved_minor),
    closingReservedMinor: Number(row.closing_reserved_minor),
    description: row.description,
    metadata: JSON.parse(row.metadata) as Metadata,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    settledAt: row.settled_at,
    version: row.version,
  };
}

function settlementToRow(s: Settlement): Selectable<SettlementTable> {
  return {
    id: s.id,
    merchant_id: s.merchantId,
    environment: s.environment,
    reference: s.reference,
    account_id: s.accountId,
    kind: s.kind,
    status: s.status,
    origin: s.origin,
    amount_minor: s.amountMinor,
    fee_minor: s.feeMinor,
    currency: s.currency,
    sequence: s.sequence,
    destination: JSON.stringify(s.destination),
    payout_id: s.payoutId,
    bank_reference: s.bankReference,
    failure_code: s.failureCode,
    failure_message: s.failureMessage,
    opening_available_minor: s.openingAvailableMinor,
    closing_available_minor: s.closingAvailableMinor,
    opening_reserved_minor: s.openingReservedMinor,
    closing_reserved_minor: s.closingReservedMinor,
    description: s.description,
    metadata: JSON.stringify(s.metadata),
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    settled_at: s.settledAt,
    version: s.version,
  };
}

/** The scope's settlements that the filters keep, before paging (exported for the query-plan test). */
export function settlementListRows(db: Kysely<Database>, scope: TenantScope, filters: SettlementFilters) {
  return listRows(db.selectFrom('settlements').selectAll('settlements'), {
    scope,
    table: 'settlements',
    metadata: { objectType: 'settlement', match: filters.metadata },
    filters: [['status', '=', filters.status], ['reference', '=', filters.reference || undefined], ...createdWithin(filters)],
  });
}

export class SettlementRepository implements SettlementStore {
  private readonly outbox: EventOutbox;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly claims: { writeIn(executor: Kysely<Database>, write: ClaimWrite): Promise<void> },
    private readonly ledger: Pick<LedgerRepository, 'post' | 'balanceIn'>,
    private readonly payouts: Pick<PayoutRepository, 'writeNewIn'>,
    private readonly signals?: Pick<WorkSignals, 'notify'>,
  ) {
    this.outbox = new EventOutbox(db);
  }

  async insert(fresh: NewSettlement): Promise<Settlement> {
    const { draft } = fresh;
    let stored: Settlement | undefined;
    try {
      await this.db.transaction().execute(async (trx) => {
        if (fresh.payout) await this.payouts.writeNewIn(trx, [fresh.payout]);
        // The reservation first: from here to the commit the scope's available and reserved rows are
        // locked (PostgreSQL; SQLite has one writer), so every posting that moved them before is
        // committed and visible, and every later one waits: the frame and the stamping below agree.
        await this.ledger.post(trx, [fresh.reservation]);
        const closing = await this.ledger.balanceIn(trx, draft, draft.currency);
        const previous = await trx
          .selectFrom('settlements')
          .select(['sequence', 'closing_available_minor', 'closing_reserved_minor'])
          .where('merchant_id', '=', draft.merchantId)
          .where('environment', '=', draft.environment)
          .where('currency', '=', draft.currency)
          .orderBy('sequence', 'desc')
          .limit(1)
          .executeTakeFirst();
        const settlement: Settlement = {
          ...draft,
          sequence: Number(previous?.sequence ?? 0) + 1,
          openingAvailableMinor: Number(previous?.closing_available_minor ?? 0),
          openingReservedMinor: Number(previous?.closing_reserved_minor ?? 0),
          closingAvailableMinor: closing.availableMinor,
          closingReservedMinor: closing.reservedMinor,
        };
        await trx.insertInto('settlements').values(settlementToRow(settlement)).execute();
        const entries = metadataEntries('settlement', settlement);
        if (entries.length > 0) await trx.insertInto('metadata_entries').values(entries).execute();
        await trx
          .updateTable('ledger_transactions')
          .set({ settlement_id: settlement.id })
          .where('merchant_id', '=', settlement.merchantId)
          .where('environment', '=', settlement.environment)
          .where('currency', '=', settlement.currency)
          .where('settlement_id', 'is', null)
          .execute();
        const { events, claim } = fresh.finish(settlement);
        await this.outbox.insert(trx, events);
        if (claim) await this.claims.writeIn(trx, claim);
        stored = settlement;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AkweError('duplicate_reference', `A settlement with reference ${draft.reference} exists already.`, { field: 'reference' });
      throw error;
    }
    this.signals?.notify('events');
    if (fresh.payout) this.signals?.notify('payouts');
    return stored!;
  }

  async find(scope: TenantScope, referenceOrId: string): Promise<Settlement | undefined> {
    const scoped = this.db.selectFrom('settlements').selectAll().where('merchant_id', '=', scope.merchantId).where('environment', '=', scope.environment);
    if (looksLikeId(referenceOrId)) {
      const byId = await scoped.where('id', '=', referenceOrId.toLowerCase()).executeTakeFirst();
      if (byId) return settlementFromRow(byId);
    }
    const byReference = await scoped.where('reference', '=', referenceOrId).executeTakeFirst();
    return byReference && settlementFromRow(byReference);
  }

  async findAnyById(id: string): Promise<Settlement | undefined> {
    if (!looksLikeId(id)) return undefined;
    const row = await this.db.selectFrom('settlements').selectAll().where('id', '=', id.toLowerCase()).executeTakeFirst();
    return row && settlementFromRow(row);
  }

  list(scope: TenantScope, filters: SettlementFilters, page: PageRequest): Promise<Page<Settlement>> {
    return listPage({ all: settlementListRows(this.db, scope, {}), filtered: settlementListRows(this.db, scope, filters) }, page, settlementFromRow);
  }

  async save(change: SettlementChange): Promise<boolean> {
    const { next, expectedVersion } = change;
    let saved = false;
    await this.db.transaction().execute(async (trx) => {
      const row = settlementToRow({ ...next, version: expectedVersion + 1 });
      const result = await trx
        .updateTable('settlements')
        .set({
          status: row.status,
          bank_reference: row.bank_reference,
          failure_code: row.failure_code,
          failure_message: row.failure_message,
          updated_at: row.updated_at,
          settled_at: row.settled_at,
          version: row.version,
        })
        .where('id', '=', next.id)
        .where('version', '=', expectedVersion)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return;
      await this.outbox.insert(trx, change.events);
      if (change.ledger && change.ledger.length > 0) await this.ledger.post(trx, change.ledger);
      saved = true;
    });
    if (saved && change.events.length > 0) this.signals?.notify('events');
    return saved;
  }

  async toFollow(limit: number): Promise<SettlementToFollow[]> {
    const rows = await this.db
      .selectFrom('settlements')
      .innerJoin('payouts', 'payouts.id', 'settlements.payout_id')
      .selectAll('settlements')
      .select(['payouts.status as payout_status', 'payouts.failure_code as payout_failure_code', 'payouts.message as payout_message'])
      // The open statuses spelled as the partial index settlements_open is, so it serves the scan.
      .where(sql<boolean>`settlements.status in ('pending', 'in_transit')`)
      .where((eb) =>
        eb.or([
          eb.and([eb('settlements.status', '=', 'pending'), eb('payouts.status', '<>', 'PENDING')]),
          eb.and([eb('settlements.status', '=', 'in_transit'), eb('payouts.status', '<>', 'PROCESSING')]),
        ]),
      )
      .orderBy('settlements.id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      settlement: settlementFromRow(row),
      payoutStatus: row.payout_status as PayoutStatus,
      payoutFailureCode: row.payout_failure_code as FailureCode | null,
      payoutMessage: row.payout_message,
    }));
  }

  /** A page of the statement's lines, oldest first (through the partial index ledger_transactions_statement). */
  async statementPage(settlementId: string, page: { after?: string; limit: number }): Promise<BalanceTransaction[]> {
    let query = this.db.selectFrom('ledger_transactions').selectAll().where('settlement_id', '=', settlementId);
    if (page.after !== undefined) query = query.where('id', '>', page.after);
    return (await query.orderBy('id').limit(page.limit).execute()).map(balanceTransactionFromRow);
  }

  async awaitingBank(limit: number): Promise<Settlement[]> {
    const rows = await this.db
      .selectFrom('settlements')
      .selectAll()
      .where(sql<boolean>`status in ('pending', 'in_transit')`)
      .where('status', '=', 'pending')
      .where('kind', '=', 'bank')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(settlementFromRow);
  }

  async statementTotals(settlementId: string): Promise<StatementTotal[]> {
    const rows = await this.db
      .selectFrom('ledger_transactions')
      .select((eb) => [
        'type',
        eb.fn.countAll<number | string>().as('count'),
        eb.fn.sum<number | string>('available_change_minor').as('available'),
        eb.fn.sum<number | string>('reserved_change_minor').as('reserved'),
        eb.fn.sum<number | string>('fee_minor').as('fee'),
      ])
      .where('settlement_id', '=', settlementId)
      .groupBy('type')
      .orderBy('type')
      .execute();
    return rows.map((row) => ({
      type: row.type as BalanceTransactionType,
      count: Number(row.count),
      availableChangeMinor: Number(row.available),
      reservedChangeMinor: Number(row.reserved),
      feeMinor: Number(row.fee),
    }));
  }
}
