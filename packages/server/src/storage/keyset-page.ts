import type { SelectQueryBuilder } from 'kysely';
import type { Page, PageRequest } from '../core/shared/pagination.js';

/**
 * Applies a page's cursor, order and limit to a list query on `idColumn`. One row more than the
 * limit is read to learn `has_more` without counting. `ending_before` reads upwards from the
 * cursor (the index serves both directions) and the rows are turned back to newest first.
 */
export function keysetQuery<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, idColumn: string, page: PageRequest): SelectQueryBuilder<DB, TB, O> {
  // The column names are ours (never input), so the casts only bridge Kysely's string typing.
  const column = idColumn as never;
  if (page.endingBefore !== undefined) return query.where(column, '>', page.endingBefore as never).orderBy(column, 'asc').limit(page.limit + 1);
  const older = page.startingAfter !== undefined ? query.where(column, '<', page.startingAfter as never) : query;
  return older.orderBy(column, 'desc').limit(page.limit + 1);
}

/** The rows of a `keysetQuery` as a page, newest first. */
export function toPage<T>(rows: T[], page: PageRequest): Page<T> {
  const data = rows.slice(0, page.limit);
  return { data: page.endingBefore !== undefined ? data.reverse() : data, hasMore: rows.length > page.limit };
}
