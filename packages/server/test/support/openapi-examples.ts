/** The examples of an OpenAPI document, found where they are, and checked against their own schemas with Ajv. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const DOCUMENT_ID = 'openapi.json';
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace']);

export interface MediaBody {
  /** `POST /api/v1/collect/payments 201 application/json` or `… request …`. */
  where: string;
  pointer: string;
  media: Json;
}

const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** Every request and response media type object of the document's operations and webhooks. */
export function mediaBodies(document: Json): MediaBody[] {
  const found: MediaBody[] = [];
  for (const section of ['paths', 'webhooks'] as const) {
    for (const [path, item] of Object.entries((document[section] ?? {}) as Json)) {
      for (const [method, operation] of Object.entries(item as Json).filter(([key]) => HTTP_METHODS.has(key))) {
        const base = `/${section}/${escape(path)}/${method}`;
        const bodies: [string, string, Json | undefined][] = [
          ['request', `${base}/requestBody`, (operation as Json).requestBody],
          ...Object.entries(((operation as Json).responses ?? {}) as Json).map(
            ([status, response]) => [status, `${base}/responses/${escape(status)}`, response] as [string, string, Json],
          ),
        ];
        for (const [label, pointer, body] of bodies) {
          for (const [type, media] of Object.entries((body?.content ?? {}) as Json)) {
            found.push({ where: `${method.toUpperCase()} ${path} ${label} ${type}`, pointer: `${pointer}/content/${escape(type)}`, media: media as Json });
          }
        }
      }
    }
  }
  return found;
}

/** The values a media type object shows: its `example`, or each `examples` entry's `value`. */
export function mediaExamples(media: Json): unknown[] {
  if ('example' in media) return [media.example];
  return Object.values((media.examples ?? {}) as Json).map((entry) => (entry as Json).value);
}

/** Every schema of the document that carries an `examples` array, with its JSON pointer. */
export function* schemasWithExamples(node: unknown, pointer = ''): Generator<{ pointer: string; examples: unknown[] }> {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) yield* schemasWithExamples(item, `${pointer}/${index}`);
    return;
  }
  if (!node || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    // An example is data: never looked into. A media type's `examples` is a map, not an array.
    if (key === 'example' || key === 'examples' || key === 'enum' || key === 'default') continue;
    yield* schemasWithExamples(value, `${pointer}/${escape(key)}`);
  }
  const examples = (node as Json).examples;
  if (Array.isArray(examples)) yield { pointer, examples };
}

/** Validates a value against the schema at `pointer` in the document (its `$ref`s resolved in the document). */
export function documentValidator(document: Json): (pointer: string, value: unknown) => string[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  ajv.addSchema(structuredClone(document), DOCUMENT_ID);
  return (pointer, value) => {
    const validate = ajv.getSchema(`${DOCUMENT_ID}#${pointer}`);
    if (!validate) return [`no schema at ${pointer}`];
    return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '(root)'} ${error.message} ${JSON.stringify(error.params)}`);
  };
}
