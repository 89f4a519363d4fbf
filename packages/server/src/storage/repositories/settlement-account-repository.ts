import type { Kysely, Selectable } from 'kysely';
import type { CountryCode, Currency } from '../../core/catalog/operator-catalog.js';
import type { StoredEvent } from '../../core/events/stored-event.js';
import type { ClaimWrite } from '../../core/idempotency/idempotency-store.js';
import type { SettlementAccount, SettlementAccountKind } from '../../core/settlements/settlement-account.js';
import type { SettlementAccountFilters, SettlementAccountStore } from '../../core/settlements/settlement-account-store.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
import { looksLikeId } from '../../core/shared/ids.js';
import type { Metadata } from '../../core/shared/metadata.js';
import type { Page, PageRequest } from '../../core/shared/pagination.js';
import type { WorkSignals } from '../../core/shared/work-signals.js';
import { listPage, listRows } from '../list-query.js';
import type { Database, SettlementAccountTable } from '../schema.js';
import { VersionedWrites } from './versioned-writes.js';

function accountFromRow(row: Selectable<SettlementAccountTable>): SettlementAccount {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    kind: row.kind as SettlementAccountKind,
    currency: row.currency as Currency,
    country: row.country as CountryCode,
    holderName: row.holder_name,
    operator: row.operator,
    phone: row.phone,
    iban: row.iban,
    bankName: row.bank_name,
    description: row.description,
    metadata: JSON.parse(row.metadata) as Metadata,
    usableFrom: row.usable_from,
    removedAt: row.removed_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: Number(row.version),
  };
}

function accountToRow(account: SettlementAccount): Selectable<SettlementAccountTable> {
  return {
    id: account.id,
    merchant_id: account.merchantId,
    environment: account.environment,
    kind: account.kind,
    currency: account.currency,
    country: account.country,
    holder_name: account.holderName,
    operator: account.operator,
    phone: account.phone,
    iban: account.iban,
    bank_name: account.bankName,
    description: account.description,
    metadata: JSON.stringify(account.metadata),
    usable_from: account.usableFrom,
    removed_at: account.removedAt,
    created_at: account.createdAt,
    updated_at: account.updatedAt,
    version: account.version,
  };
}

/** The scope's accounts the filters keep, before paging (removed ones only when asked for). */
function accountListRows(db: Kysely<Database>, scope: TenantScope, filters: SettlementAccountFilters) {
  let rows = db.selectFrom('settlement_accounts').selectAll();
  if (filters.includeRemoved !== true) rows = rows.where('removed_at', 'is', null);
  return listRows(rows, { scope, filters: [['kind', '=', filters.kind]] });
}

export class SettlementAccountRepository implements SettlementAccountStore {
  private readonly writes: VersionedWrites;

  constructor(
    private readonly db: Kysely<Database>,
    claims: { writeIn(executor: Kysely<Database>, write: ClaimWrite): Promise<void> },
    signals?: Pick<WorkSignals, 'notify'>,
  ) {
    this.writes = new VersionedWrites(db, claims, signals);
  }

  insert(account: SettlementAccount, events: StoredEvent[], claim?: ClaimWrite): Promise<void> {
    return this.writes.insert((trx) => trx.insertInto('settlement_accounts').values(accountToRow(account)).execute(), events, claim);
  }

  save(next: SettlementAccount, expectedVersion: number, events: StoredEvent[]): Promise<boolean> {
    const { id: _id, merchant_id: _m, environment: _e, kind: _k, created_at: _c, ...columns } = accountToRow(next);
    return this.writes.save(
      (trx) =>
        trx
          .updateTable('settlement_accounts')
          .set({ ...columns, version: expectedVersion + 1 })
          .where('id', '=', next.id)
          .where('version', '=', expectedVersion)
          .executeTakeFirst(),
      events,
    );
  }

  async find(scope: TenantScope, id: string): Promise<SettlementAccount | undefined> {
    if (!looksLikeId(id)) return undefined;
    const row = await this.db
      .selectFrom('settlement_accounts')
      .selectAll()
      .where('id', '=', id.toLowerCase())
      .where('merchant_id', '=', scope.merchantId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst();
    return row && accountFromRow(row);
  }

  list(scope: TenantScope, filters: SettlementAccountFilters, page: PageRequest): Promise<Page<SettlementAccount>> {
    // A cursor may name a removed account (removed between two pages): it is still of this list.
    return listPage({ all: accountListRows(this.db, scope, { includeRemoved: true }), filtered: accountListRows(this.db, scope, filters) }, page, accountFromRow);
  }
}
