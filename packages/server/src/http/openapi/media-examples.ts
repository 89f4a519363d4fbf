import { STATUS_CODES } from 'node:http';
import { errorCatalog, type ErrorCode } from '../../core/errors/index.js';
import { LegacyError } from '../contracts/collect-legacy/schemas.js';
import { titleOf } from './error-code-enum.js';
import { exampleOf } from './schema-example.js';
import { isSchemaNode, type SchemaNode } from './schema-walk.js';

const COMPONENTS_PATH = '#/components/schemas/';
const REQUEST_ID = 'req_01J8Z6Q4W2M5N7P9R3T5V7X9Z1';

function records(value: unknown): SchemaNode[] {
  return isSchemaNode(value) ? Object.values(value).filter(isSchemaNode) : [];
}

/** The codes and body of an error response narrowed by the operation transform (error-code-enum.ts). */
function narrowedErrorBodies(schema: unknown): { body: string; codes: ErrorCode[] }[] {
  if (!isSchemaNode(schema)) return [];
  if (Array.isArray(schema.anyOf)) return schema.anyOf.flatMap(narrowedErrorBodies);
  if (!Array.isArray(schema.allOf)) return [];
  const members = schema.allOf.filter(isSchemaNode);
  const body = members.find((member) => typeof member.$ref === 'string')?.$ref as string | undefined;
  const narrowing = members.find((member) => member.$ref === undefined) as
    { properties?: { error?: { properties?: { code?: { enum?: ErrorCode[] } } }; code?: { enum?: ErrorCode[] } } } | undefined;
  const codes = narrowing?.properties?.error?.properties?.code?.enum ?? narrowing?.properties?.code?.enum;
  return body && codes ? [{ body: body.slice(COMPONENTS_PATH.length), codes }] : [];
}

/** One error body as the server writes it for `code`, in the shape named `body`. */
function errorExample(body: string, code: ErrorCode, status: number, errorSchema: SchemaNode | undefined, publicUrl: string): unknown {
  const { message } = errorCatalog[code];
  if (body === titleOf(LegacyError)) {
    // The earlier contract answers a validation failure as field -> messages.
    if (code === 'validation_error') return { phone: ['Expected string length less or equal to 20'] };
    return { error: STATUS_CODES[status] ?? 'Error', code, detail: message };
  }
  const error: Record<string, unknown> = { code, message };
  if (code === 'validation_error') {
    error.field = 'amount';
    error.details = [{ field: 'amount', message: 'Expected integer' }];
  }
  // The body may carry a link to the code's entry in the error reference.
  const properties = (errorSchema?.properties as { error?: { properties?: Record<string, unknown> } } | undefined)?.error?.properties;
  if (properties && 'doc_url' in properties) error.doc_url = `${publicUrl}/docs/errors#${code}`;
  error.request_id = REQUEST_ID;
  return { error };
}

/**
 * Every request and response body of the document gets an example in its media type object, where
 * Swagger UI shows it: the example written next to its schema (or composed from its parts, see
 * exampleOf), and for an error response one example per code it can answer.
 */
export function addMediaExamples(document: SchemaNode): void {
  const components = ((document.components as SchemaNode | undefined)?.schemas ?? {}) as Record<string, unknown>;
  const publicUrl = String((document.servers as { url: string }[] | undefined)?.[0]?.url ?? '').replace(/\/$/, '');
  const operations = [...records(document.paths), ...records(document.webhooks)].flatMap(records);
  for (const operation of operations) {
    const bodies: [string, SchemaNode][] = [
      ...(isSchemaNode(operation.requestBody) ? [['request', operation.requestBody] as [string, SchemaNode]] : []),
      ...Object.entries(operation.responses ?? {}).filter((entry): entry is [string, SchemaNode] => isSchemaNode(entry[1])),
    ];
    for (const [status, body] of bodies) {
      for (const media of records(body.content)) {
        if ('example' in media || 'examples' in media) continue;
        const errors = Number(status) >= 400 ? narrowedErrorBodies(media.schema) : [];
        if (errors.length > 0) {
          media.examples = Object.fromEntries(
            errors.flatMap(({ body: shape, codes }) =>
              codes.map((code) => [
                code,
                { summary: errorCatalog[code].message, value: errorExample(shape, code, Number(status), components[shape] as SchemaNode | undefined, publicUrl) },
              ]),
            ),
          );
          continue;
        }
        const example = exampleOf(media.schema, components);
        if (example !== undefined) media.example = example;
      }
    }
  }
}
