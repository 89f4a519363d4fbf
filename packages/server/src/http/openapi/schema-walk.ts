/** A JSON Schema (or OpenAPI Schema Object) seen as plain data. */
export type SchemaNode = Record<string, unknown>;

/** Keywords whose values are data, not schemas: never walked into. */
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'example', 'examples', 'required']);

export function isSchemaNode(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Calls `visit` on every schema nested in `node` (children first, then `node` itself) and puts
 * back what it returns, so a visitor can replace a schema. Data keywords are left alone.
 */
export function mapSchemas(node: unknown, visit: (schema: SchemaNode) => SchemaNode): unknown {
  if (Array.isArray(node)) return node.map((item) => mapSchemas(item, visit));
  if (!isSchemaNode(node)) return node;
  const mapped: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) mapped[key] = DATA_KEYWORDS.has(key) ? value : mapSchemas(value, visit);
  return visit(mapped);
}

/**
 * Every schema of an OpenAPI document's operations (paths and webhooks: parameters, request and
 * response bodies), and with `components: true` the inside of each components.schemas entry too.
 */
export function mapDocumentSchemas(document: SchemaNode, visit: (schema: SchemaNode) => SchemaNode, { components = false } = {}): void {
  const operations = [...Object.values(asRecord(document.paths)), ...Object.values(asRecord(document.webhooks))].flatMap((pathItem) => Object.values(asRecord(pathItem)));
  for (const operation of operations.filter(isSchemaNode)) {
    const parameters = Array.isArray(operation.parameters) ? operation.parameters.filter(isSchemaNode) : [];
    for (const parameter of parameters) if (parameter.schema) parameter.schema = mapSchemas(parameter.schema, visit);
    const bodies = [operation.requestBody, ...Object.values(asRecord(operation.responses))];
    for (const body of bodies.filter(isSchemaNode)) {
      for (const media of Object.values(asRecord(body.content)).filter(isSchemaNode)) {
        if (media.schema) media.schema = mapSchemas(media.schema, visit);
      }
    }
  }
  if (!components) return;
  const schemas = asRecord(asRecord(document.components).schemas);
  for (const [name, schema] of Object.entries(schemas)) schemas[name] = mapSchemas(schema, visit);
}

function asRecord(value: unknown): Record<string, unknown> {
  return isSchemaNode(value) ? value : {};
}
