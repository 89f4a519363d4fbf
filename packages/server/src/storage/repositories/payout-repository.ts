import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { CountryCode, Currency } from '../../core/catalog/operator-catalog.js';
import { AkweError } from '../../core/errors/index.js';
import type { StoredEvent } from '../../core/events/stored-event.js';
import type { ClaimWrite } from '../../core/idempotency/idempotency-store.js';
import type { LedgerPosting } from '../../core/ledger/ledger.js';
import type { Payout, PayoutStatus } from '../../core/payouts/payout.js';
import type { PayoutChange, PayoutFilters, PayoutStore } from '../../core/payouts/payout-store.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
import type { FailureCode } from '../../core/shared/failure-codes.js';
import type { Metadata } from '../../core/shared/metadata.js';
import type { Page, PageRequest } from '../../core/shared/pagination.js';
import type { WorkSignals } from '../../core/shared/work-signals.js';
import type { DatabaseCapabilities } from '../database.js';
import { keysetQuery } from '../keyset-page.js';
import { createdWithin, listPage, listRows } from '../list-query.js';
import type { Database, PayoutTable } from '../schema.js';
import { isUniqueViolation } from '../unique-violation.js';
import { EventOutbox } from './event-repository.js';
import type { LedgerRepository } from './ledger-repository.js';
import { metadataEntries } from './metadata-entries.js';
import { looksLikeId } from '../../core/shared/ids.js';

/** Rows per INSERT of a group of payouts: under every database's bound on statement parameters. */
const INSERT_CHUNK = 200;

class VersionConflict extends Error {}

function payoutFromRow(row: Selectable<PayoutTable>): Payout {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    reference: row.reference,
    status: row.status as PayoutStatus,
    amountMinor: Number(row.amount_minor),
    feeMinor: Number(row.fee_minor),
    currency: row.currency as Currency,
    country: row.country as CountryCode,
    operator: row.operator,
    phone: row.phone,
    recipientFirstName: row.recipient_first_name,
    recipientLastName: row.recipient_last_name,
    description: row.description,
    pspReference: row.psp_reference,
    message: row.message,
    failureCode: row.failure_code as FailureCode | null,
    metadata: JSON.parse(row.metadata) as Metadata,
    handoffStartedAt: row.handoff_started_at,
    handedOff: row.handed_off === 1,
    nextCheckAt: row.next_check_at,
    route: row.route,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    ...(row.settlement_id === null ? {} : { settlementId: row.settlement_id }),
    sentAt: row.sent_at,
  };
}

function payoutToRow(p: Payout): Selectable<PayoutTable> {
  return {
    id: p.id,
    merchant_id: p.merchantId,
    environment: p.environment,
    reference: p.reference,
    status: p.status,
    amount_minor: p.amountMinor,
    fee_minor: p.feeMinor,
    currency: p.currency,
    country: p.country,
    operator: p.operator,
    phone: p.phone,
    recipient_first_name: p.recipientFirstName,
    recipient_last_name: p.recipientLastName,
    description: p.description,
    psp_reference: p.pspReference,
    message: p.message,
    failure_code: p.failureCode,
    metadata: JSON.stringify(p.metadata),
    handoff_started_at: p.handoffStartedAt,
    handed_off: p.handedOff ? 1 : 0,
    next_check_at: p.nextCheckAt,
    created_at: p.createdAt,
    updated_at: p.updatedAt,
    version: p.version,
    settlement_id: p.settlementId ?? null,
    route: p.route ?? null,
    sent_at: p.sentAt ?? null,
  };
}

/** A page of the scope's payouts, newest first (exported for the query-plan test). */
export function payoutListQuery(db: Kysely<Database>, scope: TenantScope, filters: PayoutFilters, page: PageRequest) {
  const { query, idColumn } = payoutListRows(db, scope, filters);
  return keysetQuery(query, idColumn, page);
}

/** The scope's payouts that the filters keep, before paging. */
export function payoutListRows(db: Kysely<Database>, scope: TenantScope, filters: PayoutFilters) {
  return listRows(db.selectFrom('payouts').selectAll('payouts'), {
    scope,
    table: 'payouts',
    metadata: { objectType: 'payout', match: filters.metadata },
    filters: [
      ['status', '=', filters.status],
      ['operator', 'in', filters.operators],
      ['reference', '=', filters.reference || undefined],
      ['phone', '=', filters.phone || undefined],
      ...createdWithin(filters),
    ],
  });
}

export class PayoutRepository implements PayoutStore {
  private readonly outbox: EventOutbox;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly capabilities: DatabaseCapabilities,
    private readonly claims: { writeIn(executor: Kysely<Database>, write: ClaimWrite): Promise<void> },
    private readonly ledger: Pick<LedgerRepository, 'post'>,
    private readonly signals?: Pick<WorkSignals, 'notify'>,
  ) {
    this.outbox = new EventOutbox(db);
  }

  async insert(payout: Payout, events: StoredEvent[], ledger: LedgerPosting[], claim?: ClaimWrite): Promise<void> {
    await this.insertNew([{ payout, events, ledger }], `A payout with reference ${payout.reference} exists already.`, claim);
  }

  async insertMany(payouts: readonly { payout: Payout; events: StoredEvent[]; ledger: LedgerPosting[] }[]): Promise<void> {
    if (payouts.length > 0) await this.insertNew(payouts, 'A payout of the group has a reference that exists already.');
  }

  /**
   * New payouts' rows, metadata rows and events inside the caller's transaction (a wallet settlement
   * writes its payout with its own rows); their postings are the caller's to write.
   */
  async writeNewIn(trx: Kysely<Database>, payouts: readonly { payout: Payout; events: StoredEvent[] }[]): Promise<void> {
    for (let start = 0; start < payouts.length; start += INSERT_CHUNK) {
      await trx
        .insertInto('payouts')
        .values(payouts.slice(start, start + INSERT_CHUNK).map(({ payout }) => payoutToRow(payout)))
        .execute();
    }
    const entries = payouts.flatMap(({ payout }) => metadataEntries('payout', payout));
    for (let start = 0; start < entries.length; start += INSERT_CHUNK)
      await trx
        .insertInto('metadata_entries')
        .values(entries.slice(start, start + INSERT_CHUNK))
        .execute();
    await this.outbox.insert(
      trx,
      payouts.flatMap(({ events }) => events),
    );
  }

  /** New payouts, their metadata rows, events and postings (and a request's claim) in one transaction. */
  private async insertNew(payouts: readonly { payout: Payout; events: StoredEvent[]; ledger: LedgerPosting[] }[], duplicateMessage: string, claim?: ClaimWrite): Promise<void> {
    try {
      await this.db.transaction().execute(async (trx) => {
        if (claim) await this.claims.writeIn(trx, claim);
        await this.writeNewIn(trx, payouts);
        // Last: the merchant's account rows stay locked from here to the commit, and postings of one
        // balance move it once (ledger-repository.ts).
        await this.ledger.post(
          trx,
          payouts.flatMap(({ ledger }) => ledger),
        );
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AkweError('duplicate_reference', duplicateMessage, { field: 'reference' });
      throw error;
    }
    this.signals?.notify('payouts');
    this.signals?.notify('events');
  }

  async findAnyById(id: string): Promise<Payout | undefined> {
    if (!looksLikeId(id)) return undefined;
    const row = await this.db.selectFrom('payouts').selectAll().where('id', '=', id.toLowerCase()).executeTakeFirst();
    return row && payoutFromRow(row);
  }

  async find(scope: TenantScope, referenceOrId: string): Promise<Payout | undefined> {
    const scoped = this.db.selectFrom('payouts').selectAll().where('merchant_id', '=', scope.merchantId).where('environment', '=', scope.environment);
    if (looksLikeId(referenceOrId)) {
      const byId = await scoped.where('id', '=', referenceOrId.toLowerCase()).executeTakeFirst();
      if (byId) return payoutFromRow(byId);
    }
    const byReference = await scoped.where('reference', '=', referenceOrId).executeTakeFirst();
    return byReference && payoutFromRow(byReference);
  }

  async list(scope: TenantScope, filters: PayoutFilters, page: PageRequest): Promise<Page<Payout>> {
    return listPage({ all: payoutListRows(this.db, scope, {}), filtered: payoutListRows(this.db, scope, filters) }, page, payoutFromRow);
  }

  async save(change: PayoutChange): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        if (change.claim) await this.claims.writeIn(trx, change.claim);
        const { id: _id, merchant_id: _m, environment: _e, reference: _r, created_at: _c, ...columns } = payoutToRow(change.next);
        const result = await trx
          .updateTable('payouts')
          .set({ ...columns, version: change.expectedVersion + 1 })
          .where('id', '=', change.next.id)
          .where('version', '=', change.expectedVersion)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) !== 1) throw new VersionConflict();
        await this.outbox.insert(trx, change.events);
        if (change.ledger && change.ledger.length > 0) await this.ledger.post(trx, change.ledger);
      });
    } catch (error) {
      if (error instanceof VersionConflict) return false;
      throw error;
    }
    if (change.events.length > 0) this.signals?.notify('events');
    return true;
  }

  async claimHandoffs(now: string, staleBefore: string, limit: number): Promise<Array<{ payout: Payout; resumed: boolean }>> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx
        .selectFrom('payouts')
        .selectAll()
        .where('status', '=', 'PENDING')
        .where((eb) => eb.or([eb('handoff_started_at', 'is', null), eb('handoff_started_at', '<=', staleBefore)]))
        .orderBy('created_at')
        .limit(limit);
      if (this.capabilities.skipLocked) query = query.forUpdate().skipLocked();
      const rows = (await query.execute()).map(payoutFromRow);
      if (rows.length === 0) return [];
      await this.takeRows(trx, rows, { handoff_started_at: now, updated_at: now });
      // A first hand-off sends at once: its send begins now. A resumed one asks first (and records its own send).
      const fresh = rows.filter((payout) => payout.handoffStartedAt === null).map((payout) => payout.id);
      if (fresh.length > 0) await trx.updateTable('payouts').set({ sent_at: now }).where('id', 'in', fresh).execute();
      return rows.map((payout) => {
        const resumed = payout.handoffStartedAt !== null;
        return { payout: { ...payout, handoffStartedAt: now, updatedAt: now, version: payout.version + 1, ...(resumed ? {} : { sentAt: now }) }, resumed };
      });
    });
  }

  async renewHandoff(payout: Payout, now: string): Promise<Payout | undefined> {
    const result = await this.db
      .updateTable('payouts')
      .set((eb) => ({ handoff_started_at: now, updated_at: now, version: eb('version', '+', 1) }))
      .where('id', '=', payout.id)
      .where('status', '=', 'PENDING')
      .where('version', '=', payout.version)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1 ? { ...payout, handoffStartedAt: now, updatedAt: now, version: payout.version + 1 } : undefined;
  }

  async claimChecks(now: string, nextCheckAt: string, limit: number): Promise<Payout[]> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx.selectFrom('payouts').selectAll().where('status', '=', 'PROCESSING').where('next_check_at', '<=', now).orderBy('next_check_at').limit(limit);
      if (this.capabilities.skipLocked) query = query.forUpdate().skipLocked();
      const rows = (await query.execute()).map(payoutFromRow);
      if (rows.length === 0) return [];
      await this.takeRows(trx, rows, { next_check_at: nextCheckAt, updated_at: now });
      return rows.map((payout) => ({ ...payout, nextCheckAt, updatedAt: now, version: payout.version + 1 }));
    });
  }

  async claimReversalChecks(now: string, nextCheckAt: string, limit: number): Promise<Payout[]> {
    return this.db.transaction().execute(async (trx) => {
      // The status as a literal, so both databases can prove the partial index payouts_reversal_checks applies.
      let query = trx.selectFrom('payouts').selectAll().where('status', '=', sql.lit('COMPLETED')).where('next_check_at', '<=', now).orderBy('next_check_at').limit(limit);
      if (this.capabilities.skipLocked) query = query.forUpdate().skipLocked();
      const rows = (await query.execute()).map(payoutFromRow);
      if (rows.length === 0) return [];
      // Its updated_at stays: a re-read changes nothing the merchant sees, and it dates the completion.
      await this.takeRows(trx, rows, { next_check_at: nextCheckAt });
      return rows.map((payout) => ({ ...payout, nextCheckAt, version: payout.version + 1 }));
    });
  }

  /**
   * Marks the claimed rows in one statement, bumping their version so a slower claimant's write
   * fails. The rows are ours while the transaction lasts (locked on PostgreSQL, the single writer
   * on SQLite), so no version check is needed here.
   */
  private async takeRows(trx: Transaction<Database>, rows: Payout[], set: Partial<Pick<PayoutTable, 'handoff_started_at' | 'next_check_at' | 'updated_at'>>): Promise<void> {
    await trx
      .updateTable('payouts')
      .set((eb) => ({ ...set, version: eb('version', '+', 1) }))
      .where(
        'id',
        'in',
        rows.map((payout) => payout.id),
      )
      .execute();
  }
}
