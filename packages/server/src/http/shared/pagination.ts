import { Type, type TProperties, type TSchema } from 'typebox';
import { maxPageLimit, defaultPageLimit } from '../../core/shared/pagination.js';

const cursor = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 700, description }));

const cursorRules =
  'Either a cursor this list returned (next_cursor or previous_cursor: signed, valid only with the same path and filters, else 400 invalid_cursor) or the id of an object of this list (any status: objects change between pages; an id that is no object of this list is 400 invalid_cursor).';

/** The query parameters every list shares (docs/decisions.md "Lists"). */
export const pageQueryFields = {
  limit: Type.Integer({ minimum: 1, maximum: maxPageLimit, default: defaultPageLimit, description: `Objects per page, 1 to ${maxPageLimit}.` }),
  starting_after: cursor(`Returns the objects after this position in this list's order (the next page). ${cursorRules}`),
  ending_before: cursor(`Returns the objects before this position in this list's order (the previous page). Not with starting_after. ${cursorRules}`),
};

/** A list's query string: the page fields plus its filters; any other parameter is refused (400). */
export function listQuery<T extends TProperties>(filters: T, options: { patternProperties?: Record<string, TSchema> } = {}) {
  return Type.Object({ ...pageQueryFields, ...filters }, { additionalProperties: false, ...options });
}

/** The one list envelope: `{object: "list", data, has_more, next_cursor, previous_cursor}`. */
export function listOf<T extends TSchema>(item: T, options: { title?: string; description?: string } = {}) {
  return Type.Object(
    {
      object: Type.Literal('list'),
      data: Type.Array(item),
      has_more: Type.Boolean({ description: 'More objects lie beyond this page in the direction read.' }),
      next_cursor: Type.Union([Type.String(), Type.Null()], {
        description:
          "Pass as starting_after, with the same filters, for the objects after this page in this list's order. Null when there are none: has_more is false after a read forwards, or the page is empty.",
      }),
      previous_cursor: Type.Union([Type.String(), Type.Null()], {
        description:
          "Pass as ending_before, with the same filters, for the objects before this page in this list's order. Null on a first page (no cursor), when has_more is false after a read with ending_before, or when the page is empty.",
      }),
    },
    options,
  );
}
