import type { SelectQueryBuilder } from 'kysely';
import type { TenantScope } from '../core/shared/environment.js';
import type { Page, PageRequest } from '../core/shared/pagination.js';
import { assertCursorListed, keysetQuery, toPage, type KeysetOrder, type ListRows } from './keyset-page.js';

/** One filter of a list: a column, how it compares, and the value; an undefined value filters nothing. */
export type ListFilter = readonly [column: string, operator: '=' | 'in' | '>=' | '<=', value: unknown];

/** The created_at bounds every list takes (ISO 8601 instants, inclusive). */
export function createdWithin(filters: { createdGte?: string; createdLte?: string }, column = 'created_at'): ListFilter[] {
  return [
    [column, '>=', filters.createdGte || undefined],
    [column, '<=', filters.createdLte || undefined],
  ];
}

export interface ListSpec {
  scope: TenantScope;
  /** The table the columns belong to: they are qualified with it when the query joins others. */
  table?: string;
  /** Filters after the scope, in this order; those without a value are left out. */
  filters?: readonly ListFilter[];
  /**
   * For objects with metadata: a key and its exact value, found through metadata_entries (its
   * index holds scope, type, key and value, and orders by object id, which becomes the cursor's
   * column so the page reads in that index's order).
   */
  metadata?: { objectType: string; match: { key: string; value: string } | undefined };
}

/**
 * A list's rows before paging, built one way for every repository: `query` (the table's rows)
 * narrowed to the scope and to the filters given, with the column its cursors name.
 */
export function listRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, spec: ListSpec): ListRows<DB, TB, O> {
  // The column names are ours (never input), so the casts only bridge Kysely's string typing.
  const column = (name: string) => (spec.table ? `${spec.table}.${name}` : name) as never;
  let rows = query;
  let idColumn = column('id') as string;
  const match = spec.metadata?.match;
  if (spec.metadata && match) {
    // Kysely cannot type a join onto a builder of any table: the join is typed by hand here.
    const joinable = rows as unknown as { innerJoin(table: string, left: string, right: string): SelectQueryBuilder<DB, TB, O> };
    const entry = (name: string) => `m.${name}` as never;
    rows = joinable
      .innerJoin('metadata_entries as m', 'm.object_id', column('id'))
      .where(entry('merchant_id'), '=', spec.scope.merchantId as never)
      .where(entry('environment'), '=', spec.scope.environment as never)
      .where(entry('object_type'), '=', spec.metadata.objectType as never)
      .where(entry('key'), '=', match.key as never)
      .where(entry('value'), '=', match.value as never);
    idColumn = 'm.object_id';
  }
  rows = rows.where(column('merchant_id'), '=', spec.scope.merchantId as never).where(column('environment'), '=', spec.scope.environment as never);
  for (const [name, operator, value] of spec.filters ?? []) {
    if (value !== undefined) rows = rows.where(column(name), operator, value as never);
  }
  return { query: rows, idColumn };
}

/**
 * A page of a list: the cursor checked against the list without its filters (`all`, see
 * assertCursorListed), then the filtered rows read from the cursor, one more than the limit to
 * learn `has_more`, each row mapped to its object.
 */
export async function listPage<DB, TB extends keyof DB, O, T>(
  lists: { all: ListRows<DB, TB, O>; filtered: ListRows<DB, TB, O> },
  page: PageRequest,
  fromRow: (row: O) => T,
  order: KeysetOrder = 'newest_first',
): Promise<Page<T>> {
  await assertCursorListed(lists.all, page);
  const rows = (await keysetQuery(lists.filtered.query, lists.filtered.idColumn, page, order).execute()) as O[];
  return toPage(rows.map(fromRow), page);
}
