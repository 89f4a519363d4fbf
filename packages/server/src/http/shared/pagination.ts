import { Type, type TProperties, type TSchema } from 'typebox';
import { AkweError } from '../../core/errors/index.js';
import { looksLikeId } from '../../core/shared/ids.js';
import { defaultPageLimit, maxPageLimit, type Page, type PageRequest } from '../../core/shared/pagination.js';

const cursor = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 64, description }));

/** The query parameters every list shares (docs/decisions.md "Lists"). */
export const pageQueryFields = {
  limit: Type.Integer({ minimum: 1, maximum: maxPageLimit, default: defaultPageLimit, description: `Objects per page, 1 to ${maxPageLimit}.` }),
  starting_after: cursor('Cursor: the id of the last object of the previous page; returns older objects. It must be an object of this list under the same filters, else 400 invalid_cursor.'),
  ending_before: cursor('Cursor: the id of the first object of the page after; returns newer objects. Not with starting_after. It must be an object of this list under the same filters, else 400 invalid_cursor.'),
};

/** A list's query string: the page fields plus its filters; any other parameter is refused (400). */
export function listQuery<T extends TProperties>(filters: T, options: { patternProperties?: Record<string, TSchema> } = {}) {
  return Type.Object({ ...pageQueryFields, ...filters }, { additionalProperties: false, ...options });
}

/** The one list envelope: `{object: "list", data, has_more}`. */
export function listOf<T extends TSchema>(item: T, options: { title?: string; description?: string } = {}) {
  return Type.Object(
    { object: Type.Literal('list'), data: Type.Array(item), has_more: Type.Boolean({ description: 'More objects lie beyond this page in the direction read.' }) },
    options,
  );
}

export function toPageRequest(query: { limit: number; starting_after?: string; ending_before?: string }): PageRequest {
  if (query.starting_after !== undefined && query.ending_before !== undefined) {
    throw new AkweError('validation_error', 'Send starting_after or ending_before, not both.', { field: 'ending_before' });
  }
  // A cursor is an object id (UUID). Anything else used to read as a position before every id
  // and answer page 1 again with has_more: a client following cursors looped forever.
  for (const [field, value] of [['starting_after', query.starting_after], ['ending_before', query.ending_before]] as const) {
    if (value !== undefined && !looksLikeId(value)) {
      throw AkweError.ofField('invalid_cursor', field, `${field} must be the id of an object of this list (a UUID such as the \`id\` of the last object of the page you read); got ${JSON.stringify(value.slice(0, 64))}.`);
    }
  }
  // Ids are stored in lower case: an upper-case copy of one must read the same place.
  return { limit: query.limit, startingAfter: query.starting_after?.toLowerCase(), endingBefore: query.ending_before?.toLowerCase() };
}

export function toWireList<T, U>(page: Page<T>, map: (item: T) => U) {
  return { object: 'list' as const, data: page.data.map(map), has_more: page.hasMore };
}
