import type { SchemaNode } from './schema-walk.js';

/**
 * @fastify/swagger marks a query parameter required when its schema is not optional, even when it
 * has a default the server fills in (`limit`, `sync`, `delimiter`). Sending it is optional, so the
 * document says so: generated clients would otherwise make every list call pass `limit`.
 */
export function optionalDefaultedQueryParameters(document: SchemaNode): void {
  for (const pathItem of Object.values((document.paths ?? {}) as Record<string, Record<string, { parameters?: SchemaNode[] }>>)) {
    for (const operation of Object.values(pathItem)) {
      for (const parameter of operation?.parameters ?? []) {
        if (parameter.in === 'query' && parameter.required === true && (parameter.schema as SchemaNode | undefined)?.default !== undefined) parameter.required = false;
      }
    }
  }
}
