import type { SelectQueryBuilder } from 'kysely';
import { AkweError } from '../core/errors/index.js';
import type { Page, PageRequest } from '../core/shared/pagination.js';

/** A list before paging: its scoped and filtered rows, and the column its cursors name. */
export interface ListRows<DB, TB extends keyof DB, O> {
  query: SelectQueryBuilder<DB, TB, O>;
  idColumn: string;
}

/** A list's order: newest first (ids are time-ordered), or row order (a bulk batch's lines). */
export type KeysetOrder = 'newest_first' | 'row_order';

/**
 * Applies a page's cursor, order and limit to a list query on `idColumn`. One row more than the
 * limit is read to learn `has_more` without counting. `ending_before` reads backwards from the
 * cursor (the index serves both directions) and `toPage` turns the rows back to the list's order.
 */
export function keysetQuery<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  idColumn: string,
  page: PageRequest,
  order: KeysetOrder = 'newest_first',
): SelectQueryBuilder<DB, TB, O> {
  // The column names are ours (never input), so the casts only bridge Kysely's string typing.
  const column = idColumn as never;
  const [forwards, after, backwards, before] = order === 'newest_first' ? (['desc', '<', 'asc', '>'] as const) : (['asc', '>', 'desc', '<'] as const);
  if (page.endingBefore !== undefined)
    return query
      .where(column, before, page.endingBefore as never)
      .orderBy(column, backwards)
      .limit(page.limit + 1);
  const rest = page.startingAfter !== undefined ? query.where(column, after, page.startingAfter as never) : query;
  return rest.orderBy(column, forwards).limit(page.limit + 1);
}

/** The rows of a `keysetQuery` as a page, in the list's order. */
export function toPage<T>(rows: T[], page: PageRequest): Page<T> {
  const data = rows.slice(0, page.limit);
  return { data: page.endingBefore !== undefined ? data.reverse() : data, hasMore: rows.length > page.limit };
}

/**
 * Refuses with 400 `invalid_cursor` an id cursor that names no object of this list: an id of
 * another list, parent, merchant or environment, or an unknown one. A position outside the list
 * would page silently through something else. `listed` is the list WITHOUT its filters: an object
 * the filters now exclude is still a good position (objects change status between pages), and
 * the filters then pick the rows after it. A signed cursor (`page.signedCursor`) was bound to this
 * list when issued and is not looked up. An object deleted since (a webhook endpoint) is no longer
 * found: its id is refused, while the signed cursor of the page that showed it still works.
 * An unknown id and another merchant's get the same message, so nothing about others leaks.
 */
export async function assertCursorListed<DB, TB extends keyof DB, O>(listed: ListRows<DB, TB, O>, page: PageRequest): Promise<void> {
  if (page.signedCursor) return;
  const cursor =
    page.startingAfter !== undefined
      ? { field: 'starting_after', id: page.startingAfter }
      : page.endingBefore !== undefined
        ? { field: 'ending_before', id: page.endingBefore }
        : undefined;
  if (cursor === undefined || (await holds(listed, cursor.id))) return;
  throw AkweError.ofField(
    'invalid_cursor',
    cursor.field,
    `${cursor.field} is not an object of this list: pass next_cursor or previous_cursor from a page of this same list, or the id of one of its objects.`,
  );
}

async function holds<DB, TB extends keyof DB, O>(rows: ListRows<DB, TB, O>, id: string): Promise<boolean> {
  return (await cursorLookup(rows, id).executeTakeFirst()) !== undefined;
}

/** The object `id` if the list holds it: a lookup by id (exported so the query-plan test reads it). */
export function cursorLookup<DB, TB extends keyof DB, O>({ query, idColumn }: ListRows<DB, TB, O>, id: string): SelectQueryBuilder<DB, TB, O> {
  return query.where(idColumn as never, '=', id as never).limit(1);
}
