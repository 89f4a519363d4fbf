import { mapDocumentSchemas, type SchemaNode } from './schema-walk.js';

const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;
const COMPONENTS_PATH = '#/components/schemas/';

/**
 * Key order does not change a schema; sorting keys lets two copies of one schema compare equal.
 * Nor do its examples: @fastify/swagger moves a body's top-level `examples` to the media type, so a
 * copy used as a whole body has lost them while a nested copy keeps them.
 */
function canonicalJson(schema: SchemaNode): string {
  const { examples: _examples, ...rest } = schema;
  return JSON.stringify(rest, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => a.localeCompare(b))) : item,
  );
}

/**
 * Every schema with a `title` (a TypeBox object given `{ title: 'Payment' }`) moves to
 * components.schemas under that title, and a `$ref` takes its place wherever it was used: giving a
 * route schema a title is all it takes to name it in the document. Nested titled schemas are named
 * first, so a named schema refers to the names inside it. Two different schemas under one title
 * would make one of them lie, so that is refused.
 */
export function hoistNamedSchemas(document: SchemaNode): void {
  const components = (document.components ??= {}) as SchemaNode;
  const schemas = (components.schemas ??= {}) as Record<string, unknown>;
  const named = new Map<string, string>(Object.entries(schemas).map(([name, schema]) => [name, canonicalJson(schema as SchemaNode)]));

  mapDocumentSchemas(document, (schema) => {
    const name = schema.title;
    if (typeof name !== 'string') return schema;
    if (!COMPONENT_NAME.test(name)) throw new Error(`OpenAPI: schema title "${name}" is not a valid component name (letters, digits, . _ -)`);
    const json = canonicalJson(schema);
    const known = named.get(name);
    if (known !== undefined && known !== json) throw new Error(`OpenAPI: two different schemas are titled "${name}"; give each its own title`);
    named.set(name, json);
    // Keep the copy that still has its examples.
    if (!(schemas[name] as SchemaNode | undefined)?.examples || schema.examples) schemas[name] = schema;
    return { $ref: `${COMPONENTS_PATH}${name}` };
  });
}
