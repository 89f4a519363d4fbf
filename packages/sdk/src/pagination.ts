/**
 * Lists. Every list answers `{object: "list", data, has_more, next_cursor, previous_cursor}`.
 * A list call gives a ListPromise: `await` it for one page, or `for await` over it for every item
 * of every page, the cursors followed for you (forwards with starting_after, or backwards with
 * ending_before when the first call used ending_before).
 */

export interface ListBody<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
  previous_cursor: string | null;
}

export interface CursorParams {
  starting_after?: string;
  ending_before?: string;
}

type FetchPage<T> = (cursor: CursorParams) => Promise<ListBody<T>>;

export class Page<T> implements AsyncIterable<T> {
  readonly data: T[];
  readonly hasMore: boolean;
  readonly nextCursor: string | null;
  readonly previousCursor: string | null;

  constructor(
    private readonly fetchPage: FetchPage<T>,
    body: ListBody<T>,
    private readonly backwards: boolean,
  ) {
    this.data = body.data;
    this.hasMore = body.has_more;
    this.nextCursor = body.next_cursor;
    this.previousCursor = body.previous_cursor;
  }

  /** The cursor that continues this list in the direction it is read. */
  private get continuation(): string | null {
    return this.backwards ? this.previousCursor : this.nextCursor;
  }

  hasNextPage(): boolean {
    return this.hasMore && this.continuation !== null;
  }

  /** The page after this one in the direction read, or null at the end. */
  async nextPage(): Promise<Page<T> | null> {
    const cursor = this.continuation;
    if (!this.hasMore || cursor === null) return null;
    const body = await this.fetchPage(this.backwards ? { ending_before: cursor } : { starting_after: cursor });
    return new Page(this.fetchPage, body, this.backwards);
  }

  /** This page's items, then every following page's. */
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    yield* this.data;
    let page = await this.nextPage();
    while (page) {
      yield* page.data;
      page = await page.nextPage();
    }
  }
}

/** The first page as a promise, and every item as an async iterable. */
export class ListPromise<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  private firstPage: Promise<Page<T>> | undefined;

  constructor(
    private readonly fetchPage: FetchPage<T>,
    private readonly initialCursor: CursorParams,
  ) {}

  private load(): Promise<Page<T>> {
    this.firstPage ??= this.fetchPage(this.initialCursor).then((body) => new Page(this.fetchPage, body, this.initialCursor.ending_before !== undefined));
    return this.firstPage;
  }

  then<R1 = Page<T>, R2 = never>(
    onFulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.load().then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    yield* await this.load();
  }

  /** Every item, up to `limit` of them (a guard against reading a huge list into memory by mistake). */
  async toArray({ limit = 10_000 }: { limit?: number } = {}): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) {
      if (items.length >= limit) break;
      items.push(item);
    }
    return items;
  }
}

/** A list call: the query's own cursor starts it, and every later page keeps the other filters. */
export function listOf<T, Q extends object>(query: Q | undefined, fetchPage: (query: Q & CursorParams) => Promise<ListBody<T>>): ListPromise<T> {
  const { starting_after, ending_before, ...filters } = (query ?? {}) as Q & CursorParams;
  const initial: CursorParams = {};
  if (starting_after !== undefined) initial.starting_after = starting_after;
  if (ending_before !== undefined) initial.ending_before = ending_before;
  return new ListPromise<T>((cursor) => fetchPage({ ...(filters as Q), ...cursor }), initial);
}
