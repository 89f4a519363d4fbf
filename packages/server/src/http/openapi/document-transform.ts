import { literalUnionToEnum } from './literal-enums.js';
import { addMediaExamples } from './media-examples.js';
import { optionalDefaultedQueryParameters } from './defaulted-parameters.js';
import { hoistNamedSchemas } from './named-schemas.js';
import { mapDocumentSchemas, type SchemaNode } from './schema-walk.js';
import { webhooksSection } from './webhooks-section.js';

/**
 * @fastify/swagger's `transformObject`: the finishing of the whole document. The webhooks join the
 * paths first so that everything after applies to both; literal unions become enums before named
 * schemas are compared, so a schema reads the same wherever it was written.
 */
export function documentTransform(documentObject: { openapiObject: object } | { swaggerObject: object }) {
  if (!('openapiObject' in documentObject)) throw new Error('OpenAPI: expected an OpenAPI 3 document');
  const { openapiObject } = documentObject;
  const document = openapiObject as SchemaNode;
  document.webhooks = webhooksSection();
  mapDocumentSchemas(document, literalUnionToEnum, { components: true });
  hoistNamedSchemas(document);
  addMediaExamples(document);
  optionalDefaultedQueryParameters(document);
  return openapiObject as never;
}
