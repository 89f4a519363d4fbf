/**
 * Refuses a request whose path parameters, query or JSON body hold the NUL character (U+0000) in
 * any string or object key, with 400 `validation_error` naming the field. No field of the API
 * accepts it, and the databases disagree about it: PostgreSQL cannot store it in text (the query
 * fails) while SQLite stores it. Refused at the edge, a request means the same on both.
 *
 * A preValidation hook: after authentication (401 still comes first) and body parsing, before the
 * route's schema, so the error names the field even where the schema would have accepted it.
 * A body a content-type parser made into a class (a CSV import, whose reader reports a NUL in a
 * cell as that line's problem) is left to that parser.
 */
import type { FastifyInstance } from 'fastify';
import { AkweError } from '../../core/errors/index.js';

const NUL = '\u0000';

export function installNulCharacterCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const field = fieldWithNul(request.params, []) ?? fieldWithNul(request.query, []) ?? (madeByJson(request.body) ? fieldWithNul(request.body, []) : undefined);
    if (field === undefined) return;
    const name = field.join('.') || 'body';
    const message = `${name} must not contain the NUL character (U+0000)`;
    throw AkweError.ofField('validation_error', name, message);
  });
}

/** The path of the first string or key holding NUL, or undefined. */
function fieldWithNul(value: unknown, path: string[]): string[] | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = fieldWithNul(value[index], [...path, String(index)]);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, member] of Object.entries(value)) {
    if (key.includes(NUL)) return [...path, key.replaceAll(NUL, '\\u0000')];
    const found = fieldWithNul(member, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** A JSON (or form) body: a value, an array or a plain object, not a class a content-type parser made. */
function madeByJson(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return true;
  const prototype: unknown = Object.getPrototypeOf(body);
  return prototype === Object.prototype || prototype === null;
}
