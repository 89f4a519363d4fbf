import { sql, type Kysely, type Selectable } from 'kysely';
import type { CountryCode, Currency } from '../../core/catalog/operator-catalog.js';
import type { StoredEvent } from '../../core/events/stored-event.js';
import type { ClaimWrite } from '../../core/idempotency/idempotency-store.js';
import type { PaymentLink } from '../../core/payment-links/payment-link.js';
import type { PaymentLinkFilters, PaymentLinkStore } from '../../core/payment-links/payment-link-store.js';
import type { Environment, TenantScope } from '../../core/shared/environment.js';
import { looksLikeId } from '../../core/shared/ids.js';
import type { Metadata } from '../../core/shared/metadata.js';
import type { Page, PageRequest } from '../../core/shared/pagination.js';
import type { WorkSignals } from '../../core/shared/work-signals.js';
import { listPage, listRows } from '../list-query.js';
import type { Database, PaymentLinkTable } from '../schema.js';
import { VersionedWrites } from './versioned-writes.js';

function linkFromRow(row: Selectable<PaymentLinkTable>): PaymentLink {
  const minor = (value: number | string | null) => (value === null ? null : Number(value));
  return {
    id: row.id,
    merchantId: row.merchant_id,
    environment: row.environment as Environment,
    slug: row.slug,
    amountMinor: minor(row.amount_minor),
    minAmountMinor: minor(row.min_amount_minor),
    maxAmountMinor: minor(row.max_amount_minor),
    currency: row.currency as Currency,
    countries: JSON.parse(row.countries) as CountryCode[],
    description: row.description,
    reusable: Number(row.reusable) === 1,
    maxPayments: row.max_payments === null ? null : Number(row.max_payments),
    expiresAt: row.expires_at,
    returnUrl: row.return_url,
    metadata: JSON.parse(row.metadata) as Metadata,
    deactivatedAt: row.deactivated_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: Number(row.version),
  };
}

function linkToRow(link: PaymentLink): Selectable<PaymentLinkTable> {
  return {
    id: link.id,
    merchant_id: link.merchantId,
    environment: link.environment,
    slug: link.slug,
    amount_minor: link.amountMinor,
    min_amount_minor: link.minAmountMinor,
    max_amount_minor: link.maxAmountMinor,
    currency: link.currency,
    countries: JSON.stringify(link.countries),
    description: link.description,
    reusable: link.reusable ? 1 : 0,
    max_payments: link.maxPayments,
    expires_at: link.expiresAt,
    return_url: link.returnUrl,
    metadata: JSON.stringify(link.metadata),
    deactivated_at: link.deactivatedAt,
    created_at: link.createdAt,
    updated_at: link.updatedAt,
    version: link.version,
  };
}

function linkListRows(db: Kysely<Database>, scope: TenantScope, filters: PaymentLinkFilters) {
  let rows = db.selectFrom('payment_links').selectAll();
  if (filters.active === true) rows = rows.where('deactivated_at', 'is', null);
  if (filters.active === false) rows = rows.where('deactivated_at', 'is not', null);
  return listRows(rows, {
    scope,
    filters: [
      ['created_at', '>=', filters.createdGte],
      ['created_at', '<=', filters.createdLte],
    ],
  });
}

/** Payment links (core/payment-links), on SQLite and PostgreSQL alike. */
export class PaymentLinkRepository implements PaymentLinkStore {
  private readonly writes: VersionedWrites;

  constructor(
    private readonly db: Kysely<Database>,
    claims: { writeIn(executor: Kysely<Database>, write: ClaimWrite): Promise<void> },
    signals?: Pick<WorkSignals, 'notify'>,
  ) {
    this.writes = new VersionedWrites(db, claims, signals);
  }

  insert(link: PaymentLink, events: StoredEvent[], claim?: ClaimWrite): Promise<void> {
    return this.writes.insert((trx) => trx.insertInto('payment_links').values(linkToRow(link)).execute(), events, claim);
  }

  save(next: PaymentLink, expectedVersion: number, events: StoredEvent[]): Promise<boolean> {
    const { id: _id, merchant_id: _m, environment: _e, slug: _s, created_at: _c, ...columns } = linkToRow(next);
    return this.writes.save(
      (trx) =>
        trx
          .updateTable('payment_links')
          .set({ ...columns, version: expectedVersion + 1 })
          .where('id', '=', next.id)
          .where('version', '=', expectedVersion)
          .executeTakeFirst(),
      events,
    );
  }

  async find(scope: TenantScope, id: string): Promise<PaymentLink | undefined> {
    if (!looksLikeId(id)) return undefined;
    const row = await this.db
      .selectFrom('payment_links')
      .selectAll()
      .where('id', '=', id.toLowerCase())
      .where('merchant_id', '=', scope.merchantId)
      .where('environment', '=', scope.environment)
      .executeTakeFirst();
    return row && linkFromRow(row);
  }

  async findBySlug(slug: string): Promise<PaymentLink | undefined> {
    const row = await this.db.selectFrom('payment_links').selectAll().where('slug', '=', slug).executeTakeFirst();
    return row && linkFromRow(row);
  }

  list(scope: TenantScope, filters: PaymentLinkFilters, page: PageRequest): Promise<Page<PaymentLink>> {
    return listPage({ all: linkListRows(this.db, scope, {}), filtered: linkListRows(this.db, scope, filters) }, page, linkFromRow);
  }

  async completedPayments(scope: TenantScope, linkIds: readonly string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (linkIds.length === 0) return counts;
    const rows = await this.db
      .selectFrom('payments')
      .select(['payment_link_id', sql<number | string>`count(*)`.as('paid')])
      .where('merchant_id', '=', scope.merchantId)
      .where('environment', '=', scope.environment)
      .where('payment_link_id', 'in', [...linkIds])
      .where('status', 'in', ['completed', 'refunded'])
      .groupBy('payment_link_id')
      .execute();
    for (const row of rows) if (row.payment_link_id !== null) counts.set(row.payment_link_id, Number(row.paid));
    return counts;
  }
}
