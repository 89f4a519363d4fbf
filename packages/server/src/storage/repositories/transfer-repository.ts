import type { Kysely, Selectable } from 'kysely';
import type { Currency } from '../../core/catalog/operator-catalog.js';
import { AkweError } from '../../core/errors/index.js';
import type { ClaimWrite } from '../../core/idempotency/idempotency-store.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
import { looksLikeId } from '../../core/shared/ids.js';
import type { Metadata } from '../../core/shared/metadata.js';
import type { Page, PageRequest } from '../../core/shared/pagination.js';
import type { WorkSignals } from '../../core/shared/work-signals.js';
import type { Transfer, TransferDirection } from '../../core/transfers/transfer.js';
import type { NewTransfer, TransferFilters, TransferStore } from '../../core/transfers/transfer-store.js';
import { keysetQuery } from '../keyset-page.js';
import { createdWithin, listPage, listRows } from '../list-query.js';
import type { Database, TransferTable } from '../schema.js';
import { isUniqueViolation } from '../unique-violation.js';
import { EventOutbox } from './event-repository.js';
import type { LedgerRepository } from './ledger-repository.js';
import { metadataEntries } from './metadata-entries.js';

function transferFromRow(row: Selectable<TransferTable>): Transfer {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    direction: row.direction as TransferDirection,
    senderId: row.sender_id,
    receiverId: row.receiver_id,
    reference: row.reference,
    amountMinor: Number(row.amount_minor),
    currency: row.currency as Currency,
    description: row.description,
    metadata: JSON.parse(row.metadata) as Metadata,
    createdAt: row.created_at,
  };
}

function transferToRow(t: Transfer): Selectable<TransferTable> {
  return {
    id: t.id,
    merchant_id: t.merchantId,
    environment: t.environment,
    direction: t.direction,
    sender_id: t.senderId,
    receiver_id: t.receiverId,
    reference: t.reference,
    amount_minor: t.amountMinor,
    currency: t.currency,
    description: t.description,
    metadata: JSON.stringify(t.metadata),
    created_at: t.createdAt,
  };
}

/** A page of the party's transfers, newest first (exported for the query-plan test). */
export function transferListQuery(db: Kysely<Database>, scope: TenantScope, filters: TransferFilters, page: PageRequest) {
  const { query, idColumn } = transferListRows(db, scope, filters);
  return keysetQuery(query, idColumn, page);
}

/** The party's transfer rows (its side of each) that the filters keep, before paging. */
export function transferListRows(db: Kysely<Database>, scope: TenantScope, filters: TransferFilters) {
  return listRows(db.selectFrom('transfers').selectAll('transfers'), {
    scope,
    table: 'transfers',
    metadata: { objectType: 'transfer', match: filters.metadata },
    // Only sent rows carry a reference: saying so lets a reference search use its (partial) unique index.
    filters: [['direction', '=', filters.direction ?? (filters.reference ? 'sent' : undefined)], ['reference', '=', filters.reference || undefined], ...createdWithin(filters)],
  });
}

export class TransferRepository implements TransferStore {
  private readonly outbox: EventOutbox;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly claims: { writeIn(executor: Kysely<Database>, write: ClaimWrite): Promise<void> },
    private readonly ledger: Pick<LedgerRepository, 'post'>,
    private readonly signals?: Pick<WorkSignals, 'notify'>,
  ) {
    this.outbox = new EventOutbox(db);
  }

  async insert(transfer: NewTransfer): Promise<void> {
    const { sent, received } = transfer;
    try {
      await this.db.transaction().execute(async (trx) => {
        if (transfer.claim) await this.claims.writeIn(trx, transfer.claim);
        await trx
          .insertInto('transfers')
          .values([transferToRow(sent), transferToRow(received)])
          .execute();
        const entries = metadataEntries('transfer', sent);
        if (entries.length > 0) await trx.insertInto('metadata_entries').values(entries).execute();
        await this.outbox.insert(trx, transfer.events);
        // Each merchant's accounts in merchant id order, whichever side sends: two opposite
        // transfers between the same pair lock the same rows in the same order (no deadlock).
        await this.ledger.post(
          trx,
          [...transfer.ledger].sort((a, b) => (a.merchantId < b.merchantId ? -1 : a.merchantId > b.merchantId ? 1 : 0)),
        );
        // After the postings: the sender's available row is locked until the commit (PostgreSQL;
        // SQLite has one writer), so concurrent transfers of one sender count each other here.
        const sentToday = await this.sentSinceIn(trx, sent, sent.currency, transfer.dayStart);
        if (sentToday > transfer.dailyMaxMinor) {
          const before = sentToday - sent.amountMinor;
          throw new AkweError(
            'daily_transfer_limit_exceeded',
            `A merchant sends at most ${transfer.dailyMaxMinor / 100} ${sent.currency} a day (UTC) in ${sent.environment}; ${before / 100} sent today, so ${Math.max(0, transfer.dailyMaxMinor - before) / 100} is left.`,
            { field: 'amount' },
          );
        }
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AkweError('duplicate_reference', `A transfer with reference ${sent.reference} exists already.`, { field: 'reference' });
      throw error;
    }
    this.signals?.notify('events');
  }

  async find(scope: TenantScope, referenceOrId: string): Promise<Transfer | undefined> {
    const scoped = this.db.selectFrom('transfers').selectAll().where('merchant_id', '=', scope.merchantId).where('environment', '=', scope.environment);
    if (looksLikeId(referenceOrId)) {
      const byId = await scoped.where('id', '=', referenceOrId.toLowerCase()).executeTakeFirst();
      if (byId) return transferFromRow(byId);
    }
    const byReference = await scoped.where('direction', '=', 'sent').where('reference', '=', referenceOrId).executeTakeFirst();
    return byReference && transferFromRow(byReference);
  }

  list(scope: TenantScope, filters: TransferFilters, page: PageRequest): Promise<Page<Transfer>> {
    return listPage({ all: transferListRows(this.db, scope, {}), filtered: transferListRows(this.db, scope, filters) }, page, transferFromRow);
  }

  private async sentSinceIn(executor: Kysely<Database>, scope: TenantScope, currency: Currency, since: string): Promise<number> {
    const row = await sentSinceQuery(executor, scope, currency, since).executeTakeFirst();
    return Number(row?.total ?? 0);
  }
}

/** What a sender sent since an instant, in one scope and currency (exported for the query-plan test). */
export function sentSinceQuery(executor: Kysely<Database>, scope: TenantScope, currency: Currency, since: string) {
  return executor
    .selectFrom('transfers')
    .select((eb) => eb.fn.sum<number | string | null>('amount_minor').as('total'))
    .where('merchant_id', '=', scope.merchantId)
    .where('environment', '=', scope.environment)
    .where('currency', '=', currency)
    .where('direction', '=', 'sent')
    .where('created_at', '>=', since);
}
