/**
 * The one pagination shape of every list (docs/decisions.md "Lists"): newest first, keyset cursors
 * on the object's id (UUIDv7, so id order is creation order), `has_more` instead of a total.
 */
export interface PageRequest {
  limit: number;
  /** Id of the last object of the previous page: the page holds the objects older than it. */
  startingAfter?: string;
  /** Id of the first object of the next page: the page holds the objects newer than it. */
  endingBefore?: string;
  /**
   * The cursor came from a token this server signed for this very list, merchant, environment and
   * filters: its object needs no lookup. A bare id is looked up in the list (without its filters).
   */
  signedCursor?: boolean;
}

export interface Page<T> {
  data: T[];
  /** More objects lie beyond this page in the direction it was read. */
  hasMore: boolean;
}

export const defaultPageLimit = 20;
export const maxPageLimit = 100;

export function mapPage<T, U>(page: Page<T>, map: (item: T) => U): Page<U> {
  return { data: page.data.map(map), hasMore: page.hasMore };
}
