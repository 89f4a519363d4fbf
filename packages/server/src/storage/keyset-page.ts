import type { SelectQueryBuilder } from 'kysely';
import { AkweError } from '../core/errors/index.js';
import type { Page, PageRequest } from '../core/shared/pagination.js';

/** A list before paging: its scoped and filtered rows, and the column its cursors name. */
export interface ListRows<DB, TB extends keyof DB, O> {
  query: SelectQueryBuilder<DB, TB, O>;
  idColumn: string;
}

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

/**
 * Refuses with 400 `invalid_cursor` a cursor that names no object of this list as the request
 * filters it: an id of another list, merchant or environment, an unknown id, or an object the
 * filters exclude (a cursor taken from a page read with other filters). A position outside the
 * list would page silently through something else. The check is one lookup by id; only when it
 * fails does a second one, without the filters (`unfiltered`), tell which message to give. An
 * unknown id and another merchant's get the same message, so nothing about others leaks.
 */
export async function assertCursorListed<DB, TB extends keyof DB, O>(
  listed: ListRows<DB, TB, O>,
  page: PageRequest,
  unfiltered?: () => ListRows<DB, TB, O>,
): Promise<void> {
  const cursor = page.startingAfter !== undefined ? { field: 'starting_after', id: page.startingAfter } : page.endingBefore !== undefined ? { field: 'ending_before', id: page.endingBefore } : undefined;
  if (cursor === undefined || (await holds(listed, cursor.id))) return;
  if (unfiltered !== undefined && (await holds(unfiltered(), cursor.id))) {
    throw AkweError.ofField('invalid_cursor', cursor.field, `${cursor.field} names an object that this request's filters exclude: a cursor only continues a list read with the same filters as the page it came from.`);
  }
  throw AkweError.ofField('invalid_cursor', cursor.field, `${cursor.field} is not an object of this list: pass the id of an object from a page of this same list (the first or last object of the page you hold).`);
}

async function holds<DB, TB extends keyof DB, O>(rows: ListRows<DB, TB, O>, id: string): Promise<boolean> {
  return (await cursorLookup(rows, id).executeTakeFirst()) !== undefined;
}

/** The object `id` if the list holds it: a lookup by id (exported so the query-plan test reads it). */
export function cursorLookup<DB, TB extends keyof DB, O>({ query, idColumn }: ListRows<DB, TB, O>, id: string): SelectQueryBuilder<DB, TB, O> {
  return query.where(idColumn as never, '=', id as never).limit(1);
}
