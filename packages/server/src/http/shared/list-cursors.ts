import { createHash, createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AkweError } from '../../core/errors/index.js';
import { sameText } from '../../core/shared/constant-time.js';
import { looksLikeId } from '../../core/shared/ids.js';
import type { TenantScope } from '../../core/shared/environment.js';
import type { Page, PageRequest } from '../../core/shared/pagination.js';
import { principalOf } from '../plugins/authentication.js';

/**
 * Signed list cursors (docs/decisions.md "Lists"). Every list answer carries `next_cursor` and
 * `previous_cursor`: base64url of a small JSON payload (the list, a digest of the merchant,
 * environment and parent object, a digest of the filters, the object id), a dot, and an
 * HMAC-SHA256 tag under a key derived from the server's secret. Passed back as `starting_after` or
 * `ending_before`, a token is checked without a database read: its position is its id. An object
 * id (a UUID) is still accepted there too; the two are told apart by their shape.
 */
export class ListCursors {
  #key: Buffer | undefined;

  constructor(private readonly serverSecret: () => string) {}

  /** A dedicated sub-key: the server secret keys other things (checkout forms, sealed secrets). */
  private key(): Buffer {
    this.#key ??= createHmac('sha256', this.serverSecret()).update('akwe list cursors v1').digest();
    return this.#key;
  }

  issue(binding: Binding, id: string): string {
    const payload = Buffer.from(JSON.stringify({ v: 1, l: binding.list, s: binding.scope, f: binding.filters, i: id })).toString('base64url');
    return `${payload}.${this.tag(payload)}`;
  }

  /** The object id a token holds, once its signature, list, scope and filters match `binding`. */
  verify(binding: Binding, field: string, token: string): string {
    const [payload, tag] = token.split('.');
    // Compared as text: base64url decoding would let some altered last characters through.
    if (!sameText(tag ?? '', this.tag(payload ?? ''))) throw notIssued(field);
    let read: unknown;
    try {
      read = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8'));
    } catch {
      throw notIssued(field);
    }
    const claims = read as Partial<Record<'v' | 'l' | 's' | 'f' | 'i', unknown>>;
    if (typeof read !== 'object' || read === null || claims.v !== 1 || typeof claims.i !== 'string' || !looksLikeId(claims.i)) throw notIssued(field);
    if (claims.l !== binding.list || claims.s !== binding.scope) {
      throw AkweError.ofField(
        'invalid_cursor',
        field,
        `${field} was issued for another list: a cursor continues only the list that returned it (the same path, merchant and environment).`,
      );
    }
    if (claims.f !== binding.filters) {
      throw AkweError.ofField('invalid_cursor', field, `${field} was issued for other filters: repeat the filters of the request that returned it.`);
    }
    return claims.i;
  }

  private tag(payload: string): string {
    return createHmac('sha256', this.key()).update(payload).digest('base64url');
  }
}

/** What a token is bound to, as digests (so a token stays short whatever the filters). */
interface Binding {
  list: string;
  scope: string;
  filters: string;
}

const notIssued = (field: string) =>
  AkweError.ofField(
    'invalid_cursor',
    field,
    `${field} is not a cursor this list returned (altered or cut short?): pass next_cursor or previous_cursor exactly as received, or the id of an object of this list.`,
  );

const tokenShape = /^[A-Za-z0-9_-]{1,600}\.[A-Za-z0-9_-]{43}$/;

/** Canonical JSON: keys sorted, undefined members left out, so equal filters give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, member]) => `${JSON.stringify(name)}:${canonicalJson(member)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const digest = (text: string) => createHash('sha256').update(text).digest().subarray(0, 12).toString('base64url');

declare module 'fastify' {
  interface FastifyInstance {
    listCursors?: ListCursors;
  }
}

/** Makes the lists registered under `api` sign their cursors with a key derived from `serverSecret`. */
export function installListCursors(api: FastifyInstance, serverSecret: () => string): void {
  api.decorate('listCursors', new ListCursors(serverSecret));
}

/** One list request: its page, read from the cursor parameters, and its answer's envelope. */
export interface ListRead {
  page: PageRequest;
  envelope<T extends { id: string }, U>(
    page: Page<T>,
    map: (item: T) => U,
  ): { object: 'list'; data: U[]; has_more: boolean; next_cursor: string | null; previous_cursor: string | null };
}

/**
 * Reads the page of the list `list` (a stable name), whose rows `filters` keep (the values the
 * route filters on, after normalisation) under the parent object `parent` (a path parameter) if
 * nested. Cursor tokens are bound to those and to the caller's merchant and environment (`scope`
 * when given: a dashboard route's).
 */
export function readList(request: FastifyRequest, list: string, filters: object = {}, parent?: string, scope?: TenantScope): ListRead {
  const cursors = request.server.listCursors;
  if (cursors === undefined) throw new Error('list route registered without installListCursors');
  // The API key's merchant and environment, or those a dashboard route acts in.
  const principal = scope ?? principalOf(request);
  const binding: Binding = {
    list,
    scope: digest(canonicalJson([principal.merchantId, principal.environment, parent === undefined ? null : looksLikeId(parent) ? parent.toLowerCase() : parent])),
    filters: digest(canonicalJson(filters)),
  };
  const query = request.query as { limit: number; starting_after?: string; ending_before?: string };
  if (query.starting_after !== undefined && query.ending_before !== undefined) {
    throw new AkweError('validation_error', 'Send starting_after or ending_before, not both.', { field: 'ending_before' });
  }
  let signed = false;
  const position = (field: string, value: string | undefined): string | undefined => {
    if (value === undefined) return undefined;
    // Ids are stored in lower case: an upper-case copy of one must read the same place.
    if (looksLikeId(value)) return value.toLowerCase();
    if (tokenShape.test(value)) {
      signed = true;
      return cursors.verify(binding, field, value);
    }
    // Anything else used to read as a position before every id and answer page 1 again with
    // has_more: a client following cursors looped forever.
    throw AkweError.ofField(
      'invalid_cursor',
      field,
      `${field} must be a cursor this list returned (next_cursor or previous_cursor) or the id of an object of this list; got ${JSON.stringify(value.slice(0, 64))}.`,
    );
  };
  const startingAfter = position('starting_after', query.starting_after);
  const endingBefore = position('ending_before', query.ending_before);
  const page: PageRequest = { limit: query.limit, startingAfter, endingBefore, ...(signed ? { signedCursor: true } : {}) };
  return {
    page,
    envelope(result, map) {
      const first = result.data[0];
      const last = result.data.at(-1);
      const backwards = endingBefore !== undefined;
      const cursorAt = (item: { id: string } | undefined, more: boolean) => (item !== undefined && more ? cursors.issue(binding, item.id) : null);
      return {
        object: 'list' as const,
        data: result.data.map(map),
        has_more: result.hasMore,
        // Towards the direction read, has_more tells; the other way, there is more when the
        // request started from a cursor (at least that cursor's object).
        next_cursor: cursorAt(last, backwards ? true : result.hasMore),
        previous_cursor: cursorAt(first, backwards ? result.hasMore : startingAfter !== undefined),
      };
    },
  };
}
