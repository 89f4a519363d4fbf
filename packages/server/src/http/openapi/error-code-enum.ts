import type { ErrorCode } from '../../core/errors/index.js';
import { LegacyError } from '../contracts/collect-legacy/schemas.js';
import { ErrorResponse } from '../shared/error-schemas.js';

type Schema = Record<string, unknown>;

const codeEnum = (codes: ErrorCode[]) => ({ type: 'string', enum: codes });

/** The name a schema goes by in the document (its title, see named-schemas.ts). */
export const titleOf = (schema: object): unknown => (schema as { title?: unknown }).title;

/**
 * An error body narrowed to the codes one operation can answer with one status: the shared body
 * (named `Error` or `LegacyError` in the document) and, beside it in `allOf`, `code` as an enum.
 * Generated clients then type `error.code` per operation, and the reference lists the codes.
 * A schema that is neither error body (a union of the earlier contract's) is narrowed member by member.
 */
export function narrowedToCodes(schema: unknown, codes: ErrorCode[]): unknown {
  if (codes.length === 0 || typeof schema !== 'object' || schema === null) return schema;
  const node = schema as Schema;
  if (node.title === titleOf(ErrorResponse)) {
    return { allOf: [node, { type: 'object', properties: { error: { type: 'object', properties: { code: codeEnum(codes) } } } }] };
  }
  if (node.title === titleOf(LegacyError)) return { allOf: [node, { type: 'object', properties: { code: codeEnum(codes) } }] };
  for (const combinator of ['anyOf', 'oneOf'] as const) {
    if (Array.isArray(node[combinator])) return { ...node, [combinator]: (node[combinator] as unknown[]).map((member) => narrowedToCodes(member, codes)) };
  }
  return schema;
}
