import { isSchemaNode, type SchemaNode } from './schema-walk.js';

const COMPONENTS_PATH = '#/components/schemas/';

/** Values a schema's format or type settles by itself, so a field needs no example of its own. */
const FORMAT_EXAMPLES: Record<string, unknown> = {
  'date-time': '2026-06-01T09:30:00.000Z',
  uuid: '0f8fad5b-d9cb-469f-a165-70867728950e',
  uri: 'https://shop.example.com/akwe/webhooks',
};

/**
 * An example value for a schema of the document, from the examples written next to the schemas:
 * the schema's own first example, else its default or first enum value, else one composed from its
 * parts (an object from its properties, an array of one item, the first union member that has
 * one). Undefined when some required part has none: a test then names the schema lacking one.
 */
export function exampleOf(schema: unknown, components: Record<string, unknown>, seen: Set<string> = new Set()): unknown {
  if (!isSchemaNode(schema)) return undefined;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.slice(COMPONENTS_PATH.length);
    if (!schema.$ref.startsWith(COMPONENTS_PATH) || seen.has(name)) return undefined;
    return exampleOf(components[name], components, new Set([...seen, name]));
  }
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (typeof schema.format === 'string' && schema.format in FORMAT_EXAMPLES) return FORMAT_EXAMPLES[schema.format];
  for (const combinator of ['allOf', 'anyOf', 'oneOf'] as const) {
    const members = schema[combinator];
    if (!Array.isArray(members)) continue;
    if (combinator === 'allOf') return members.length === 1 ? exampleOf(members[0], components, seen) : undefined;
    for (const member of members) {
      const example = exampleOf(member, components, seen);
      if (example !== undefined) return example;
    }
    return undefined;
  }
  const types = [schema.type].flat();
  if (isSchemaNode(schema.properties)) return objectExample(schema as SchemaNode & { properties: SchemaNode }, components, seen);
  if (types.includes('array')) {
    const item = exampleOf(schema.items, components, seen);
    return item === undefined ? undefined : [item];
  }
  if (types.includes('boolean')) return false;
  if (types.includes('null')) return null;
  return undefined;
}

function objectExample(schema: SchemaNode & { properties: SchemaNode }, components: Record<string, unknown>, seen: Set<string>): unknown {
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const example: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties)) {
    const value = exampleOf(property, components, seen);
    if (value !== undefined) example[name] = value;
    else if (required.has(name)) return undefined;
  }
  return example;
}
