import { isSchemaNode, type SchemaNode } from './schema-walk.js';

/** Keywords a literal may carry besides its value without changing what it accepts. */
const LITERAL_KEYWORDS = new Set(['type', 'const', 'enum', 'title', 'description']);

/** The one value a schema accepts (`{const: v}` or `{enum: [v]}`), if it is a plain literal. */
function literalOf(schema: unknown): { value: unknown; type: unknown } | undefined {
  if (!isSchemaNode(schema) || !Object.keys(schema).every((key) => LITERAL_KEYWORDS.has(key))) return undefined;
  if ('const' in schema) return { value: schema.const, type: schema.type };
  if (Array.isArray(schema.enum) && schema.enum.length === 1) return { value: schema.enum[0], type: schema.type };
  if (schema.type === 'null') return { value: null, type: 'null' };
  return undefined;
}

/**
 * TypeBox writes a union of literals as `anyOf` of `const`s; documents and generated clients read
 * an `enum` better (one list in the reference, one string union in the types). A lone `const` becomes
 * a one-value `enum` too: Swagger UI does not show `const`. A null member makes the type nullable.
 */
export function literalUnionToEnum(schema: SchemaNode): SchemaNode {
  if ('const' in schema) {
    const { const: value, ...rest } = schema;
    return { ...rest, enum: [value] };
  }
  const combinator = Array.isArray(schema.anyOf) ? 'anyOf' : Array.isArray(schema.oneOf) ? 'oneOf' : undefined;
  if (!combinator) return schema;
  const literals = (schema[combinator] as unknown[]).map(literalOf);
  if (literals.length === 0 || literals.some((literal) => literal === undefined)) return schema;
  const types = [...new Set(literals.map((literal) => literal!.type).filter((type) => type !== undefined && type !== 'null'))];
  if (types.length > 1) return schema;
  const nullable = literals.some((literal) => literal!.type === 'null');
  const { [combinator]: _members, ...rest } = schema;
  return {
    ...rest,
    ...(types.length === 1 ? { type: nullable ? [types[0], 'null'] : types[0] } : {}),
    enum: literals.map((literal) => literal!.value),
  };
}
